package pipeline

import (
	"cmp"
	"encoding/json"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/tokenize"
)

// explainCases are the classifiers, vectorizers and corpora Explain and
// ClassWeights are checked on.
var explainCases = []struct {
	name        string
	cfg         Config
	train, test string
}{
	{"cnb", Config{}, newsTrain, newsTest},
	{"cnb norm", Config{Norm: true}, newsTrain, newsTest},
	{"mnb counts", Config{Classifier: Multinomial, Weighting: RawCounts}, newsTrain, newsTest},
	{"mnb rennie", Config{Classifier: Multinomial, Weighting: Rennie}, newsTrain, newsTest},
	{"bnb", Config{Classifier: Bernoulli}, newsTrain, newsTest},
	{"cnb hash", Config{Vectorizer: Hash, HashFeatures: 1 << 12}, newsTrain, newsTest},
	{"bnb hash", Config{Classifier: Bernoulli, Vectorizer: Hash, HashFeatures: 64}, newsTrain, newsTest},
	{"cnb zh", Config{}, "../../testdata/zh/train.tsv", "../../testdata/zh/test.tsv"},
	{"mnb zh hash", Config{Classifier: Multinomial, Vectorizer: Hash}, "../../testdata/zh/train.tsv", "../../testdata/zh/test.tsv"},
	{"cnb reweighted", Config{Alpha: 0.3, Reweight: 5, ReweightRate: 40}, newsTrain, newsTest},
	{"mnb reweighted", Config{Alpha: 0.3, Reweight: 5}, "../../testdata/zh/train.tsv", "../../testdata/zh/test.tsv"},
}

