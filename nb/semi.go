package nb

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/textnb/textnb/vectorize"
	"gonum.org/v1/gonum/floats"
)

// Result describes a semi-supervised fit.
type Result struct {
	Rounds        int     // self-training rounds or EM iterations that refitted the model
	Added         int     // unlabeled documents added to the training counts
	Labels        []int   // per unlabeled row: its pseudo-label, −1 if never added (EM: final prediction)
	LogLikelihood float64 // EM: final λ-weighted objective; 0 for self-training
	Converged     bool    // stopped before the round/iteration limit
	// Counts are what the final model was fitted on: the labeled rows'
	// counts plus the pseudo-labelled (self-training) or weighted
	// unlabeled (EM) rows'.
	Counts *Counts
}

// SelfTraining grows the training set with the model's own confident
// predictions on unlabeled documents, refitting after every round. It
// picks them as NSNB does, the K documents of highest confidence
// max_c [P(c|x) − mean_{c'≠c} P(c'|x)] each round, or with SNB set, as SNB
// does: every document whose top posterior exceeds Threshold. The zero
// value is NSNB with the defaults of the package documentation.
type SelfTraining struct {
	SNB bool
	// K is how many documents NSNB adds per round: a count if ≥ 1, else a
	// fraction of the documents still unlabeled (rounded up).
	K float64
	// Threshold is SNB's minimum top posterior, in (0, 1).
	Threshold float64
	Rounds    int
	Workers   int // scoring goroutines
	// Standardize selects and pseudo-labels with the posteriors
	// softmax_c((jll_c − μ_c)/σ_c), where μ_c and σ_c are the mean and
	// standard deviation of class c's score over all unlabeled documents
	// under the current model, instead of softmax_c(jll_c). It is for
	// scores that are not log-likelihoods and whose offset and spread
	// differ by class, such as Complement NB's: there the raw margins
	// favour some classes, which then take most pseudo-labels.
	Standardize bool
}

// Fit trains est on the labeled rows (labels y in [0, classes)), then runs
// self-training over the unlabeled rows (nil: none). est ends fitted.
func (s SelfTraining) Fit(est Estimator, labeled *vectorize.CSR, y []int, unlabeled *vectorize.CSR, classes int) (Result, error) {
	s, err := s.resolve()
	if err != nil {
		return Result{}, err
	}
	counts, unlabeled, err := fitLabeled(est, labeled, y, unlabeled, classes)
	if err != nil {
		return Result{}, err
	}
	res := Result{Labels: slices.Repeat([]int{-1}, unlabeled.Rows), Counts: counts}
	remaining := make([]int, unlabeled.Rows)
	for i := range remaining {
		remaining[i] = i
	}
	var logp, conf, all []float64
	for round := 1; round <= s.Rounds; round++ {
		if len(remaining) == 0 {
			res.Converged = true
			break
		}
		if s.Standardize {
			all = jointRows(est, unlabeled, nil, s.Workers, all, nil)
			logp = standardized(logp, all, remaining, classes)
		} else {
			logp = scoreRows(est, unlabeled, remaining, s.Workers, logp, nil)
		}
		if !s.SNB {
			conf = confidence(conf, logp, classes)
		}
		pick := s.choose(conf, logp, classes)
		if len(pick) == 0 {
			res.Converged = true
			break
		}
		for _, p := range pick {
			row := remaining[p]
			label := Argmax(logp[p*classes : (p+1)*classes])
			idx, val := unlabeled.Row(row)
			counts.addRow(idx, val, label, 1)
			res.Labels[row] = label
		}
		remaining = dropPositions(remaining, pick)
		if err := est.Fit(counts); err != nil {
			return res, err
		}
		res.Rounds, res.Added = round, res.Added+len(pick)
	}
	return res, nil
}

func (s SelfTraining) resolve() (SelfTraining, error) {
	if s.K == 0 {
		s.K = 0.2
	}
	if s.Threshold == 0 {
		s.Threshold = 0.9
	}
	if s.Rounds == 0 {
		s.Rounds = 10
	}
	switch {
	case !(s.K > 0) || math.IsInf(s.K, 0):
		return s, fmt.Errorf("%w: self-training K %g, want > 0", ErrConfig, s.K)
	case !(s.Threshold > 0 && s.Threshold < 1):
		return s, fmt.Errorf("%w: self-training threshold %g, want in (0, 1)", ErrConfig, s.Threshold)
	case s.Rounds < 0:
		return s, fmt.Errorf("%w: self-training rounds %d", ErrConfig, s.Rounds)
	}
	return s, nil
}

