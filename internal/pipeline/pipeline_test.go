package pipeline

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/hostile"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/ngrams"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/internal/vocab"
	"github.com/textnb/textnb/metrics"
	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

const (
	newsTrain = "../../testdata/news/train"
	newsTest  = "../../testdata/news/test"
)

func train(t testing.TB, cfg Config, path string) (*Model, Summary) {
	t.Helper()
	return trainVia(t, cfg, path, false)
}

// trainVia is train, through a count matrix if viaMatrix.
func trainVia(t testing.TB, cfg Config, path string, viaMatrix bool) (*Model, Summary) {
	t.Helper()
	tr, err := NewTrainer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr.viaMatrix = viaMatrix
	_, err = corpus.Walk(path, corpus.Options{}, func(d corpus.Document) error {
		tr.Add(d.Label, d.Text)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	m, s, err := tr.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return m, s
}

func evaluate(t testing.TB, m *Model, path string) metrics.Evaluation {
	t.Helper()
	ev := metrics.NewEvaluator(m.Classes)
	b := m.NewBatch(func(p Prediction) { ev.Add(p.Truth, m.Classes[p.Class]) })
	_, err := corpus.Walk(path, corpus.Options{}, func(d corpus.Document) error {
		b.Add(d.Source, d.Label, d.Text)
		return nil
	})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	return ev.Result()
}

func TestTrainEvaluateConfigs(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"default", Config{}},
		{"mnb counts unigrams", Config{Classifier: Multinomial, Weighting: RawCounts}},
		{"bernoulli", Config{Classifier: Bernoulli}},
		{"rennie norm", Config{Weighting: Rennie, Norm: true}},
		{"hash", Config{Vectorizer: Hash}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, s := train(t, tc.cfg, newsTrain)
			if s.Documents != 240 || s.Classes != 4 || s.Features == 0 {
				t.Fatalf("summary %+v", s)
			}
			r := evaluate(t, m, newsTest)
			if r.N != 80 {
				t.Fatalf("evaluated %d documents, want 80", r.N)
			}
			// The fixture is easy but not trivial; every configuration
			// should get most of it right.
			if r.Accuracy < 0.8 {
				t.Errorf("accuracy %.3f < 0.8", r.Accuracy)
			}
			t.Logf("accuracy %.4f macro-F1 %.4f features %d", r.Accuracy, r.MacroF1, s.Features)
		})
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	for _, cfg := range []Config{{}, {Vectorizer: Hash, Classifier: Bernoulli}, {Weighting: Rennie, Classifier: Multinomial}} {
		m, _ := train(t, cfg, newsTrain)
		path := filepath.Join(t.TempDir(), "news.model")
		if err := modelfile.Save(path, m); err != nil {
			t.Fatal(err)
		}
		got, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		a, b := m.NewPredictor(), got.NewPredictor()
		for _, text := range []string{"The striker scored twice", "Stocks fell on rate fears", "", "braise the short ribs"} {
			pa, ia := a.Proba(nil, text)
			pb, ib := b.Proba(nil, text)
			if ia != ib || !slices.Equal(pa, pb) {
				t.Errorf("%+v %q: loaded model gives %v (%d), trained %v (%d)", cfg, text, pb, ib, pa, ia)
			}
		}
		c1, err := m.fittedCounts()
		if err != nil {
			t.Fatal(err)
		}
		c2, err := got.fittedCounts()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(c1.Count, c2.Count) || !slices.Equal(c1.ClassCount, c2.ClassCount) ||
			!slices.Equal(c1.Ptr, c2.Ptr) || !slices.Equal(c1.Class, c2.Class) || c1.Binary != c2.Binary {
			t.Errorf("%+v: counts differ after a round trip", cfg)
		}
		// A second save of the loaded model writes the same bytes.
		if !bytes.Equal(testkit.Encode(t, m), testkit.Encode(t, got)) {
			t.Errorf("%+v: re-encoding a loaded model changed its bytes", cfg)
		}
	}
}

