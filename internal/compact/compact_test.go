package compact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/vectorize"
)

// cpFit fits a Multinomial compact model on the example documents.
func cpFit(t testing.TB) *Linear {
	s, err := count(exampleX, exampleY, 2, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	lin, err := Fit(&nb.Multinomial{}, s)
	if err != nil {
		t.Fatal(err)
	}
	return lin
}

// Columns beyond the model are ignored, as by Linear; explicit zeros add
// nothing.
func TestCompactIgnoresUnknownColumns(t *testing.T) {
	lin := cpFit(t)
	want := lin.JointLogLikelihood(nil, []int32{1}, []float64{2})
	got := lin.JointLogLikelihood(nil, []int32{0, 1, 4, 900}, []float64{0, 2, 5, 1})
	if !slices.Equal(got, want) {
		t.Fatalf("jll with unknown columns %v, want %v", got, want)
	}
	dense := lin.Dense().JointLogLikelihood(nil, []int32{0, 1, 4, 900}, []float64{0, 2, 5, 1})
	for c := range want {
		if math.Abs(dense[c]-want[c]) > 1e-12 {
			t.Fatalf("dense expansion scores %v, compact %v", dense, want)
		}
	}
	// dst is appended to and not disturbed.
	out := lin.JointLogLikelihood([]float64{7}, []int32{1}, []float64{2})
	if len(out) != 3 || out[0] != 7 || out[1] != want[0] || out[2] != want[1] {
		t.Fatalf("appended %v to [7], want [7 %v]", out, want)
	}
}

// Malformed models and rows score NaN instead of panicking, and Validate
// names the problem.
func TestCompactMalformedScoresNaN(t *testing.T) {
	for name, bad := range map[string]func(*Linear){
		"rowlen":   func(*Linear) {},
		"k":        func(l *Linear) { l.K = 3 },
		"ptrLen":   func(l *Linear) { l.Ptr = l.Ptr[:2] },
		"ptrRange": func(l *Linear) { l.Ptr[1] = 99 },
		"ptrOrder": func(l *Linear) { l.Ptr[1] = -1 },
		"class":    func(l *Linear) { l.Class[0] = 2 },
		"base":     func(l *Linear) { l.Base = []float64{1} },
	} {
		lin := cpFit(t)
		lin.Ptr, lin.Class = slices.Clone(lin.Ptr), slices.Clone(lin.Class)
		bad(lin)
		val := []float64{1, 1}
		if name == "rowlen" {
			val = val[:1]
		} else if lin.Validate() == nil || lin.Dense() != nil {
			t.Errorf("%s: malformed model validates", name)
		}
		jll := lin.JointLogLikelihood(nil, []int32{0, 1}, val)
		if len(jll) == 0 || !slices.ContainsFunc(jll, math.IsNaN) {
			t.Errorf("%s: scores %v, want NaN", name, jll)
		}
	}
	if err := cpFit(t).Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestFitTakesTextModels(t *testing.T) {
	s, err := count(exampleX, exampleY, 2, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []nb.Estimator{&nb.Multinomial{}, &nb.Complement{}, &nb.Bernoulli{NoBinarize: true}} {
		if _, err := Fit(m, s); err != nil && !strings.Contains(err.Error(), "not 0/1") {
			t.Errorf("%T: %v", m, err)
		}
	}
	var _ nb.Model = (*Linear)(nil)
	var _ nb.Model = (*Scorer)(nil)
	var _ nb.Model = (*Dense)(nil)
}

func ExampleCounts() {
	// Only the non-zero class-feature counts are stored, per feature.
	s, err := count(exampleX, exampleY, 2, false, 0)
	if err != nil {
		fmt.Println(err)
	}
	fmt.Println(s.NNZ(), s.Ptr, s.Class, s.Count)

	// More documents: count them separately and merge.
	more, err := count(vectorize.FromDense([][]float64{{0, 0, 0, 0, 1}}), []int{0}, 2, false, 0)
	if err != nil {
		fmt.Println(err)
	}
	if s, err = s.Remap(5, []int32{0, 1, 2, 3}); err != nil { // grow the vocabulary first
		fmt.Println(err)
	}
	if s, err = Merge(s, more); err != nil {
		fmt.Println(err)
	}
	fmt.Println(s.ClassCount, s.Dense().FeatureCount)
	// Output:
	// 6 [0 1 3 4 6] [0 0 1 1 0 1] [3 3 1 6 1 4]
	// [3 3] [3 3 0 1 1 0 1 6 4 0]
}

func ExampleLinear() {
	s, err := count(exampleX, exampleY, 2, false, 0)
	if err != nil {
		fmt.Println(err)
	}
	lin, err := Fit(&nb.Multinomial{}, s)
	if err != nil {
		fmt.Println(err)
	}
	jll := lin.JointLogLikelihood(nil, []int32{0, 1}, []float64{1, 1}) // "ball goal"
	fmt.Printf("class %d, P = %.3f\n", nb.Argmax(jll), nb.Proba(nil, jll))
	// The weight of an unseen (class, feature) pair is Q[c]: log α − log S_c.
	fmt.Printf("%d cells, Q = %.3f\n", len(lin.Delta), lin.Q)
	// Output:
	// class 0, P = [0.976 0.024]
	// 6 cells, Q = [-3.308 -3.705]
}

func ExampleFit() {
	for _, est := range []nb.Estimator{&nb.Multinomial{}, &nb.Complement{Norm: true}, &nb.Bernoulli{}} {
		s, err := Count(est, exampleX, exampleY, 2) // binarized for Bernoulli
		if err != nil {
			fmt.Println(err)
		}
		lin, err := Fit(est, s)
		if err != nil {
			fmt.Println(err)
		}
		fmt.Printf("%T %v\n", est, nb.PredictCSR(lin, exampleX, 1))
	}
	// Output:
	// *nb.Multinomial [0 0 1 1 1]
	// *nb.Complement [0 0 1 1 1]
	// *nb.Bernoulli [0 0 1 1 1]
}

// cpData is a synthetic 20 Newsgroups-sized bigram corpus: 20 classes,
// 400,000 features, about 1.5M non-zeros. A fifth of the terms follow one
// Zipf law shared by all classes, the others a Zipf law over the class's own
// slice of the vocabulary, so most features occur in one to three classes.
type cpData struct {
	X, Query *vectorize.CSR
	y        []int
}

const cpK, cpF = 20, 400_000

var cpSynthetic = sync.OnceValue(func() cpData {
	r := rand.New(rand.NewPCG(31, 32))
	shared := rand.NewZipf(r, 1.1, 2, cpF-1)
	own := rand.NewZipf(r, 1.05, 2, cpF/cpK-1)
	gen := func(rows int) (*vectorize.CSR, []int) {
		X, y := vectorize.NewCSR(cpF), make([]int, rows)
		dense := make([]float64, cpF)
		var idx []int32
		var val []float64
		for i := range y {
			y[i] = r.IntN(cpK)
			idx, val = idx[:0], val[:0]
			for range 180 {
				j := int(shared.Uint64())
				if r.IntN(5) != 0 {
					j = y[i]*(cpF/cpK) + int(own.Uint64())
				}
				if dense[j] == 0 {
					idx = append(idx, int32(j))
				}
				dense[j]++
			}
			slices.Sort(idx)
			for _, j := range idx {
				val = append(val, dense[j])
				dense[j] = 0
			}
			X.AppendRow(idx, val)
		}
		return X, y
	}
	var d cpData
	d.X, d.y = gen(11_000)
	d.Query, _ = gen(1_000)
	return d
})

// cpEstimators are the models the benchmarks fit.
func cpEstimators() map[string]nb.Estimator {
	return map[string]nb.Estimator{
		"Multinomial":    &nb.Multinomial{},
		"Complement":     &nb.Complement{},
		"ComplementNorm": &nb.Complement{Norm: true},
		"Bernoulli":      &nb.Bernoulli{},
	}
}

func BenchmarkCount(b *testing.B) {
	d := cpSynthetic()
	b.ReportAllocs()
	var s *Counts
	for b.Loop() {
		var err error
		if s, err = count(d.X, d.y, cpK, false, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(d.X.NNZ()), "nnz")
	b.ReportMetric(float64(s.NNZ()), "cells")
}

// BenchmarkDenseCountsAdd is the dense counterpart of count.
func BenchmarkDenseCountsAdd(b *testing.B) {
	d := cpSynthetic()
	b.ReportAllocs()
	for b.Loop() {
		if err := nb.NewCounts(nil, cpK, cpF).Add(d.X, d.y, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFitCompact(b *testing.B) {
	d := cpSynthetic()
	for name, est := range cpEstimators() {
		s, err := Count(est, d.X, d.y, cpK)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Fit(est, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFitDense fits the dense models from dense counts.
func BenchmarkFitDense(b *testing.B) {
	d := cpSynthetic()
	for name, est := range cpEstimators() {
		c := nb.NewCounts(est, cpK, cpF)
		if err := c.Add(d.X, d.y, nil); err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := est.Fit(c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompactJointLogLikelihood scores 1,000 documents with the scorer,
// the compact and the dense form of one Complement model.
func BenchmarkCompactJointLogLikelihood(b *testing.B) {
	d := cpSynthetic()
	s, err := count(d.X, d.y, cpK, false, 0)
	if err != nil {
		b.Fatal(err)
	}
	est := &nb.Complement{Norm: true} // P ≠ 0: the compact form's slowest path
	lin, err := Fit(est, s)
	if err != nil {
		b.Fatal(err)
	}
	sc, err := lin.Scorer()
	if err != nil {
		b.Fatal(err)
	}
	for name, m := range map[string]nb.Model{"Scorer": sc, "Compact": lin, "Linear": lin.Dense()} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var buf []float64
			for b.Loop() {
				for i := range d.Query.Rows {
					idx, val := d.Query.Row(i)
					buf = m.JointLogLikelihood(buf[:0], idx, val)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*d.Query.Rows), "ns/doc")
		})
	}
}

func ExampleRowFunc() {
	// Rows computed on the fly: document i of each class has its own
	// feature twice and feature 2 once, and no matrix is built.
	y := []int{0, 1, 0}
	var row RowFunc = func(i int, idx []int32, val []float64) ([]int32, []float64) {
		return append(idx, int32(y[i]), 2), append(val, 2, 1)
	}
	s, err := countRows(3, y, 2, false, 0, row)
	if err != nil {
		fmt.Println(err)
	}
	fmt.Println(s.ClassCount, s.Dense().FeatureCount)
	// Output:
	// [2 1] [4 0 2 0 2 1]
}