// choose returns the positions (into the scored rows) to add this round;
// conf is only used by NSNB.
func (s SelfTraining) choose(conf, logp []float64, k int) []int {
	n := len(logp) / k
	if s.SNB {
		var pick []int
		logThr := math.Log(s.Threshold)
		for p := range n {
			if floats.Max(logp[p*k:(p+1)*k]) > logThr {
				pick = append(pick, p)
			}
		}
		return pick
	}
	take := int(s.K)
	if s.K < 1 {
		take = int(math.Ceil(s.K * float64(n)))
	}
	order := make([]int, n)
	for p := range order {
		order[p] = p
	}
	// Highest confidence first; ties (and NaN) by row order.
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(conf[b], conf[a]) })
	pick := order[:min(take, n)]
	slices.Sort(pick)
	return pick
}

// confidence sets dst[p] = max_c [P(c|x) − mean_{c'≠c} P(c'|x)] for every
// row of log posteriors (NSNB's margin; 1 with a single class). The margin
// of c is P(c) − (S − P(c))/(K−1) with S = Σ P, which grows with P(c), so
// the maximum is at the top class.
func confidence(dst, logp []float64, k int) []float64 {
	dst = dst[:0]
	for p := 0; p < len(logp); p += k {
		row := logp[p : p+k]
		var sum float64
		for _, v := range row {
			sum += math.Exp(v)
		}
		top := math.Exp(row[Argmax(row)])
		if k > 1 {
			top -= (sum - top) / float64(k-1)
		}
		dst = append(dst, top)
	}
	return dst
}

// standardized sets dst to the log posteriors of the given rows of jll
// (K per row) after each class's column is standardized over all rows of
// jll. A class whose scores do not vary is only centred.
func standardized(dst, jll []float64, rows []int, k int) []float64 {
	n := len(jll) / k
	mean, scale := make([]float64, k), make([]float64, k)
	for p := range n {
		floats.Add(mean, jll[p*k:(p+1)*k])
	}
	floats.Scale(1/float64(n), mean)
	for p := range n {
		for c, v := range jll[p*k : (p+1)*k] {
			scale[c] += (v - mean[c]) * (v - mean[c])
		}
	}
	for c, ss := range scale {
		scale[c] = 1
		if sd := math.Sqrt(ss / float64(n)); sd > 0 {
			scale[c] = 1 / sd
		}
	}
	dst = slices.Grow(dst[:0], len(rows)*k)
	for _, r := range rows {
		row := dst[len(dst) : len(dst)+k]
		for c, v := range jll[r*k : (r+1)*k] {
			row[c] = (v - mean[c]) * scale[c]
		}
		normalizeLog(row)
		dst = dst[:len(dst)+k]
	}
	return dst
}

// dropPositions removes the sorted positions pick from rows.
func dropPositions(rows, pick []int) []int {
	out, next := rows[:0], 0
	for p, r := range rows {
		if next < len(pick) && pick[next] == p {
			next++
			continue
		}
		out = append(out, r)
	}
	return out
}

// EM is the semi-supervised EM of Nigam, McCallum, Thrun & Mitchell (2000):
// labeled documents keep their labels; each unlabeled document adds its
// current posterior-weighted counts scaled by Lambda. Starting from the
// labeled-only model it alternates E and M steps until the objective
//
//	Σ_labeled jll(x)[y] + λ Σ_unlabeled log Σ_c exp jll(x)[c]
//
// improves by less than Tol relative to its magnitude (the Dirichlet prior
// term is left out, so for Multinomial this is the likelihood, not the MAP
// objective). For Complement the "likelihood" is only a score.
type EM struct {
	Lambda  float64 // weight of unlabeled documents
	MaxIter int
	Tol     float64 // relative improvement to stop at
	Workers int     // scoring goroutines
}