// The conversions that a big-endian machine takes write the bytes that a
// little-endian one copies from memory, and read them back the same.
func TestModelFileBytesDoNotDependOnByteOrder(t *testing.T) {
	m, _ := train(t, Config{}, newsTrain)
	native := testkit.Encode(t, m)
	defer func(le bool) { littleEndian = le }(littleEndian)
	littleEndian = false
	portable := testkit.Encode(t, m)
	if !bytes.Equal(native, portable) {
		t.Fatal("the converting path writes other bytes")
	}
	got, err := decode(portable)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(testkit.Encode(t, got), native) {
		t.Error("a model read by the converting path encodes to other bytes")
	}
}

// A Predictor scores through the classifier's scorer, made on first use
// after training or while loading, as the classifier itself scores.
func TestPredictorScoresAsTheClassifier(t *testing.T) {
	trained, _ := train(t, Config{}, newsTrain)
	loaded, err := decode(testkit.Encode(t, trained))
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]*Model{"trained": trained, "loaded": loaded} {
		p := m.NewPredictor()
		idx, val := p.row("The striker scored twice")
		want := m.lin.JointLogLikelihood(nil, idx, val)
		if got := p.JointLogLikelihood(nil, "The striker scored twice"); !slices.Equal(got, want) {
			t.Fatalf("%s: the Predictor scores %v, the classifier %v", name, got, want)
		}
	}
}

func TestTrainingIsDeterministic(t *testing.T) {
	trainOn := func(procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		m, _ := train(t, Config{}, newsTrain)
		return testkit.Encode(t, m)
	}
	if !bytes.Equal(trainOn(1), trainOn(4)) {
		t.Error("model bytes depend on the number of goroutines")
	}
}

// withVersion returns the model file data with its format version set to
// v and its checksum made to match.
func withVersion(data []byte, v uint32) []byte {
	out := bytes.Clone(data)
	binary.LittleEndian.PutUint32(out[len(magic):], v)
	return hostile.Rechecksum(out)
}

// encodeRepeatingTerm returns the model file of m with its vocabulary's
// second term spelled like its first, as only a faulty writer would.
func encodeRepeatingTerm(t *testing.T, m *Model) []byte {
	terms := m.vocab.Terms()
	terms[1] = terms[0]
	var blob []byte
	ends := make([]int, len(terms))
	for i, s := range terms {
		blob = append(blob, s...)
		ends[i] = len(blob)
	}
	v, err := vocab.NewVocabularyPacked(blob, ends)
	if err != nil {
		t.Fatal(err)
	}
	good := m.vocab
	defer func() { m.vocab = good }()
	m.vocab = v
	return testkit.Encode(t, m)
}

// A version 1 file, whose terms are sorted, written by an earlier build
// (testdata/models/news-v1.model), loads and predicts as a model trained
// now with the same settings, whose terms are in first-seen order: the same
// terms, and scores equal but for the order of sums over features.
func TestLoadVersion1(t *testing.T) {
	old, err := Load("../../testdata/models/news-v1.model")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Vocab: vectorize.VocabConfig{MaxFeatures: 300}, Fast: true} // the defaults of version 1
	cfg.Tokenize.WordNGrams = tokenize.NGramRange{Min: 1, Max: 1}
	m, _ := train(t, cfg, newsTrain)
	if terms := old.vocab.Terms(); !slices.IsSorted(terms) || !slices.Equal(terms, slices.Sorted(slices.Values(m.vocab.Terms()))) {
		t.Fatal("the version 1 file's terms are not the sorted terms of a model trained now")
	}
	docs, err := corpus.ReadAll(newsTest, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	po, pm := old.NewPredictor(), m.NewPredictor()
	for _, d := range docs {
		if got, want := po.JointLogLikelihood(nil, d.Text), pm.JointLogLikelihood(nil, d.Text); !floatsClose(got, want, 1e-12) {
			t.Fatalf("%s: version 1 file scores %v, a model trained now %v", d.Source, got, want)
		}
	}
}

