package pipeline

import (
	"errors"
	"math"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/vectorize"
)

// learnSplit returns the news training documents in two parts, the second
// holding a class the first lacks, and the test documents.
func learnSplit(t *testing.T) (a, b, queries []corpus.Document) {
	t.Helper()
	docs, err := corpus.ReadAll(newsTrain, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	last := docs[len(docs)-1].Label
	for i, d := range docs {
		if d.Label != last && i%3 != 0 {
			a = append(a, d)
		} else {
			b = append(b, d)
		}
	}
	if queries, err = corpus.ReadAll(newsTest, corpus.Options{}); err != nil {
		t.Fatal(err)
	}
	return a, b, queries
}

func examples(docs []corpus.Document) []Example {
	out := make([]Example, len(docs))
	for i, d := range docs {
		out[i] = Example{d.Label, d.Text}
	}
	return out
}

// learnConfigs are the models learning must equal retraining for.
var learnConfigs = []Config{
	{Weighting: RawCounts},
	{Weighting: RawCounts, Classifier: Multinomial},
	{Weighting: RawCounts, Classifier: Multinomial, Vectorizer: Hash, HashFeatures: 1 << 12},
	{Weighting: RawCounts, Norm: true},
	{Classifier: Bernoulli},
	// TF-IDF without row normalization: the IDF learning refits from the
	// document frequencies is the union's, and so is every count.
	{TFIDFOptions: TFIDFOptions{Norm: vectorize.NoNorm}},
	{TFIDFOptions: TFIDFOptions{Norm: vectorize.NoNorm, NoSmooth: true, LinearTF: true}, Classifier: Multinomial},
	{TFIDFOptions: TFIDFOptions{Norm: vectorize.NoNorm, NoSmooth: true}, Vectorizer: Hash, HashFeatures: 1 << 12},
}

// sameModel fails unless got and want have the same classes and terms,
// weights within 1e-12 (relative) and the same predictions of queries.
func sameModel(t *testing.T, what string, got, want *Model, queries []corpus.Document) {
	t.Helper()
	if !slices.Equal(got.Labels(), want.Labels()) {
		t.Fatalf("%s: classes %q, want %q", what, got.Labels(), want.Labels())
	}
	if g, w := got.NumFeatures(), want.NumFeatures(); g != w {
		t.Fatalf("%s: %d features, want %d", what, g, w)
	}
	gt, wt := got.Terms(), want.Terms()
	at := make([]int, want.NumFeatures()) // want's feature j is got's at[j]
	for j := range at {
		at[j] = j
	}
	if wt != nil {
		ids := map[string]int{}
		for j, s := range gt {
			ids[s] = j
		}
		for j, s := range wt {
			k, ok := ids[s]
			if !ok {
				t.Fatalf("%s: term %q missing", what, s)
			}
			at[j] = k
		}
	}
	for c := range want.Classes {
		gw, gb := got.ClassWeights(c)
		ww, wb := want.ClassWeights(c)
		if !close12(gb, wb) {
			t.Fatalf("%s: class %d bias %v, want %v", what, c, gb, wb)
		}
		for j, w := range ww {
			if !close12(gw[at[j]], w) {
				t.Fatalf("%s: class %d feature %d (%q) weight %v, want %v", what, c, j, term(wt, j), gw[at[j]], w)
			}
		}
	}
	pg, pw := got.NewPredictor(), want.NewPredictor()
	for _, q := range queries {
		x, bx := pg.Proba(nil, q.Text)
		y, by := pw.Proba(nil, q.Text)
		if bx != by {
			t.Fatalf("%s: %s predicted %d, want %d", what, q.Source, bx, by)
		}
		for k := range x {
			if math.Abs(x[k]-y[k]) > 1e-9 {
				t.Fatalf("%s: %s: proba %v, want %v", what, q.Source, x, y)
			}
		}
	}
}

func term(terms []string, j int) string {
	if terms == nil {
		return ""
	}
	return terms[j]
}

func close12(a, b float64) bool { return math.Abs(a-b) <= 1e-12*max(1, math.Abs(b)) }

func TestLearnEqualsTrainingOnTheUnion(t *testing.T) {
	a, b, queries := learnSplit(t)
	for _, cfg := range learnConfigs {
		cfg.Fast = true
		name := cfg.forClasses(3).Setting() + " " + cfg.Weighting.String() + " " + cfg.Vectorizer.String()
		union := trainDocs(t, cfg, append(slices.Clone(a), b...))
		m := trainDocs(t, cfg, a)
		// Half one at a time, half as a batch.
		half := len(b) / 2
		for _, d := range b[:half] {
			if err := m.Learn(d.Label, d.Text); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if err := m.LearnBatch(examples(b[half:])); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameModel(t, name+": learned", m, union, queries)
		if m.Learned.Documents != len(b) || len(m.Learned.NewClasses) != 1 {
			t.Errorf("%s: learned %+v, want %d documents and a new class", name, m.Learned, len(b))
		}
		// The learned model saved loads as it was.
		path := filepath.Join(t.TempDir(), "learned.model")
		if err := modelfile.Save(path, m); err != nil {
			t.Fatal(err)
		}
		loaded, err := Load(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameModel(t, name+": loaded", loaded, union, queries)
		if loaded.Learned.Documents != len(b) {
			t.Errorf("%s: loaded model learned %+v", name, loaded.Learned)
		}
	}
}

func TestUnlearnRestoresTheModel(t *testing.T) {
	a, b, queries := learnSplit(t)
	for _, cfg := range learnConfigs {
		cfg.Fast = true
		name := cfg.forClasses(3).Setting() + " " + cfg.Weighting.String() + " " + cfg.Vectorizer.String()
		original := trainDocs(t, cfg, a)
		m := trainDocs(t, cfg, a)
		// Learn documents of a's classes only: unlearning leaves the class list.
		var extra []corpus.Document
		for _, d := range b {
			if slices.Contains(m.Classes, d.Label) {
				extra = append(extra, d)
			}
		}
		if err := m.LearnBatch(examples(extra)); err != nil {
			t.Fatal(err)
		}
		for _, d := range extra[:3] {
			if err := m.Unlearn(d.Label, d.Text); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if err := m.UnlearnBatch(examples(extra[3:])); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameModel(t, name+": learned and unlearned", m, original, queries)
	}
}

func TestUnlearnRefuses(t *testing.T) {
	a, b, _ := learnSplit(t)
	m := trainDocs(t, Config{Weighting: RawCounts, Fast: true}, a)
	for _, tc := range []struct {
		label, text string
		want        error
	}{
		{b[len(b)-1].Label, "anything", ErrNotLearned},           // no such class
		{a[0].Label, a[0].Text + " " + a[0].Text, ErrNotLearned}, // counts twice a document's
		{"", "text", ErrEmptyLabel},
	} {
		before := m.NewPredictor()
		p0, _ := before.Proba(nil, a[1].Text)
		if err := m.Unlearn(tc.label, tc.text); !errors.Is(err, tc.want) {
			t.Errorf("Unlearn(%q): %v, want %v", tc.label, err, tc.want)
		}
		p1, _ := before.Proba(nil, a[1].Text)
		if !slices.Equal(p0, p1) {
			t.Errorf("a refused Unlearn(%q) changed the model", tc.label)
		}
	}
	// A calibrated model takes no new class.
	c := trainDocs(t, Config{Weighting: RawCounts, Fast: true}, a)
	if err := c.setCalibration(&Calibration{Temperature: 2, Priors: uniform(len(c.Classes)), Folds: 5, Documents: len(a)}, c.Classes); err != nil {
		t.Fatal(err)
	}
	if err := c.Learn("brand-new", "text"); !errors.Is(err, ErrNewClass) {
		t.Errorf("calibrated model learned a new class: %v", err)
	}
}

func uniform(k int) []float64 {
	p := make([]float64, k)
	for i := range p {
		p[i] = 1 / float64(k)
	}
	return p
}

// TestLearnWhilePredicting runs Learn against predictions on other
// goroutines (for the race detector), and checks that a prediction after
// Learn returns sees the update.
func TestLearnWhilePredicting(t *testing.T) {
	a, b, queries := learnSplit(t)
	for _, cfg := range []Config{{Weighting: RawCounts, Fast: true}, {Fast: true}} {
		m := trainDocs(t, cfg, a)
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := m.NewPredictor()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					q := queries[i%len(queries)].Text
					p.Proba(nil, q)
					p.Explain(q)
				}
			}()
		}
		p := m.NewPredictor()
		for _, d := range b {
			if err := m.Learn(d.Label, d.Text); err != nil {
				t.Fatal(err)
			}
			// The learned document's own class gains on it at once.
			jll := p.JointLogLikelihood(nil, d.Text)
			if len(jll) != len(m.Labels()) {
				t.Fatalf("%d scores for %d classes", len(jll), len(m.Labels()))
			}
		}
		close(stop)
		wg.Wait()
		if _, err := m.Inspect(3); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLearnTFIDFDefinition checks learning into a TF-IDF model with L2
// rows against docs/learn.md's definition, computed here from the
// documents: the IDF is the union's, and a class's count of a term is
// Σ tf′·idf / ‖row‖ over its documents, each row's norm taken with the
// IDF of when it was counted (the training's for a, for each of b the
// IDF just after it).
func TestLearnTFIDFDefinition(t *testing.T) {
	a, b, _ := learnSplit(t)
	cfg := Config{Fast: true} // sublinear TF, smooth IDF, L2 rows
	m := trainDocs(t, cfg, a)
	idfA := map[string]float64{}
	for j, s := range m.Terms() {
		idfA[s] = (*m.idf())[j]
	}
	// Half as a batch, half one at a time: the same.
	half := len(b) / 2
	if err := m.LearnBatch(examples(b[:half])); err != nil {
		t.Fatal(err)
	}
	for _, d := range b[half:] {
		if err := m.Learn(d.Label, d.Text); err != nil {
			t.Fatal(err)
		}
	}
	union := trainDocs(t, cfg, append(slices.Clone(a), b...))
	idfU := map[string]float64{}
	for j, s := range union.Terms() {
		idfU[s] = (*union.idf())[j]
	}
	if err := m.readLocked(func() {}); err != nil {
		t.Fatal(err)
	}
	for j, s := range m.Terms() {
		if !close12((*m.idf())[j], idfU[s]) {
			t.Fatalf("IDF of %q is %v, the union's %v", s, (*m.idf())[j], idfU[s])
		}
	}
	// The definition's counts, by term and class.
	want := map[string][]float64{}
	p := union.NewPredictor()
	k := len(union.Classes)
	add := func(d corpus.Document, normIDF map[string]float64) {
		idx, val := p.rawRow(d.Text)
		var norm float64
		for q, j := range idx {
			tf := 1 + math.Log(val[q])
			w := tf * normIDF[union.vocab.Term(int(j))]
			norm += w * w
		}
		norm = math.Sqrt(norm)
		c := slices.Index(union.Classes, d.Label)
		for q, j := range idx {
			s := union.vocab.Term(int(j))
			if want[s] == nil {
				want[s] = make([]float64, k)
			}
			want[s][c] += (1 + math.Log(val[q])) * idfU[s] / norm
		}
	}
	for _, d := range a {
		add(d, idfA)
	}
	// Each of b's rows is normalized with the IDF just after it was
	// counted: of a's documents and b's up to it.
	df := map[string]float64{}
	for _, d := range a {
		idx, _ := p.rawRow(d.Text)
		for _, j := range idx {
			df[union.vocab.Term(int(j))]++
		}
	}
	n := float64(len(a))
	for _, d := range b {
		idx, _ := p.rawRow(d.Text)
		now := map[string]float64{}
		n++
		for _, j := range idx {
			s := union.vocab.Term(int(j))
			df[s]++
			now[s] = math.Log((n+1)/(df[s]+1)) + 1
		}
		add(d, now)
	}
	counts, err := m.fittedCounts()
	if err != nil {
		t.Fatal(err)
	}
	if counts.Features != len(want) {
		t.Fatalf("%d features, want %d", counts.Features, len(want))
	}
	for j := range counts.Features {
		s := m.vocab.Term(j)
		got := make([]float64, k)
		for q := counts.Ptr[j]; q < counts.Ptr[j+1]; q++ {
			got[slices.Index(union.Classes, m.Classes[counts.Class[q]])] = counts.Count[q]
		}
		for c := range got {
			if math.Abs(got[c]-want[s][c]) > 1e-12*max(1, want[s][c]) {
				t.Fatalf("count of %q in class %d is %v, the definition's %v", s, c, got[c], want[s][c])
			}
		}
	}
}

// TestLearnReweightedAndCalibrated checks what learning does to a
// reweighted or calibrated model (docs/learn.md).
func TestLearnReweightedAndCalibrated(t *testing.T) {
	a, b, queries := learnSplit(t)
	var same []corpus.Document // of a's classes
	for _, d := range b {
		if slices.ContainsFunc(a, func(x corpus.Document) bool { return x.Label == d.Label }) {
			same = append(same, d)
		}
	}
	// Complement NB's gains are not in its counts: learning refits the
	// plain counts, which then equal the plain model of the union.
	cnb := Config{Weighting: RawCounts, Classifier: Complement, Reweight: 3, Fast: true}
	m := trainDocs(t, cnb, a)
	if err := m.LearnBatch(examples(same)); err != nil {
		t.Fatal(err)
	}
	plain := cnb
	plain.Reweight = -1
	sameModel(t, "cnb reweighted, learned", m, trainDocs(t, plain, append(slices.Clone(a), same...)), queries)
	if m.Learned.Reweighting != "dropped" || m.Config.Reweight > 0 {
		t.Errorf("learned %+v, reweight %d: want the gains dropped", m.Learned, m.Config.Reweight)
	}
	// Multinomial NB's gains are in its counts: they stay, and unlearning
	// what was learned gives the reweighted model back.
	mnb := Config{Weighting: RawCounts, Classifier: Multinomial, Reweight: 3, Fast: true}
	m = trainDocs(t, mnb, a)
	if err := m.LearnBatch(examples(same)); err != nil {
		t.Fatal(err)
	}
	if err := m.UnlearnBatch(examples(same)); err != nil {
		t.Fatal(err)
	}
	sameModel(t, "mnb reweighted, learned and unlearned", m, trainDocs(t, mnb, a), queries)
	if m.Learned.Reweighting != "kept" || m.Config.Reweight != 3 {
		t.Errorf("learned %+v, reweight %d: want the gains kept", m.Learned, m.Config.Reweight)
	}
	// A calibration stays as fitted, and the file says so.
	m = trainDocs(t, Config{Weighting: RawCounts, Fast: true}, a)
	cal := &Calibration{Temperature: 2, Priors: uniform(len(m.Classes)), Folds: 5, Documents: len(a)}
	if err := m.setCalibration(cal, m.Classes); err != nil {
		t.Fatal(err)
	}
	if err := m.Learn(same[0].Label, same[0].Text); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "calibrated.model")
	if err := modelfile.Save(path, m); err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	info, err := loaded.Inspect(0)
	if err != nil {
		t.Fatal(err)
	}
	if c := loaded.Calibration(); c == nil || c.Temperature != 2 || info.Learned == nil || info.Learned.Calibration != "kept" {
		t.Errorf("calibration %+v, learned %+v: want the calibration kept and said so", c, info.Learned)
	}
}

// TestLearnIntoOlderFiles learns into the model files of earlier builds.
func TestLearnIntoOlderFiles(t *testing.T) {
	_, b, queries := learnSplit(t)
	files, err := filepath.Glob("../../testdata/models/*.model")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		orig, err := Load(f)
		if err != nil {
			continue // another kind of model
		}
		n++
		m, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		d := Example{m.Classes[0], b[0].Text}
		if err := m.Learn(d.Label, d.Text); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		path := filepath.Join(t.TempDir(), "learned.model")
		if err := modelfile.Save(path, m); err != nil {
			t.Fatal(err)
		}
		if m, err = Load(path); err != nil {
			t.Fatalf("%s learned: %v", f, err)
		}
		if err := m.Unlearn(d.Label, d.Text); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if orig.Config.Weighting == RawCounts || orig.Config.Classifier == Bernoulli || orig.Config.TFIDFOptions.Norm == vectorize.NoNorm {
			sameModel(t, f+" learned and unlearned", m, orig, queries)
		}
	}
	if n == 0 {
		t.Fatal("no text model files in testdata/models")
	}
}

// BenchmarkLearn times Learn of one SMS-sized text into a model of
// testdata/spam.tsv, beside a prediction of it (Proba).
func BenchmarkLearn(b *testing.B) {
	docs, err := corpus.ReadAll("../../testdata/spam.tsv", corpus.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"counts-mnb", Config{Weighting: RawCounts, Classifier: Multinomial, Fast: true}},
		{"counts-cnb", Config{Weighting: RawCounts, Classifier: Complement, Fast: true}},
		{"tfidf-mnb", Config{Classifier: Multinomial, Fast: true}},
	} {
		b.Run(c.name+"/learn", func(b *testing.B) {
			m := trainDocs(b, c.cfg, docs)
			i := 0
			for b.Loop() {
				d := docs[i%len(docs)]
				if err := m.Learn(d.Label, d.Text); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run(c.name+"/predict", func(b *testing.B) {
			m := trainDocs(b, c.cfg, docs)
			p := m.NewPredictor()
			var dst []float64
			i := 0
			for b.Loop() {
				dst, _ = p.Proba(dst[:0], docs[i%len(docs)].Text)
				i++
			}
		})
	}
}

// TestLearnWeightedBatchAndUndo checks, for the default TF-IDF rows, that
// a batch learns as the same Learns one at a time, and that unlearning the
// last documents learned undoes them.
func TestLearnWeightedBatchAndUndo(t *testing.T) {
	a, b, queries := learnSplit(t)
	var same []corpus.Document // of a's classes
	for _, d := range b {
		if slices.ContainsFunc(a, func(x corpus.Document) bool { return x.Label == d.Label }) {
			same = append(same, d)
		}
	}
	for _, cfg := range []Config{{Fast: true}, {Weighting: Rennie, Fast: true}} {
		batch, single, orig := trainDocs(t, cfg, a), trainDocs(t, cfg, a), trainDocs(t, cfg, a)
		if err := batch.LearnBatch(examples(same)); err != nil {
			t.Fatal(err)
		}
		for _, d := range same {
			if err := single.Learn(d.Label, d.Text); err != nil {
				t.Fatal(err)
			}
		}
		sameModel(t, cfg.Weighting.String()+": batch against one at a time", batch, single, queries)
		for i := len(same) - 1; i >= 0; i-- {
			if err := single.Unlearn(same[i].Label, same[i].Text); err != nil {
				t.Fatal(err)
			}
		}
		sameModel(t, cfg.Weighting.String()+": learned and unlearned", single, orig, queries)
	}
}
