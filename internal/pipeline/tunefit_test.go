package pipeline

import (
	"bytes"
	"errors"
	"testing"

	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

// TrainBest's model is byte for byte the model of a Trainer of the best
// setting given the same documents, and its summary the same, for many
// classes, two (reweighted or not), Chinese and a given min_df; a best
// setting of a tokenization Tune did not keep is ErrNotKept.
func TestTrainBestIsFinish(t *testing.T) {
	cases := []struct {
		name string
		path string
		base Config
		g    Grid
	}{
		{"news", newsTrain, Config{}, Grid{Alpha: []float64{0.1, 0.3, 1}, Classifier: []Classifier{Complement, Multinomial}}},
		{"news min_df 2 counts", newsTrain, Config{Vocab: vectorize.VocabConfig{MinDF: 2}}, Grid{Alpha: []float64{0.3, 1}, Weighting: []Weighting{TFIDF, RawCounts}}},
		{"spam reweighted", spamTSV, Config{}, Grid{Alpha: []float64{0.1, 1}, Reweight: []int{-1, DefaultReweight}, ReweightTop: -1}},
		{"spam reweighted only", spamTSV, Config{}, Grid{Alpha: []float64{0.1}, Reweight: []int{DefaultReweight}, ReweightTop: -1}},
		{"zh", "../../testdata/zh/train.tsv", Config{}, Grid{Alpha: []float64{0.1, 0.3}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			docs := readDocs(t, c.path)
			r, err := Tune(c.base, c.g, CVOptions{Folds: 3, KeepScores: true}, docsOf(docs))
			if err != nil {
				t.Fatal(err)
			}
			best := r.Results[r.Best].Config
			got, gs, err := r.TrainBest()
			if err != nil {
				t.Fatal(err)
			}
			tr := trainerOf(t, best, docs)
			want, ws, err := tr.Finish()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("best %s: %d features, min_df %d", best.Setting(), gs.Features, gs.MinDF)
			gs.Elapsed, ws.Elapsed = 0, 0
			if gs != ws {
				t.Errorf("summary %+v, Finish's %+v", gs, ws)
			}
			var gb, wb bytes.Buffer
			if _, err := got.WriteTo(&gb); err != nil {
				t.Fatal(err)
			}
			if _, err := want.WriteTo(&wb); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(gb.Bytes(), wb.Bytes()) {
				t.Errorf("%s: model of %d bytes, Finish's %d, differ", best.Setting(), gb.Len(), wb.Len())
			}
			if _, _, err := r.TrainBest(); !errors.Is(err, ErrNotKept) {
				t.Errorf("a second TrainBest: %v, want ErrNotKept", err)
			}
		})
	}
	// A grid whose best is of the tokenization Tune did not keep.
	docs := readDocs(t, newsTrain)
	g := Grid{NGrams: []tokenize.NGramRange{{Min: 1, Max: 2}, {Min: 1, Max: 1}}, Alpha: []float64{0.3}}
	r, err := Tune(Config{Tokenize: tokenize.Config{WordNGrams: tokenize.NGramRange{Min: 1, Max: 3}}}, g, CVOptions{Folds: 3}, docsOf(docs))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.TrainBest(); !errors.Is(err, ErrNotKept) {
		t.Errorf("best of an unkept tokenization: %v, want ErrNotKept", err)
	}
}