func TestLoadRejectsBadFiles(t *testing.T) {
	m, _ := train(t, Config{}, newsTrain)
	good := testkit.Encode(t, m)
	flip := bytes.Clone(good)
	flip[len(flip)/2] ^= 0x40
	version := bytes.Clone(good)
	version[len(magic)] = 99
	version0 := withVersion(good, 0)
	repeated := encodeRepeatingTerm(t, m)
	if _, err := decode(repeated); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "term 1") {
		t.Errorf("a repeated term: error %v, want ErrFormat naming term 1", err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrFormat},
		{"foreign", []byte("#!/bin/sh\necho this is not a model\n"), ErrFormat},
		{"truncated", good[:len(good)/3], ErrChecksum},
		{"magic only", []byte(magic), ErrFormat},
		{"corrupted", flip, ErrChecksum},
		{"future version", version, ErrVersion},
		{"version 0", version0, ErrVersion},
		{"repeated term", repeated, vectorize.ErrVocabularyTerms},
	} {
		path := filepath.Join(t.TempDir(), "bad.model")
		if err := os.WriteFile(path, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: Load error %v, want %v", tc.name, err, tc.want)
		}
		if err != nil && !bytes.Contains([]byte(err.Error()), []byte(path)) {
			t.Errorf("%s: error %q does not name the file", tc.name, err)
		}
	}
	missing := filepath.Join(t.TempDir(), "missing.model")
	if _, err := Load(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestSaveIsAtomic(t *testing.T) {
	m, _ := train(t, Config{}, newsTrain)
	dir := t.TempDir()
	path := filepath.Join(dir, "m.model")
	if err := os.WriteFile(path, []byte("previous contents"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := modelfile.Save(filepath.Join(dir, "no-such-dir", "m.model"), m); err == nil {
		t.Fatal("Save into a missing folder succeeded")
	}
	if err := modelfile.Save(path, m); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries after Save, want only the model", len(entries))
	}
	if _, err := Load(path); err != nil {
		t.Error(err)
	}
}

func TestTrainerRejects(t *testing.T) {
	tr, _ := NewTrainer(Config{})
	if _, _, err := tr.Finish(); !errors.Is(err, ErrNoDocuments) {
		t.Errorf("no documents: %v", err)
	}
	tr, _ = NewTrainer(Config{})
	tr.Add("spam", "win a prize")
	tr.Add("spam", "free money")
	if _, _, err := tr.Finish(); !errors.Is(err, ErrOneClass) {
		t.Errorf("one class: %v", err)
	}
	tr, _ = NewTrainer(Config{})
	tr.Add("a", "!!!")
	tr.Add("b", "???")
	if _, _, err := tr.Finish(); err == nil {
		t.Error("documents without any term trained a model")
	}
	tr, _ = NewTrainer(Config{})
	tr.Add("a", "first document")
	tr.Add("b", "second document")
	if _, _, err := tr.Finish(); err != nil {
		t.Fatal(err)
	}
	tr.Add("a", "too late")
	if _, _, err := tr.Finish(); !errors.Is(err, ErrFinished) {
		t.Errorf("second Finish: %v", err)
	}
	if _, err := NewTrainer(Config{Alpha: -1}); !errors.Is(err, ErrConfig) {
		t.Errorf("negative alpha: %v", err)
	}
}

// TestLoadChecksWeighting writes a model whose settings ask for TF-IDF but
// whose file holds no IDF weights: loading must refuse it, not predict
// unweighted.
func TestLoadChecksWeighting(t *testing.T) {
	m, _ := train(t, Config{Weighting: RawCounts}, newsTrain)
	m.Config.Weighting = TFIDF
	if _, err := decode(testkit.Encode(t, m)); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "IDF") {
		t.Errorf("decode: %v, want ErrFormat about the IDF", err)
	}
}

// TestModelRecordsTokenizer checks that a model stores every tokenizer
// setting, defaults included, so later defaults cannot change it.
func TestModelRecordsTokenizer(t *testing.T) {
	m, _ := train(t, Config{}, newsTrain)
	got := m.Config.Tokenize
	if got.MinLen != 2 || got.HanMinLen != 1 || got.WordNGrams != DefaultWordNGrams || got.Lang != tokenize.English {
		t.Errorf("stored tokenizer config %+v has unresolved defaults", got)
	}
}

// trainBothWays trains on newsTrain with cfg straight from the
// vectorizer's rows, as Finish does, and through a count matrix.
func trainBothWays(t *testing.T, cfg Config) (direct, matrix *Model) {
	t.Helper()
	direct, _ = trainVia(t, cfg, newsTrain, false)
	matrix, _ = trainVia(t, cfg, newsTrain, true)
	return direct, matrix
}

// TestPartsFitMatchesMatrixFit checks that training a hashing model from
// its batches of rows (fitParts) gives, bit for bit, the model that
// training through the stacked count matrix does.
func TestPartsFitMatchesMatrixFit(t *testing.T) {
	for _, cfg := range []Config{
		{Vectorizer: Hash},
		{Vectorizer: Hash, HashFeatures: 1 << 12, Classifier: Multinomial, Weighting: RawCounts},
		{Vectorizer: Hash, Weighting: Rennie, Norm: true},
		{Vectorizer: Hash, Classifier: Bernoulli},
	} {
		parts, matrix := trainBothWays(t, cfg)
		if !bytes.Equal(testkit.Encode(t, parts), testkit.Encode(t, matrix)) {
			t.Errorf("%+v: the model fitted from the parts differs from the matrix's", cfg)
		}
	}
}

// TestPrunedFitMatchesMatrixFit checks that training straight from the
// vectorizer's rows (fitPruned) gives the model that training through a
// count matrix does, up to the order of floating-point sums.
func TestPrunedFitMatchesMatrixFit(t *testing.T) {
	for _, cfg := range []Config{
		{},
		{Classifier: Multinomial, Weighting: RawCounts},
		{Weighting: Rennie, Norm: true, Vocab: vectorize.VocabConfig{MinDF: 2}},
		{Classifier: Bernoulli},
		{Vocab: vectorize.VocabConfig{MaxFeatures: 300, MaxDF: 0.5}},
	} {
		cfg.Fast = true // the matrix fit does not choose
		pruned, matrix := trainBothWays(t, cfg)
		// The pruned fit keeps the order in which the terms were first
		// seen, the matrix fit sorts them: compare term by term.
		pt, mt := pruned.vocab.Terms(), matrix.vocab.Terms()
		pi, mi := termOrder(pt), termOrder(mt)
		if len(pi) != len(mi) {
			t.Fatalf("%+v: vocabularies of %d and %d terms", cfg, len(pi), len(mi))
		}
		for k := range pi {
			if pt[pi[k]] != mt[mi[k]] {
				t.Fatalf("%+v: vocabularies differ at %q, %q", cfg, pt[pi[k]], mt[mi[k]])
			}
		}
		if a, b := pruned.idf(), matrix.idf(); (a == nil) != (b == nil) || a != nil && !floatsClose(pick(*a, pi), pick(*b, mi), 1e-12) {
			t.Fatalf("%+v: IDF differs", cfg)
		}
		pc, mc := countCells(pruned.counts), countCells(matrix.counts)
		for k := range pi {
			if !sameFeature(pc, mc, pi[k], mi[k], 1e-12) {
				t.Fatalf("%+v: class-feature sums of %q differ", cfg, pt[pi[k]])
			}
		}
		pl, ml := pruned.lin, matrix.lin
		if (pl.Base == nil) != (ml.Base == nil) || pl.Base != nil && !floatsClose(pick(pl.Base, pi), pick(ml.Base, mi), 1e-12) ||
			!floatsClose(pl.Q, ml.Q, 1e-12) || !floatsClose(pl.P, ml.P, 1e-12) {
			t.Fatalf("%+v: weights differ", cfg)
		}
		for k := range pi {
			if !sameFeature(cells{pl.Ptr, pl.Class, pl.Delta}, cells{ml.Ptr, ml.Class, ml.Delta}, pi[k], mi[k], 1e-12) {
				t.Fatalf("%+v: weights of %q differ", cfg, pt[pi[k]])
			}
		}
	}
}

// termOrder returns the ids of terms in the sorted order of the terms.
func termOrder(terms []string) []int32 {
	ids := make([]int32, len(terms))
	for i := range ids {
		ids[i] = int32(i)
	}
	slices.SortFunc(ids, func(a, b int32) int { return strings.Compare(terms[a], terms[b]) })
	return ids
}

// pick returns v[ids[0]], v[ids[1]], ….
func pick(v []float64, ids []int32) []float64 {
	out := make([]float64, len(ids))
	for k, i := range ids {
		out[k] = v[i]
	}
	return out
}

// cells is a feature-major layout of class cells: compact.Counts' Ptr,
// Class and Count, or compact.Linear's Ptr, Class and Delta.
type cells struct {
	ptr   []int
	class []uint16
	val   []float64
}

func countCells(c *compact.Counts) cells { return cells{c.Ptr, c.Class, c.Count} }

// sameFeature reports whether feature p of a has the classes of feature q
// of b, with values that agree to tol (0: equal).
func sameFeature(a, b cells, p, q int32, tol float64) bool {
	return slices.Equal(a.class[a.ptr[p]:a.ptr[p+1]], b.class[b.ptr[q]:b.ptr[q+1]]) &&
		floatsClose(a.val[a.ptr[p]:a.ptr[p+1]], b.val[b.ptr[q]:b.ptr[q+1]], tol)
}

// floatsClose reports whether a and b agree to tol, relative beyond 1.
func floatsClose(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !(math.Abs(a[i]-b[i]) <= tol*max(1, math.Abs(b[i]))) {
			return false
		}
	}
	return true
}

