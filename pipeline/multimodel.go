package pipeline

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
)

// MultiLabelModel is the kind of a MultiModel's file. Builds from before
// multi-label models refuse it as a kind they do not know.
const MultiLabelModel Kind = 3

// multiHeader is a MultiModel file's JSON header: a text model's, whose
// classes are the labels, and the multi-label settings and thresholds.
type multiHeader struct {
	header
	Multi      MultiConfig `json:"multi"`
	Thresholds []float64   `json:"thresholds"`
}

// NumFeatures returns the number of columns of the model.
func (mm *MultiModel) NumFeatures() int { return mm.m.NumFeatures() }

// WriteTo writes the model file to w: a text model's sections under the
// kind MultiLabelModel.
func (mm *MultiModel) WriteTo(w io.Writer) (int64, error) {
	// What DecodeMulti would refuse is not written.
	h := multiHeader{Multi: mm.Multi, Thresholds: mm.Thresholds}
	if err := h.check(mm.m); err != nil {
		return 0, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	return mm.m.writeFile(w, MultiLabelModel, func(h header) any {
		return multiHeader{header: h, Multi: mm.Multi, Thresholds: mm.Thresholds}
	})
}

// LoadMulti reads a multi-label model file.
func LoadMulti(path string) (*MultiModel, error) { return loadFile(path, DecodeMulti) }

// DecodeMulti reads a multi-label model from the bytes of a model file.
func DecodeMulti(data []byte) (*MultiModel, error) {
	payload, err := openKind(data, MultiLabelModel)
	if err != nil {
		return nil, err
	}
	version := fileVersion(data)
	m, err := decodeModel(payload, version)
	if err != nil {
		return nil, err
	}
	// decodeModel has read the header and checked its length.
	r := &reader{b: payload}
	h, err := decodeMultiHeader(r.bytes(int(r.u32())), version)
	if err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrDamaged, err)
	}
	if err := h.check(m); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrDamaged, err)
	}
	return &MultiModel{Config: m.Config, Multi: h.Multi, Labels: m.Classes, Thresholds: h.Thresholds, m: m}, nil
}

// check reports multi-label settings that no training writes and
// thresholds that are not one finite, non-negative probability per label
// of m.
func (h *multiHeader) check(m *Model) error {
	if err := checkMulti(m.Config, h.Multi); err != nil {
		return err
	}
	if len(h.Thresholds) != len(m.Classes) {
		return fmt.Errorf("%d thresholds for %d labels", len(h.Thresholds), len(m.Classes))
	}
	for l, t := range h.Thresholds {
		if !(t >= 0 && t <= 1) {
			return fmt.Errorf("label %d's threshold is %g", l, t)
		}
	}
	return nil
}

// A MultiPredictor scores documents with a MultiModel. It is not safe for
// concurrent use; make one per goroutine.
type MultiPredictor struct {
	mm    *MultiModel
	p     *Predictor
	logTh []float64
	pred  []bool
}

// NewPredictor returns a MultiPredictor for mm.
func (mm *MultiModel) NewPredictor() *MultiPredictor {
	logTh := make([]float64, len(mm.Thresholds))
	for l, t := range mm.Thresholds {
		logTh[l] = math.Log(t)
	}
	return &MultiPredictor{mm: mm, p: mm.m.NewPredictor(), logTh: logTh, pred: make([]bool, len(logTh))}
}

// Proba appends each label's probability for text.
func (mp *MultiPredictor) Proba(dst []float64, text string) []float64 {
	n := len(dst)
	dst = mp.p.JointLogLikelihood(dst, text)
	logScores(mp.mm.Multi.Score, dst[n:])
	for l, v := range dst[n:] {
		dst[n+l] = math.Exp(v)
	}
	return dst
}

// Decide appends to dst the labels (indices into Labels, by decreasing
// probability) that proba, as Proba gives it, predicts: every label whose
// probability reaches its threshold, or, when none does and the model
// does not allow empty sets, the most probable one.
func (mp *MultiPredictor) Decide(dst []int, proba []float64) []int {
	logp := make([]float64, len(proba))
	for l, p := range proba {
		logp[l] = math.Log(p)
	}
	decide(mp.pred, logp, mp.logTh, mp.mm.Multi.AllowEmpty)
	n := len(dst)
	for l, on := range mp.pred {
		if on {
			dst = append(dst, l)
		}
	}
	slices.SortStableFunc(dst[n:], func(a, b int) int { return cmp.Compare(proba[b], proba[a]) })
	return dst
}

// MultiPrediction is the result for one document of a MultiBatch.
type MultiPrediction struct {
	Source string
	Truth  []string // as given to Add
	Labels []int    // predicted, indices into MultiModel.Labels, most probable first
	Proba  []float64
}

// MultiBatch classifies documents on GOMAXPROCS goroutines and hands the
// results to a callback in the order the documents were added.
type MultiBatch struct {
	run        *ordered[multiItem, []MultiPrediction]
	predictors freeList[*MultiPredictor]
}

type multiItem struct {
	source string
	truth  []string
	text   string
}

// NewBatch returns a MultiBatch that calls emit once per document, in
// order, from a single goroutine.
func (mm *MultiModel) NewBatch(emit func(MultiPrediction)) *MultiBatch {
	b := new(MultiBatch)
	work := func(items []multiItem) []MultiPrediction {
		p, ok := b.predictors.get()
		if !ok {
			p = mm.NewPredictor()
		}
		defer b.predictors.put(p)
		out := make([]MultiPrediction, len(items))
		for i, it := range items {
			proba := p.Proba(nil, it.text)
			out[i] = MultiPrediction{Source: it.source, Truth: it.truth, Labels: p.Decide(nil, proba), Proba: proba}
		}
		return out
	}
	b.run = newOrdered(work, func(ps []MultiPrediction) {
		for _, p := range ps {
			emit(p)
		}
	})
	return b
}

// Add queues a document; truth may be nil.
func (b *MultiBatch) Add(source string, truth []string, text string) {
	b.run.Add(multiItem{source: source, truth: truth, text: text})
}

// Close waits until every queued document has been emitted.
func (b *MultiBatch) Close() { b.run.Close() }
