package multilabel

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/tally"
)

// multiHeader is what a Model file's JSON header adds to a text model's,
// whose classes are the labels: the multi-label settings and thresholds.
type multiHeader struct {
	Multi      Config    `json:"multi"`
	Thresholds []float64 `json:"thresholds"`
}

// NumFeatures returns the number of columns of the model.
func (mm *Model) NumFeatures() int { return mm.m.NumFeatures() }

// WriteTo writes the model file to w: a text model's sections under the
// kind of its own ("multi-label model"), which text-model readers refuse.
func (mm *Model) WriteTo(w io.Writer) (int64, error) {
	// What decode would refuse is not written.
	h := multiHeader{Multi: mm.Multi, Thresholds: mm.Thresholds}
	if err := h.check(mm.m); err != nil {
		return 0, fmt.Errorf("%w: %v", pipeline.ErrConfig, err)
	}
	extra, err := json.Marshal(h)
	if err != nil {
		return 0, err
	}
	return core.WriteMulti(mm.m, w, extra)
}

// Load reads a multi-label model file.
func Load(path string) (*Model, error) { return modelfile.Load(path, decode) }

// Decode reads a multi-label model from the bytes of a model file, for a
// reader that learns the file's kind from the bytes it has read.
func Decode(data []byte) (*Model, error) { return decode(data) }

// decode reads a multi-label model from the bytes of a model file.
func decode(data []byte) (*Model, error) {
	m, js, version, err := core.DecodeMulti(data)
	if err != nil {
		return nil, err
	}
	h, err := decodeMultiHeader(js, version)
	if err != nil {
		return nil, fmt.Errorf("%w: header: %v", pipeline.ErrDamaged, err)
	}
	if err := h.check(m); err != nil {
		return nil, fmt.Errorf("%w: header: %v", pipeline.ErrDamaged, err)
	}
	return &Model{Config: m.Config, Multi: h.Multi, Labels: m.Classes, Thresholds: h.Thresholds, m: m}, nil
}

// legacyConfig is Config as formats 1 and 2 wrote it.
type legacyConfig struct {
	Score        uint8  `json:"score"`
	Folds        int    `json:"folds"`
	MinPositives int    `json:"min_positives"`
	AllowEmpty   bool   `json:"allow_empty"`
	Seed         uint64 `json:"seed"`
}

// decodeMultiHeader reads the multi-label settings and thresholds from
// the JSON header of a multi-label model file of the given format version.
func decodeMultiHeader(js []byte, version uint32) (multiHeader, error) {
	var h multiHeader
	h.Multi.Title = 1     // files without a title field count it once
	h.Multi.Reweight = -1 // and were not reweighted
	if version >= 3 {
		err := json.Unmarshal(js, &h)
		if h.Multi.Reweight > 0 && h.Multi.ReweightRate == 0 {
			h.Multi.ReweightRate = legacyRate // written when there was one rate
		}
		return h, err
	}
	var old struct {
		Multi      legacyConfig `json:"multi"`
		Thresholds []float64    `json:"thresholds"`
	}
	if err := json.Unmarshal(js, &old); err != nil {
		return h, err
	}
	m := old.Multi
	h.Multi = Config{Score: Score(m.Score), Folds: m.Folds, MinPositives: m.MinPositives,
		AllowEmpty: m.AllowEmpty, Seed: m.Seed, Title: 1, Reweight: -1}
	h.Thresholds = old.Thresholds
	return h, nil
}