// A tokenizing goroutine's word buffers must not keep a finished batch's
// texts alive, nor the room a very long document needed.
func TestDropViews(t *testing.T) {
	s := append(make([]string, 0, 8), "old", "text", "views")
	s = dropViews(s[:1]) // a later, shorter document left the slice shorter
	if len(s) != 0 || cap(s) != 8 {
		t.Fatalf("dropViews kept len %d cap %d, want 0 and 8", len(s), cap(s))
	}
	for i, w := range s[:3] {
		if w != "" {
			t.Errorf("word %d still refers to %q", i, w)
		}
	}
	if big := dropViews(make([]string, 1, maxWordBuffer+1)); big != nil {
		t.Errorf("dropViews kept a buffer of %d words", cap(big))
	}
}

// A coder whose WordCoder has numbered too many terms is replaced, since
// coded documents may still refer to its tables, but its tokenizing Worker,
// which they do not refer to, carries on with the words it has seen.
func TestPutCoderReplacesLargeCoders(t *testing.T) {
	tr, err := NewTrainer(Config{Tokenize: tokenize.Config{Lang: tokenize.English, Stem: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Finish() }) // stops its goroutines; it has no documents
	small := tr.takeCoder()
	tr.putCoder(small)
	if c := tr.takeCoder(); c != small {
		t.Fatal("a coder of few terms was not reused")
	}
	words := make([]string, maxCoderTerms+1)
	for i := range words {
		words[i] = strconv.Itoa(i)
	}
	var d vocab.CodedDoc
	small.Code(&d, words, ngrams.Range{}, nil)
	tr.putCoder(small)
	c := tr.takeCoder()
	if c == small || c.tok != small.tok || c.Len() != 0 {
		t.Errorf("after %d terms: same coder %v, same worker %v, %d terms", small.Len(), c == small, c.tok == small.tok, c.Len())
	}
}

// With Vocab.Binary a model predicts from presence, as its training rows
// counted it: repeating a term changes nothing, while a model of counts
// scores the repetition.
func TestBinaryPredictsPresence(t *testing.T) {
	docs := readDocs(t, newsTrain)
	for _, cfg := range []Config{{Fast: true, Vocab: vectorize.VocabConfig{Binary: true}}, {Fast: true, Weighting: RawCounts, Vocab: vectorize.VocabConfig{Binary: true}}} {
		m, _, err := trainerOf(t, cfg, docs).Finish()
		if err != nil {
			t.Fatal(err)
		}
		counts := cfg
		counts.Vocab.Binary = false
		c, _, err := trainerOf(t, counts, docs).Finish()
		if err != nil {
			t.Fatal(err)
		}
		once, thrice := "oil prices rose", "oil oil oil prices prices rose"
		p, q := m.NewPredictor(), c.NewPredictor()
		if a, b := p.JointLogLikelihood(nil, once), p.JointLogLikelihood(nil, thrice); !slices.Equal(a, b) {
			t.Errorf("%+v: binary model scores %q %v and %q %v", cfg.Weighting, once, a, thrice, b)
		}
		if a, b := q.JointLogLikelihood(nil, once), q.JointLogLikelihood(nil, thrice); slices.Equal(a, b) {
			t.Errorf("%+v: a model of counts scores %q as %q", cfg.Weighting, once, thrice)
		}
		loaded, err := decode(testkit.Encode(t, m))
		if err != nil {
			t.Fatal(err)
		}
		if a, b := loaded.NewPredictor().JointLogLikelihood(nil, thrice), p.JointLogLikelihood(nil, once); !slices.Equal(a, b) {
			t.Errorf("loaded binary model scores %q %v, want %v", thrice, a, b)
		}
	}
}
