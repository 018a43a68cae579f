package pipeline

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/textnb/textnb/internal/tally"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/vectorize"
)

func TestTableScore(t *testing.T) {
	// a=3 b=1 c=2 d=4: χ² = 10·(12−2)²/(4·6·5·5) = 1000/600.
	if got := tableScore(Chi2, 3, 1, 2, 4); math.Abs(got-1000.0/600) > 1e-12 {
		t.Errorf("chi2 %g", got)
	}
	if got := tableScore(Chi2, 2, 2, 3, 3); got != 0 {
		t.Errorf("independent chi2 %g, want 0", got)
	}
	// A term in exactly the class's documents shares all of the class's entropy.
	want := -(0.3*math.Log(0.3) + 0.7*math.Log(0.7))
	if got := tableScore(MutualInfo, 3, 0, 0, 7); math.Abs(got-want) > 1e-12 {
		t.Errorf("mutual information %g, want %g", got, want)
	}
	if got := tableScore(MutualInfo, 2, 2, 3, 3); math.Abs(got) > 1e-12 {
		t.Errorf("independent mutual information %g, want 0", got)
	}
}

func TestRoundRobin(t *testing.T) {
	top := [][]int32{{5, 1, 2, 9}, {5, 3, 7}, {8}}
	// Rank 0: 5, (5), 8; rank 1: 1, 3; …
	if got := roundRobin(top, 4); !slices.Equal(got, []int32{1, 3, 5, 8}) {
		t.Errorf("%v", got)
	}
	if got := roundRobin(top, 100); !slices.Equal(got, []int32{1, 2, 3, 5, 7, 8, 9}) {
		t.Errorf("all: %v", got)
	}
}

// The per-class counts behind the scores match a count over the rows.
func TestPerClassTopMatchesBruteForce(t *testing.T) {
	rows := [][]float64{{1, 0, 2, 0}, {0, 1, 1, 0}, {1, 1, 0, 0}, {0, 0, 1, 3}, {1, 0, 0, 1}}
	sets := [][]int32{{0}, {1}, {0, 1}, {}, {1}}
	X := vectorize.FromDense(rows)
	src := termSource{features: 4, rows: 5, df: []int64{3, 2, 3, 2}, row: func(i int, idx []int32, val []float64) ([]int32, []float64) {
		ri, rv := X.Row(i)
		return append(idx, ri...), append(val, rv...)
	}}
	post, err := presence(src)
	if err != nil {
		t.Fatal(err)
	}
	classes := multiClasses(sets, 2)
	top := perClassTop(post, classes, Selection{Method: Chi2, K: 4}, nil)
	for c := range 2 {
		scores := make([]float64, 4)
		for j := range 4 {
			var a, df, nc float64
			for i, r := range rows {
				in := slices.Contains(sets[i], int32(c))
				nc += float64(tally.BoolInt(in))
				if r[j] > 0 {
					df++
					a += float64(tally.BoolInt(in))
				}
			}
			scores[j] = tableScore(Chi2, a, df-a, nc-a, 5-df-nc+a)
		}
		want := []int32{0, 1, 2, 3}
		slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(scores[b], scores[a]) })
		if !slices.Equal(top[c], want) {
			t.Errorf("class %d: %v, want %v (scores %v)", c, top[c], want, scores)
		}
	}
}

func TestSelectionModel(t *testing.T) {
	m, s := train(t, Config{Select: Selection{Method: Chi2, K: 500}}, newsTrain)
	if s.Features != 500 || m.NumFeatures() != 500 || m.vocab.Len() != 500 {
		t.Errorf("%d features, model %d, vocabulary %d", s.Features, m.NumFeatures(), m.vocab.Len())
	}
	back, err := decode(testkit.Encode(t, m))
	if err != nil {
		t.Fatal(err)
	}
	if back.Config.Select != m.Config.Select {
		t.Errorf("decoded selection %+v", back.Config.Select)
	}
	if r := evaluate(t, m, newsTest); r.Accuracy < 0.7 {
		t.Errorf("accuracy %v with 500 chi2 terms", r.Accuracy)
	}
	for _, cfg := range []Config{
		{Select: Selection{Method: Chi2}},
		{Select: Selection{Method: 7, K: 3}},
		{Select: Selection{Method: Chi2, K: 3}, Vectorizer: Hash},
	} {
		if _, err := NewTrainer(cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: %v, want ErrConfig", cfg.Select, err)
		}
	}
}

// The weight tables behind chi2's scores match a count over the rows.
func TestWeightTopMatchesBruteForce(t *testing.T) {
	rows := [][]float64{{1, 0, 2, 0}, {0, 1, 1, 0}, {1, 1, 0, 0}, {0, 0, 1, 3}, {1, 0, 0, 1}}
	sets := [][]int32{{0}, {1}, {0, 1}, {}, {1}}
	X := vectorize.FromDense(rows)
	src := termSource{features: 4, rows: 5, df: []int64{3, 2, 3, 2}, row: func(i int, idx []int32, val []float64) ([]int32, []float64) {
		ri, rv := X.Row(i)
		return append(idx, ri...), append(val, rv...)
	}}
	top := weightTop(src, multiClasses(sets, 2), 4, nil, nil)
	var total float64
	for _, r := range rows {
		for _, v := range r {
			total += v
		}
	}
	for c := range 2 {
		scores := make([]float64, 4)
		var inClass float64
		for i, r := range rows {
			if slices.Contains(sets[i], int32(c)) {
				for _, v := range r {
					inClass += v
				}
			}
		}
		for j := range 4 {
			var a, all float64
			for i, r := range rows {
				all += r[j]
				if slices.Contains(sets[i], int32(c)) {
					a += r[j]
				}
			}
			scores[j] = float64(float32(tableScore(Chi2, a, all-a, inClass-a, total-inClass-(all-a))))
		}
		want := []int32{0, 1, 2, 3}
		slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(scores[b], scores[a]) })
		if !slices.Equal(top[c], want) {
			t.Errorf("class %d: %v, want %v (scores %v)", c, top[c], want, scores)
		}
	}
}