// Fit trains est on the labeled rows (labels y in [0, classes)), then runs
// EM with the unlabeled rows (nil: none). est ends fitted.
func (e EM) Fit(est Estimator, labeled *vectorize.CSR, y []int, unlabeled *vectorize.CSR, classes int) (Result, error) {
	e, err := e.resolve()
	if err != nil {
		return Result{}, err
	}
	base, unlabeled, err := fitLabeled(est, labeled, y, unlabeled, classes)
	if err != nil {
		return Result{}, err
	}
	res := Result{Added: unlabeled.Rows, Counts: base}
	cur := base.clone()
	var logp, resp []float64
	var lse, labLogp, labLse []float64
	objective := func() float64 {
		labLogp = scoreRows(est, labeled, nil, e.Workers, labLogp, &labLse)
		logp = scoreRows(est, unlabeled, nil, e.Workers, logp, &lse)
		var l, u float64
		for i, label := range y {
			l += labLogp[i*classes+label] + labLse[i]
		}
		for _, v := range lse {
			u += v
		}
		return l + e.Lambda*u
	}
	prev := objective()
	res.LogLikelihood = prev
	for it := 1; it <= e.MaxIter && unlabeled.Rows > 0; it++ {
		resp = resp[:0]
		for _, v := range logp {
			resp = append(resp, math.Exp(v))
		}
		cur.copyFrom(base)
		// fitLabeled checked the rows. exp gives weights in [0, 1], or NaN
		// for a row the estimator scored NaN, which only est.Fit's own
		// checks of the counts catch.
		cur.addSoft(unlabeled, resp, e.Lambda)
		if err := est.Fit(cur); err != nil {
			return res, err
		}
		res.Counts = cur
		l := objective()
		res.Rounds, res.LogLikelihood = it, l
		if l-prev < e.Tol*math.Abs(prev) {
			res.Converged = true
			break
		}
		prev = l
	}
	res.Labels = make([]int, unlabeled.Rows)
	for i := range res.Labels {
		res.Labels[i] = Argmax(logp[i*classes : (i+1)*classes])
	}
	return res, nil
}

func (e EM) resolve() (EM, error) {
	if e.Lambda == 0 {
		e.Lambda = 0.1
	}
	if e.MaxIter == 0 {
		e.MaxIter = 50
	}
	if e.Tol == 0 {
		e.Tol = 1e-6
	}
	switch {
	case !(e.Lambda > 0) || math.IsInf(e.Lambda, 0):
		return e, fmt.Errorf("%w: EM lambda %g, want > 0", ErrConfig, e.Lambda)
	case e.MaxIter < 0:
		return e, fmt.Errorf("%w: EM max iterations %d", ErrConfig, e.MaxIter)
	case !(e.Tol > 0):
		return e, fmt.Errorf("%w: EM tolerance %g, want > 0", ErrConfig, e.Tol)
	}
	return e, nil
}

// fitLabeled validates the inputs, counts the labeled rows and fits est on
// them. A nil unlabeled matrix becomes an empty one.
func fitLabeled(est Estimator, labeled *vectorize.CSR, y []int, unlabeled *vectorize.CSR, classes int) (*Counts, *vectorize.CSR, error) {
	if est == nil {
		return nil, nil, fmt.Errorf("%w: nil estimator", ErrConfig)
	}
	if labeled == nil {
		return nil, nil, fmt.Errorf("%w: nil labeled matrix", ErrShape)
	}
	if classes < 1 {
		return nil, nil, fmt.Errorf("%w: %d classes", ErrShape, classes)
	}
	if unlabeled == nil {
		unlabeled = vectorize.NewCSR(labeled.Cols)
	}
	if err := checkCSR(unlabeled, labeled.Cols); err != nil {
		return nil, nil, fmt.Errorf("unlabeled: %w", err)
	}
	counts := NewCounts(est, classes, labeled.Cols)
	if err := counts.Add(labeled, y, nil); err != nil {
		return nil, nil, fmt.Errorf("labeled: %w", err)
	}
	if err := est.Fit(counts); err != nil {
		return nil, nil, err
	}
	if got := est.NumClasses(); got != classes {
		return nil, nil, fmt.Errorf("%w: estimator fitted %d classes, want %d", ErrShape, got, classes)
	}
	return counts, unlabeled, nil
}
