package metrics

import (
	"math"
	"strconv"

	"github.com/textnb/textnb/internal/roc"
)

// ProbaScores score the probabilities a model gave the documents of
// classes it knows: how sure it was, against how often it was right.
type ProbaScores struct {
	// N is the number of documents scored: those added with probabilities
	// whose true label is one of the model's classes.
	N int `json:"proba_documents"`
	// LogLoss is the mean of −ln p(true class), p clipped below at
	// MinProba, as scikit-learn's log_loss(eps=1e-15), its default
	// before 1.2 (later ones clip at the machine epsilon, 2.2e-16).
	LogLoss float64 `json:"log_loss"`
	// Brier is the multi-class Brier score: the mean over documents of
	// Σ_c (p_c − 1[c = true class])², from 0 to 2. With two classes it
	// is twice scikit-learn's brier_score_loss, which scores the positive
	// class alone.
	Brier float64 `json:"brier"`
	// ECE is the expected calibration error of the top probability over
	// the Reliability bins: Σ_b |B|/N·|accuracy(B) − confidence(B)|.
	ECE         float64          `json:"ece"`
	Reliability []ReliabilityBin `json:"reliability"`
}

// MinProba is the least probability log loss takes, so that a true class
// given probability 0 costs −ln 1e-15 ≈ 34.5, not infinity.
const MinProba = 1e-15

// ReliabilityBins is the number of equal-width bins of the top
// probability: bin b holds [b/10, (b+1)/10), the last also 1.
const ReliabilityBins = 10

// ReliabilityBin is one bin of the reliability diagram: its documents, the
// mean of their top probability, and the share whose most probable class
// is the true one (the argmax, whatever decision threshold eval applies).
type ReliabilityBin struct {
	Lo         float64 `json:"lo"`
	Hi         float64 `json:"hi"`
	Count      int     `json:"count"`
	Confidence float64 `json:"confidence"`
	Accuracy   float64 `json:"accuracy"`
}

// BinaryScores rank a two-class model's documents by the positive class's
// probability.
type BinaryScores struct {
	Positive string `json:"positive"`
	// ROCAUC is the area under ROC, the curve of the ROC points joined
	// by straight lines, as scikit-learn's roc_auc_score: the chance that
	// a positive document scores above a negative one, ties counting ½.
	ROCAUC float64 `json:"roc_auc"`
	// RecallAtFPR maps each rate f of RecallFPRs, written as %g, to the
	// highest recall of the positive class among the ROC points whose
	// false-positive rate is at most f: an operating point a threshold
	// reaches, without interpolation.
	RecallAtFPR map[string]float64 `json:"recall_at_fpr"`
	// ROC holds the points of every distinct score, highest first, from
	// (0, 0) to (1, 1): documents of equal scores pass a threshold
	// together, so ties make one point.
	ROC []ROCPoint `json:"-"`
}

// ROCPoint is a point of an ROC curve: the false- and true-positive
// rates, FPR and TPR, of the threshold "positive iff p ≥ Threshold".
type ROCPoint = roc.Point

// RecallFPRs are the false-positive rates at which BinaryScores report
// the positive class's recall.
var RecallFPRs = []float64{0.001, 0.01}

// proba accumulates the probability scores online, and the two classes'
// scores of each document for ROC.
type proba struct {
	n              int
	logLoss, brier float64
	binN, binRight [ReliabilityBins]int
	binConf        [ReliabilityBins]float64
	two            [][2]float64 // two-class models: each document's probabilities
	second         []bool       // … and whether its true class is the second
	secondN        int
}

// AddProba is Add with the predicted class given by its index in the
// classes of NewEvaluator, as a Prediction holds it, so that no name is
// looked up; it panics if predicted is not such an index. p holds the
// document's probabilities of the model's classes, for the ProbaScores
// (and, with two classes, the BinaryScores, which keep 17 bytes per
// document), or is nil: the document then counts for the label scores
// alone. predicted is the class decided, which a threshold may have made
// other than the most probable.
func (e *Evaluator) AddProba(truth string, predicted int, p []float64) {
	e.addClass(truth, predicted)
	t := e.index[truth]
	if t >= e.classes || p == nil {
		return
	}
	s := &e.proba
	s.n++
	s.logLoss -= math.Log(max(p[t], MinProba))
	top := 0
	for c, v := range p[:e.classes] {
		d := v
		if c == t {
			d = v - 1
		}
		s.brier += d * d
		if v > p[top] {
			top = c
		}
	}
	conf := p[top]
	b := min(max(int(conf*ReliabilityBins), 0), ReliabilityBins-1)
	s.binN[b]++
	s.binConf[b] += conf
	if top == t {
		s.binRight[b]++
	}
	if e.classes == 2 {
		s.two = append(s.two, [2]float64{p[0], p[1]})
		s.second = append(s.second, t == 1)
		if t == 1 {
			s.secondN++
		}
	}
}

// probaScores returns the scores, nil without documents.
func (s *proba) scores() *ProbaScores {
	if s.n == 0 {
		return nil
	}
	n := float64(s.n)
	r := &ProbaScores{N: s.n, LogLoss: s.logLoss / n, Brier: s.brier / n, Reliability: make([]ReliabilityBin, ReliabilityBins)}
	for b := range r.Reliability {
		bin := ReliabilityBin{Lo: float64(b) / ReliabilityBins, Hi: float64(b+1) / ReliabilityBins, Count: s.binN[b]}
		if bin.Count > 0 {
			bin.Confidence = s.binConf[b] / float64(bin.Count)
			bin.Accuracy = float64(s.binRight[b]) / float64(bin.Count)
			r.ECE += float64(bin.Count) / n * math.Abs(bin.Accuracy-bin.Confidence)
		}
		r.Reliability[b] = bin
	}
	return r
}

// binary returns the BinaryScores with positive the class index pos, or
// -1 for the minority class (ties: the second); nil unless both classes
// have documents.
func (s *proba) binary(labels []string, pos int) *BinaryScores {
	first := len(s.two) - s.secondN
	if s.secondN == 0 || first == 0 {
		return nil
	}
	if pos < 0 {
		pos = 1
		if first < s.secondN {
			pos = 0
		}
	}
	scores := make([]float64, len(s.two))
	positive := make([]bool, len(s.two))
	for i, p := range s.two {
		scores[i] = p[pos]
		positive[i] = s.second[i] == (pos == 1)
	}
	points, auc := roc.Curve(scores, positive)
	r := &BinaryScores{Positive: labels[pos], ROCAUC: auc, ROC: points, RecallAtFPR: map[string]float64{}}
	for _, f := range RecallFPRs {
		r.RecallAtFPR[strconv.FormatFloat(f, 'g', -1, 64)] = roc.RecallAt(points, f)
	}
	return r
}
