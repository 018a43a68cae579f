package vectorize

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/featurehash"
	"github.com/textnb/textnb/internal/golden"
	"github.com/textnb/textnb/internal/testkit"
)

const tol = 1e-9

func near(a, b float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

func TestGoldenMurmur3(t *testing.T) {
	g := golden.Load(t)
	if len(g.Murmur) == 0 {
		t.Fatal("no murmurhash3_32 entries")
	}
	for _, m := range g.Murmur {
		if got := featurehash.Murmur3([]byte(m.Token), 0); got != m.Unsigned {
			t.Errorf("featurehash.Murmur3(%q) = %d, want %d", m.Token, got, m.Unsigned)
		}
		if got := int32(featurehash.Murmur3String(m.Token, 0)); got != m.Signed {
			t.Errorf("signed featurehash.Murmur3String(%q) = %d, want %d", m.Token, got, m.Signed)
		}
	}
}

// sklearnTokens mimics scikit-learn's default analyzer: lowercase and
// (?u)\b\w+\b, where Python's Unicode \w is letters, numbers and '_'.
var wordRE = regexp.MustCompile(`[\p{L}\p{N}_]+`)

func sklearnTokens(s string) []string { return wordRE.FindAllString(strings.ToLower(s), -1) }

func TestGoldenHashing(t *testing.T) {
	g := golden.Load(t)
	doc := "the naive bayes café 自然语言 北京大学 spam ünïcödé " + strings.Repeat("x", 100)
	terms := sklearnTokens(doc)
	if len(terms) != 9 {
		t.Fatalf("tokens %q, want 9", terms)
	}
	h := Hashing{Features: 1 << 20, AlternateSign: true}
	idx, val := h.Transform(nil, nil, terms)
	if len(idx) != len(g.Hashing) {
		t.Fatalf("got %d entries %v %v, want %v", len(idx), idx, val, g.Hashing)
	}
	for k, want := range g.Hashing {
		if int(idx[k]) != int(want[0]) || val[k] != want[1] {
			t.Errorf("entry %d = (%d, %g), want %v", k, idx[k], val[k], want)
		}
	}
	// Without the sign every value is +1 in the same columns.
	idx2, val2 := Hashing{}.Transform(nil, nil, terms)
	for k := range idx2 {
		if idx2[k] != idx[k] || val2[k] != 1 {
			t.Errorf("unsigned entry %d = (%d, %g), want (%d, 1)", k, idx2[k], val2[k], idx[k])
		}
	}
}

func TestGoldenTFIDF(t *testing.T) {
	g := golden.Load(t)
	n := 0
	for _, c := range g.Cases {
		if !strings.HasPrefix(c.Name, "tfidf") {
			continue
		}
		n++
		tf := TFIDF{NoSmoothIDF: !c.Params["smooth_idf"].(bool), SublinearTF: c.Params["sublinear_tf"].(bool)}
		if err := tf.Fit(FromDense(c.XTrain)); err != nil {
			t.Fatal(err)
		}
		for j := range c.IDF {
			if !near(tf.IDF[j], c.IDF[j]) {
				t.Errorf("%s: idf[%d] = %.17g, want %.17g", c.Name, j, tf.IDF[j], c.IDF[j])
			}
		}
		Q := FromDense(c.XQuery)
		rows := clone(Q)
		if err := tf.Transform(Q); err != nil {
			t.Fatal(err)
		}
		assertDense(t, c.Name, Q, c.Transform)
		// The per-row variant agrees with the matrix one.
		for i := 0; i < rows.Rows; i++ {
			idx, val := rows.Row(i)
			if err := tf.TransformRow(idx, val); err != nil {
				t.Fatal(err)
			}
		}
		assertDense(t, c.Name+" rows", rows, c.Transform)
	}
	if n != 4 {
		t.Fatalf("found %d tfidf cases, want 4", n)
	}
}

func assertDense(t *testing.T, name string, m *CSR, want [][]float64) {
	t.Helper()
	if err := m.Validate(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	got := toDense(m)
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", name, len(got), len(want))
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("%s: row %d has %d columns, want %d", name, i, len(got[i]), len(want[i]))
		}
		for j := range want[i] {
			if !near(got[i][j], want[i][j]) {
				t.Errorf("%s: [%d][%d] = %.17g, want %.17g", name, i, j, got[i][j], want[i][j])
			}
		}
	}
}

func clone(m *CSR) *CSR { return (*CSR)(sparseOf(m).Clone()) }

// toDense returns m as dense rows.
func toDense(m *CSR) [][]float64 { return testkit.Dense(m.Rows, m.Cols, m.Row) }