// readCorpus reads the labels and texts of a testdata corpus.
func readCorpus(t *testing.T, path string) (labels, texts []string) {
	t.Helper()
	var opt corpus.Options
	if strings.Contains(path, "/zh/") {
		opt.TextField = "text_a"
	}
	_, err := corpus.Walk(path, opt, func(d corpus.Document) error {
		labels, texts = append(labels, d.Label), append(texts, d.Text)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return labels, texts
}

// trainOn trains a model with cfg on a testdata corpus.
func trainOn(t *testing.T, cfg Config, path string) *Model {
	t.Helper()
	tr, err := NewTrainer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	labels, texts := readCorpus(t, path)
	for i, l := range labels {
		tr.Add(l, texts[i])
	}
	m, _, err := tr.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Each contribution is the feature's value times the difference of the two
// classes' weights, and the bias plus the contributions sum to the margin
// of the joint log-likelihoods, for trained and loaded models.
func TestExplainSumsToMargin(t *testing.T) {
	for _, tc := range explainCases {
		t.Run(tc.name, func(t *testing.T) {
			trained := trainOn(t, tc.cfg, tc.train)
			loaded, err := decode(testkit.Encode(t, trained))
			if err != nil {
				t.Fatal(err)
			}
			_, texts := readCorpus(t, tc.test)
			texts = append(texts, "", "zzzz unknown qqqq")
			for name, m := range map[string]*Model{"trained": trained, "loaded": loaded} {
				checkExplanations(t, name, m, texts)
			}
		})
	}
}

func checkExplanations(t *testing.T, name string, m *Model, texts []string) {
	weights := make([][]float64, len(m.Classes))
	bias := make([]float64, len(m.Classes))
	for c := range weights {
		weights[c], bias[c] = m.ClassWeights(c)
	}
	terms := m.Terms()
	if (terms == nil) != (m.Config.Vectorizer == Hash) || terms != nil && len(terms) != m.NumFeatures() {
		t.Fatalf("%s: %d terms for %d features with the %v vectorizer", name, len(terms), m.NumFeatures(), m.Config.Vectorizer)
	}
	p, q := m.NewPredictor(), m.NewPredictor()
	nonEmpty := 0
	for _, text := range texts {
		e := p.Explain(text)
		jll := q.JointLogLikelihood(nil, text)
		if e.Class != nb.Argmax(jll) || e.RunnerUp == e.Class || jll[e.RunnerUp] > jll[e.Class] {
			t.Fatalf("%s: %q explains class %d against %d; scores %v", name, text, e.Class, e.RunnerUp, jll)
		}
		for c, v := range jll {
			if c != e.Class && v > jll[e.RunnerUp] {
				t.Fatalf("%s: %q: class %d scores above the runner-up %d", name, text, c, e.RunnerUp)
			}
		}
		if e.Label != m.Classes[e.Class] || e.RunnerUpLabel != m.Classes[e.RunnerUp] {
			t.Fatalf("%s: labels %q, %q for classes %d, %d", name, e.Label, e.RunnerUpLabel, e.Class, e.RunnerUp)
		}
		if e.Margin != jll[e.Class]-jll[e.RunnerUp] || e.Bias != bias[e.Class]-bias[e.RunnerUp] {
			t.Fatalf("%s: margin %g bias %g, want %g and %g", name, e.Margin, e.Bias, jll[e.Class]-jll[e.RunnerUp], bias[e.Class]-bias[e.RunnerUp])
		}
		if e.Terms == nil || e.Margin < 0 {
			t.Fatalf("%s: %q: terms %v (nil encodes as JSON null), margin %g", name, text, e.Terms, e.Margin)
		}
		sum := e.Bias
		for i, c := range e.Terms {
			want := c.Value * (weights[e.Class][c.Feature] - weights[e.RunnerUp][c.Feature])
			if c.Weight != want {
				t.Fatalf("%s: %q: feature %d contributes %g, want %g", name, text, c.Feature, c.Weight, want)
			}
			if i > 0 && math.Abs(c.Weight) > math.Abs(e.Terms[i-1].Weight) {
				t.Fatalf("%s: contributions not in order of |weight|: %v", name, e.Terms)
			}
			checkTerm(t, name, m, terms, c)
			sum += c.Weight
		}
		if d := math.Abs(sum - e.Margin); d > 1e-9 {
			t.Fatalf("%s: %q: bias + contributions = %.15g, margin %.15g (off by %g)", name, text, sum, e.Margin, d)
		}
		// ClassWeights reproduce every class's score from the row.
		idx, val := q.row(text)
		for c := range jll {
			s := bias[c]
			for k, j := range idx {
				x := val[k]
				if m.lin.Binary {
					if x <= m.lin.Threshold {
						continue
					}
					x = 1
				}
				s += x * weights[c][j]
			}
			if math.Abs(s-jll[c]) > 1e-9 {
				t.Fatalf("%s: %q: class %d weights score %.15g, the model %.15g", name, text, c, s, jll[c])
			}
		}
		if len(e.Terms) > 0 {
			nonEmpty++
		}
	}
	if nonEmpty < len(texts)/2 {
		t.Fatalf("%s: only %d of %d texts had known features", name, nonEmpty, len(texts))
	}
}

// checkTerm checks that a contribution names its feature's term: the
// vocabulary's, or with hashing terms that hash to the feature.
func checkTerm(t *testing.T, name string, m *Model, terms []string, c Contribution) {
	t.Helper()
	if terms != nil {
		if c.Term != terms[c.Feature] {
			t.Fatalf("%s: feature %d is %q, explained as %q", name, c.Feature, terms[c.Feature], c.Term)
		}
		return
	}
	if c.Term == "" {
		t.Fatalf("%s: hashed feature %d has no term", name, c.Feature)
	}
	for _, s := range strings.Split(c.Term, " | ") {
		if j, _ := m.hash.Column(s); int(j) != c.Feature {
			t.Fatalf("%s: term %q hashes to %d, explained as feature %d", name, s, j, c.Feature)
		}
	}
}

// ClassWeights are the classifier's dense weights, feature by feature.
func TestClassWeightsMatchDenseTable(t *testing.T) {
	for _, cfg := range []Config{{}, {Norm: true}, {Classifier: Multinomial}, {Classifier: Bernoulli}} {
		m, _ := train(t, cfg, newsTrain)
		d := m.lin.Dense()
		for c := range m.Classes {
			w, b := m.ClassWeights(c)
			if b != d.Bias[c] {
				t.Fatalf("%v: class %d bias %g, dense %g", cfg.Classifier, c, b, d.Bias[c])
			}
			// WeightsAt, which multi-label explanations use, reads the same
			// weights at some features only.
			some := []int32{0, int32(len(w) / 3), int32(len(w) - 1), 0}
			at, ab := core.WeightsAt(m, []float64{-1}, c, some)
			if ab != b || len(at) != 1+len(some) || at[0] != -1 {
				t.Fatalf("%v: class %d WeightsAt: %v, bias %g", cfg.Classifier, c, at, ab)
			}
			for q, j := range some {
				if at[1+q] != w[j] {
					t.Fatalf("%v: class %d feature %d: WeightsAt %g, ClassWeights %g", cfg.Classifier, c, j, at[1+q], w[j])
				}
			}
			for j, v := range w {
				if want := d.W[j*d.K+c]; math.Abs(v-want) > 1e-12*math.Max(1, math.Abs(want)) {
					t.Fatalf("%v: class %d feature %d weight %g, dense %g", cfg.Classifier, c, j, v, want)
				}
			}
		}
	}
}

func TestInspectText(t *testing.T) {
	for _, cfg := range []Config{{}, {Classifier: Multinomial, Weighting: RawCounts}, {Vectorizer: Hash, HashFeatures: 1 << 12}} {
		trained, _ := train(t, cfg, newsTrain)
		loaded, err := decode(testkit.Encode(t, trained))
		if err != nil {
			t.Fatal(err)
		}
		for name, m := range map[string]*Model{"trained": trained, "loaded": loaded} {
			info, err := m.Inspect(5)
			if err != nil {
				t.Fatal(err)
			}
			checkTextInfo(t, name, m, info)
		}
	}
}

func checkTextInfo(t *testing.T, name string, m *Model, info Info) {
	t.Helper()
	if info.Kind != "text" || info.Features != m.NumFeatures() || info.Terms != len(m.Terms()) ||
		info.Settings.Classifier != m.Config.Classifier.String() || len(info.Classes) != len(m.Classes) {
		t.Fatalf("%s: info %+v", name, info)
	}
	counts, err := m.fittedCounts()
	if err != nil {
		t.Fatal(err)
	}
	dense := counts.Dense()
	var docs float64
	for k, ci := range info.Classes {
		docs += ci.Documents
		if ci.Name != m.Classes[k] || ci.Documents != 60 {
			t.Fatalf("%s: class %d is %q with %g documents", name, k, ci.Name, ci.Documents)
		}
		if len(ci.TopWeights) != 5 || len(ci.TopLogOdds) != 5 {
			t.Fatalf("%s: class %q has %d top weights and %d top log-odds", name, ci.Name, len(ci.TopWeights), len(ci.TopLogOdds))
		}
		w, _ := m.ClassWeights(k)
		for i, s := range ci.TopWeights {
			if s.Score != w[s.Feature] || i > 0 && s.Score > ci.TopWeights[i-1].Score {
				t.Fatalf("%s: class %q top weights %v", name, ci.Name, ci.TopWeights)
			}
		}
		for i, s := range ci.TopLogOdds {
			if i > 0 && s.Score > ci.TopLogOdds[i-1].Score {
				t.Fatalf("%s: class %q top log-odds not sorted: %v", name, ci.Name, ci.TopLogOdds)
			}
			if want := logOdds(dense, k, s.Feature, m.Config.alpha()); math.Abs(s.Score-want) > 1e-9 {
				t.Fatalf("%s: class %q term %q log-odds %g, want %g", name, ci.Name, s.Term, s.Score, want)
			}
		}
		wantW, wantO := slowTop(dense, k, w, m.Config.alpha(), 5)
		if !slices.Equal(features(ci.TopWeights), wantW) || !slices.Equal(features(ci.TopLogOdds), wantO) {
			t.Fatalf("%s: class %q top features %v and %v, want %v and %v", name, ci.Name,
				features(ci.TopWeights), features(ci.TopLogOdds), wantW, wantO)
		}
		for _, list := range [][]TermScore{ci.TopWeights, ci.TopLogOdds} {
			for _, s := range list {
				if dense.FeatureCount[k*dense.Features+s.Feature] <= 0 {
					t.Fatalf("%s: class %q ranks %q, unseen in it", name, ci.Name, s.Term)
				}
				if (s.Term == "") != (m.vocab == nil) || m.vocab != nil && s.Term != m.vocab.Term(s.Feature) {
					t.Fatalf("%s: feature %d named %q", name, s.Feature, s.Term)
				}
			}
		}
	}
	if docs != 240 {
		t.Fatalf("%s: %g training documents, want 240", name, docs)
	}
	if _, err := json.Marshal(info); err != nil {
		t.Fatal(err)
	}
}

func features(s []TermScore) []int {
	var out []int
	for _, v := range s {
		out = append(out, v.Feature)
	}
	return out
}

// slowTop returns the n features seen in class k with the highest weights
// w and the highest log-odds, each ranked by sorting them all: ties go to
// the larger count in the class, then the lower feature.
func slowTop(c *nb.Counts, k int, w []float64, alpha float64, n int) (byWeight, byOdds []int) {
	var nIn, nAll float64
	total := make([]float64, c.Features)
	for cl := range c.Classes {
		for j, v := range c.FeatureCount[cl*c.Features : (cl+1)*c.Features] {
			total[j] += v
			nAll += v
			if cl == k {
				nIn += v
			}
		}
	}
	count := c.FeatureCount[k*c.Features : (k+1)*c.Features]
	fa := float64(c.Features) * alpha
	top := func(score func(j int) float64) []int {
		var seen []int
		for j, v := range count {
			if v > 0 {
				seen = append(seen, j)
			}
		}
		slices.SortStableFunc(seen, func(a, b int) int {
			if sa, sb := score(a), score(b); sa != sb {
				return cmp.Compare(sb, sa)
			}
			return cmp.Compare(count[b], count[a])
		})
		return seen[:min(n, len(seen))]
	}
	byWeight = top(func(j int) float64 { return w[j] })
	byOdds = top(func(j int) float64 {
		return math.Log((count[j]+alpha)/(nIn+fa)) - math.Log((total[j]-count[j]+alpha)/(nAll-nIn+fa))
	})
	return byWeight, byOdds
}

// logOdds is the smoothed log-odds of feature j in class k against the
// other classes, from dense counts.
func logOdds(c *nb.Counts, k, j int, alpha float64) float64 {
	var in, out, nIn, nOut float64
	for cl := range c.Classes {
		row := c.FeatureCount[cl*c.Features : (cl+1)*c.Features]
		for jj, v := range row {
			if cl == k {
				nIn += v
			} else {
				nOut += v
			}
			if jj == j && cl == k {
				in += v
			} else if jj == j {
				out += v
			}
		}
	}
	fa := float64(c.Features) * alpha
	return math.Log((in+alpha)/(nIn+fa)) - math.Log((out+alpha)/(nOut+fa))
}

// An aborted Trainer stops its goroutines and refuses more work.
func TestTrainerAbort(t *testing.T) {
	before := runtime.NumGoroutine()
	tr, err := NewTrainer(Config{Tokenize: tokenize.Config{Lang: tokenize.English}})
	if err != nil {
		t.Fatal(err)
	}
	labels, texts := readCorpus(t, newsTrain)
	for i := range 100 {
		tr.Add(labels[i], texts[i])
	}
	tr.Abort()
	tr.Add("x", "more text")
	if _, _, err := tr.Finish(); !errors.Is(err, ErrFinished) {
		t.Fatalf("Finish after Abort: %v, want ErrFinished", err)
	}
	// Exiting goroutines may take a moment on a loaded machine: wait for
	// them until the test's deadline, not for a set time.
	deadline, ok := t.Deadline()
	for runtime.NumGoroutine() > before && (!ok || time.Until(deadline) > time.Second) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after Abort, %d before", n, before)
	}
}
