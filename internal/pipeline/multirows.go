package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/textcore"
	"github.com/textnb/textnb/internal/vocab"
	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

// The parts of multi-label training (package multilabel) that share the
// Trainer's tokenizing and counting, feature selection and the model file.

// setClassifier is textcore.Core.SetClassifier.
func setClassifier(m *Model, alpha float64, counts *compact.Counts, lin *compact.Linear) {
	m.Config.Alpha = alpha
	m.counts = counts
	m.classCount = slices.Clone(counts.ClassCount)
	m.setLin(lin, nil)
}

// writeMulti is textcore.Core.WriteMulti.
func writeMulti(m *Model, w io.Writer, extra []byte) (int64, error) {
	return m.writeFile(w, modelfile.MultiLabelModel, func(h header) any { return extendHeader{h, extra} })
}

// multiRows is textcore.Core.MultiRows.
func multiRows(t *Trainer, labels []string, sets [][]int32) (*Model, textcore.MultiRows, error) {
	var r textcore.MultiRows
	cfg := t.cfg
	m := &Model{Config: cfg, Classes: labels, an: tokenize.New(cfg.Tokenize)}
	t.an = nil
	t.vocab.EndInput()
	merged, err := vocab.Merge(t.vocab)
	if err != nil {
		return nil, r, err
	}
	t.vocab = nil
	vc := cfg.Vocab
	if cfg.Select.Method != NoSelect {
		vc.MaxFeatures = 0 // K is the selection's
	}
	if vc.MinDF == 0 {
		vc.MinDF = merged.MinDFFor(cfg.maxTableSize()/len(labels), vc.MaxFeatures)
	}
	m.Config.Vocab.MinDF, r.MinDF = vc.MinDF, vc.MinDF
	p, err := merged.PruneConsume(vocab.Config(vc))
	if err != nil {
		return nil, r, err
	}
	src := prunedSource(p)
	if cfg.Select.Method != NoSelect {
		if err := m.fitWeightingDF(src.rows, func() []int64 { return src.df }); err != nil {
			return nil, r, err
		}
		if src, err = selectFeatures(src, cfg.Select, multiClasses(sets, len(labels)), m.weight); err != nil {
			return nil, r, err
		}
		r.Selected = src.features
	}
	m.vocab = src.vocab()
	if r.X, err = m.weightRows(src); err != nil {
		return nil, r, err
	}
	r.Empty, r.Start = t.empty, t.start
	return m, r, nil
}

// extendHeader is a text model's JSON header with the members of the JSON
// object extra after its own.
type extendHeader struct {
	header
	extra []byte
}

func (h extendHeader) MarshalJSON() ([]byte, error) {
	js, err := json.Marshal(h.header)
	if err != nil {
		return nil, err
	}
	extra := bytes.TrimSpace(h.extra)
	if len(extra) < 2 || extra[0] != '{' || extra[len(extra)-1] != '}' {
		return nil, fmt.Errorf("%w: header extension %q is not a JSON object", ErrConfig, extra)
	}
	if len(extra) == 2 {
		return js, nil
	}
	return append(append(js[:len(js)-1], ','), extra[1:]...), nil
}

// decodeMulti is textcore.Core.DecodeMulti.
func decodeMulti(data []byte) (*Model, []byte, uint32, error) {
	payload, err := modelfile.OpenKind(data, modelfile.MultiLabelModel)
	if err != nil {
		return nil, nil, 0, err
	}
	version := fileVersion(data)
	m, err := decodeModel(payload, version)
	if err != nil {
		return nil, nil, 0, err
	}
	// decodeModel has read the header and checked its length.
	r := &reader{b: payload}
	return m, r.bytes(int(r.u32())), version, nil
}

// stop ends t's tokenizing and counting, once: it reports false if t had
// finished already.
func (t *Trainer) stop() bool {
	if t.finished {
		return false
	}
	t.finished = true
	if t.run == nil {
		t.begin()
	}
	t.run.Close()
	t.coders, t.batches = nil, nil
	return true
}

// termSource is what a fit reads of the vectorizer: the kept terms, their
// document frequencies and every document's row over them.
type termSource struct {
	features int
	rows     int
	df       []int64
	row      compact.RowFunc
	vocab    func() *vocab.Vocabulary
}

func prunedSource(p *vocab.Pruned) termSource {
	return termSource{features: p.Len(), rows: p.Rows(), df: p.DF(), row: p.Row, vocab: p.Provisional}
}

// weightRows fits m's weighting on src's document frequencies and returns
// src's weighted rows, each sorted by column.
func (m *Model) weightRows(src termSource) (*vectorize.CSR, error) {
	if err := m.fitWeightingDF(src.rows, func() []int64 { return src.df }); err != nil {
		return nil, err
	}
	X := vectorize.NewCSR(src.features)
	var idx []int32
	var val []float64
	for i := range src.rows {
		idx, val = src.row(i, idx[:0], val[:0])
		sortRow(idx, val)
		if m.weight != nil {
			_ = m.weight.TransformRow(idx, val) // ids are the source's own
		}
		X.AppendRow(idx, val)
	}
	return X, nil
}

// sortRow sorts a row's entries by column.
func sortRow(idx []int32, val []float64) {
	sort.Sort(rowSorter{idx, val})
}

type rowSorter struct {
	idx []int32
	val []float64
}

func (r rowSorter) Len() int           { return len(r.idx) }
func (r rowSorter) Less(a, b int) bool { return r.idx[a] < r.idx[b] }
func (r rowSorter) Swap(a, b int) {
	r.idx[a], r.idx[b] = r.idx[b], r.idx[a]
	r.val[a], r.val[b] = r.val[b], r.val[a]
}