// check reports multi-label settings that no training writes and
// thresholds that are not one finite, non-negative probability per label
// of m.
func (h *multiHeader) check(m *pipeline.Model) error {
	if err := checkMulti(m.Config, h.Multi); err != nil {
		return err
	}
	if h.Multi.Title < 1 {
		return fmt.Errorf("a title counted %d times", h.Multi.Title)
	}
	if h.Multi.Reweight == 0 {
		return errors.New("0 reweighting passes (a file says -1 for none)")
	}
	if h.Multi.Reweight < 0 && h.Multi.ReweightRate != 0 {
		return fmt.Errorf("reweighting rate %g without reweighting", h.Multi.ReweightRate)
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

// A Predictor scores documents with a Model. It is not safe for
// concurrent use; make one per goroutine.
type Predictor struct {
	mm  *Model
	row func(text string) ([]int32, []float64) // the shared stages' row, in reused buffers
	// text is the last text (its title repeated) and idx, val its row, so
	// that Explain after Proba of the same text tokenizes it once.
	text  string
	idx   []int32
	val   []float64
	rowOK bool
	logTh []float64
	pred  []bool
	logp  []float64 // Decide's
}

// NewPredictor returns a Predictor for mm.
func (mm *Model) NewPredictor() *Predictor {
	logTh := make([]float64, len(mm.Thresholds))
	for l, t := range mm.Thresholds {
		logTh[l] = math.Log(t)
	}
	return &Predictor{mm: mm, row: core.Row(mm.m), logTh: logTh, pred: make([]bool, len(logTh))}
}

// rowOf returns text's weighted row, titles counted as training counted
// them; the slices are valid until the next call with another text.
func (mp *Predictor) rowOf(text string) ([]int32, []float64) {
	text = withTitle(text, mp.mm.Multi.Title)
	if !mp.rowOK || text != mp.text {
		mp.idx, mp.val = mp.row(text)
		mp.text, mp.rowOK = text, true
	}
	return mp.idx, mp.val
}

// Proba appends each label's probability for text.
func (mp *Predictor) Proba(dst []float64, text string) []float64 {
	n := len(dst)
	idx, val := mp.rowOf(text)
	dst = core.ScoreRow(mp.mm.m, dst, idx, val)
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
func (mp *Predictor) Decide(dst []int, proba []float64) []int {
	mp.logp = mp.logp[:0]
	for _, p := range proba {
		mp.logp = append(mp.logp, math.Log(p))
	}
	decide(mp.pred, mp.logp, mp.logTh, mp.mm.Multi.AllowEmpty)
	n := len(dst)
	for l, on := range mp.pred {
		if on {
			dst = append(dst, l)
		}
	}
	tally.SortDesc(dst[n:], proba)
	return dst
}

// Prediction is the result for one document of a Batch.
type Prediction struct {
	Source string
	Text   string   // as given to Add, for an explanation
	Truth  []string // as given to Add
	Labels []int    // predicted, indices into Model.Labels, most probable first
	Proba  []float64
}

// Batch classifies documents on GOMAXPROCS goroutines and hands the
// results to a callback in the order the documents were added.
type Batch struct {
	run        *parallel.Batcher[multiItem, []Prediction]
	predictors parallel.FreeList[*Predictor]
}

type multiItem struct {
	source string
	truth  []string
	text   string
}

// NewBatch returns a Batch that calls emit once per document, in
// order, from a single goroutine.
func (mm *Model) NewBatch(emit func(Prediction)) *Batch {
	b := new(Batch)
	work := func(items []multiItem) []Prediction {
		p, ok := b.predictors.Get()
		if !ok {
			p = mm.NewPredictor()
		}
		defer b.predictors.Put(p)
		out := make([]Prediction, len(items))
		proba := make([]float64, 0, len(items)*len(mm.Thresholds))
		for i, it := range items {
			n := len(proba)
			proba = p.Proba(proba, it.text)
			doc := proba[n:len(proba):len(proba)]
			out[i] = Prediction{Source: it.source, Text: it.text, Truth: it.truth, Labels: p.Decide(nil, doc), Proba: doc}
		}
		return out
	}
	b.run = parallel.NewBatcher(work, func(ps []Prediction) {
		for _, p := range ps {
			emit(p)
		}
	})
	return b
}

// Add queues a document; truth may be nil.
func (b *Batch) Add(source string, truth []string, text string) {
	b.run.Add(multiItem{source: source, truth: truth, text: text})
}

// Close waits until every queued document has been emitted.
func (b *Batch) Close() { b.run.Close() }
