package pipeline

import (
	"fmt"
	"math"

	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/vectorize"
)

// SemiReport describes what semi-supervised training did.
type SemiReport struct {
	Method    SemiMethod
	Unlabeled int // unlabeled documents given
	// Rounds is the number of self-training rounds or EM iterations that
	// refitted the model.
	Rounds int
	// Added is the number of unlabeled documents in the final counts:
	// pseudo-labeled ones for NSNB and SNB, all of them (as λ-weighted soft
	// counts) for EM.
	Added int
	// Converged reports that training stopped before the round limit: no
	// document left or qualifying (NSNB, SNB), or the objective settled (EM).
	Converged bool
	// LogLikelihood is EM's final λ-weighted objective; 0 otherwise.
	LogLikelihood float64
}

// String summarizes r in one line, for logs and the command line.
func (r SemiReport) String() string {
	switch r.Method {
	case NoSemi:
		return "no semi-supervised training"
	case EM:
		return fmt.Sprintf("em: %d unlabeled documents as soft counts, %s%s",
			r.Added, Plural(r.Rounds, "iteration"), converged(r.Converged))
	}
	return fmt.Sprintf("%v: %d of %d unlabeled documents pseudo-labeled in %s%s",
		r.Method, r.Added, r.Unlabeled, Plural(r.Rounds, "round"), converged(r.Converged))
}

// Plural is "n unit", with an s after unit unless n is 1.
func Plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

func converged(ok bool) string {
	if ok {
		return " (converged)"
	}
	return ""
}

// validate checks every field (zero means the default),
// so that a bad setting can fail before any document is read; package nb
// checks them again when it fits.
func (s Semi) validate() error {
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 }
	switch {
	case s.Method > EM:
		return fmt.Errorf("%w: unknown semi-supervised method %v", ErrConfig, s.Method)
	case bad(s.K):
		return fmt.Errorf("%w: semi-supervised K %g, want a finite value ≥ 0", ErrConfig, s.K)
	case bad(s.Threshold) || s.Threshold >= 1:
		return fmt.Errorf("%w: semi-supervised threshold %g, want in [0, 1)", ErrConfig, s.Threshold)
	case s.Rounds < 0:
		return fmt.Errorf("%w: semi-supervised rounds %d, want ≥ 0", ErrConfig, s.Rounds)
	case bad(s.Lambda):
		return fmt.Errorf("%w: semi-supervised lambda %g, want a finite value ≥ 0", ErrConfig, s.Lambda)
	}
	return nil
}

// Semi-supervised defaults of the text pipeline, for zero fields of Semi;
// Threshold and Rounds default to package nb's (0.9; 10 rounds, 50 EM
// iterations). They were chosen on a validation split of 20 Newsgroups
// (benchmarks/semi -validate; figures in docs/performance.md) with the
// default Complement NB on TF-IDF, whose posteriors are nearly flat.
//
// NSNB computes its confidence and pseudo-labels from posteriors of
// per-class standardized scores (nb.SelfTraining.Standardize): Complement
// NB's margins are not comparable across classes, so with the raw
// posteriors one class takes far more than its share of the first round
// and snowballs, and Multinomial NB collapses to one class.
const (
	// DefaultSemiK: NSNB adds half of the remaining documents per round.
	DefaultSemiK = 0.5
	// DefaultSemiLambda weights the unlabeled soft counts. Complement NB's
	// score is not a likelihood, so EM stops after one step, and flat
	// posteriors put a document's evidence in λ·(P − 1/K): a λ well above
	// 1 lets it count.
	DefaultSemiLambda = 10
)

// fitSemi trains on the labeled rows of X (y ≥ 0) and the unlabeled ones
// (y < 0) with Config.Semi and returns the counts the final classifier was
// fitted on, with what the method did.
func (m *Model) fitSemi(X *vectorize.CSR, y []int) (*nb.Counts, SemiReport, error) {
	s := m.Config.Semi
	if err := s.validate(); err != nil {
		return nil, SemiReport{}, err
	}
	labeled, yl, unlabeled := splitLabeled(X, y)
	res, err := s.fit(m.newEstimator(), labeled, yl, unlabeled, len(m.Classes))
	if err != nil {
		return nil, SemiReport{}, fmt.Errorf("%v: %w", s.Method, err)
	}
	// The counts the final model was fitted on, exactly, without rebuilding
	// them from pseudo-labels or posteriors (and without the floating-point
	// drift of summing them in another order).
	return res.Counts, SemiReport{Method: s.Method, Unlabeled: unlabeled.Rows, Rounds: res.Rounds, Added: res.Added,
		Converged: res.Converged, LogLikelihood: res.LogLikelihood}, nil
}

// fit runs the configured method of package nb.
func (s Semi) fit(est nb.Estimator, labeled *vectorize.CSR, y []int, unlabeled *vectorize.CSR, classes int) (nb.Result, error) {
	switch s.Method {
	case NSNB, SNB:
		// NSNB ranks by standardized scores (see DefaultSemiK); SNB keeps
		// the classifier's posteriors, which its threshold is about.
		st := nb.SelfTraining{K: s.K, Threshold: s.Threshold, Rounds: s.Rounds, Standardize: !s.RawPosteriors}
		if s.Method == SNB {
			st.SNB, st.Standardize = true, false
		}
		if st.K == 0 {
			st.K = DefaultSemiK
		}
		return st.Fit(est, labeled, y, unlabeled, classes)
	case EM:
		e := nb.EM{Lambda: s.Lambda, MaxIter: s.Rounds}
		if e.Lambda == 0 {
			e.Lambda = DefaultSemiLambda
		}
		return e.Fit(est, labeled, y, unlabeled, classes)
	}
	return nb.Result{}, fmt.Errorf("%w: no semi-supervised method", ErrConfig)
}

// splitLabeled returns the rows of X with y ≥ 0 and their labels, and the
// rows with y < 0, each in their original order.
func splitLabeled(X *vectorize.CSR, y []int) (labeled *vectorize.CSR, yl []int, unlabeled *vectorize.CSR) {
	labeled, unlabeled = vectorize.NewCSR(X.Cols), vectorize.NewCSR(X.Cols)
	for i, label := range y {
		if label < 0 {
			unlabeled.AppendRow(X.Row(i))
			continue
		}
		labeled.AppendRow(X.Row(i))
		yl = append(yl, label)
	}
	return labeled, yl, unlabeled
}
