package multilabel

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/hostile"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/vectorize"
)

// reweightedDense is the reference for reweighted and fit: dense L×F rests
// grown pass by pass by the formula of reweighted, and the complement
// weights of the last one.
func reweightedDense(X [][]float64, sets [][]int32, L int, alpha float64, passes int, rate float64) [][]float64 {
	F := len(X[0])
	rest := make([][]float64, L)
	for l := range rest {
		rest[l] = make([]float64, F)
		for i, x := range X {
			if !slices.Contains(sets[i], int32(l)) {
				for j, v := range x {
					rest[l][j] += v
				}
			}
		}
	}
	gain := make([][]float64, len(X)) // per document and label
	for i := range gain {
		gain[i] = make([]float64, L)
	}
	weights := func() [][]float64 {
		W := make([][]float64, L)
		for l := range W {
			R := 0.0
			for j := range F {
				R += rest[l][j]
				for i, x := range X {
					R += gain[i][l] * x[j]
				}
			}
			W[l] = make([]float64, F)
			for j := range F {
				r := rest[l][j]
				for i, x := range X {
					r += gain[i][l] * x[j]
				}
				W[l][j] = math.Log(R+alpha*float64(F)) - math.Log(r+alpha)
			}
		}
		return W
	}
	for range passes {
		W := weights()
		for i, x := range X {
			s := make([]float64, L)
			for l := range L {
				for j, v := range x {
					s[l] += v * W[l][j]
				}
			}
			top := slices.Max(s)
			sum := 0.0
			for _, v := range s {
				sum += math.Exp(v - top)
			}
			for l, v := range s {
				if e := math.Exp(v-top)/sum - 1/float64(L); e > 0 && !slices.Contains(sets[i], int32(l)) {
					gain[i][l] += rate * e
				}
			}
		}
	}
	return weights()
}

// reweightX and reweightSets are a corpus of three labels for the
// reference comparisons.
var (
	reweightX    = [][]float64{{2, 0, 1, 0}, {0, 3, 1, 0}, {1, 1, 0, 0}, {0, 0, 2, 1}, {1, 0, 0, 3}, {0, 2, 0, 1}}
	reweightSets = [][]int32{{0}, {1}, {0, 1}, {}, {2}, {1, 2}}
)

// checkWeights compares lin's weights with the reference's.
func checkWeights(t *testing.T, what string, lin *compact.Linear, want [][]float64) {
	t.Helper()
	got := lin.Dense()
	for l, w := range want {
		for j := range w {
			if g := got.W[j*len(want)+l] + got.Bias[l]; math.Abs(g-w[j]) > 1e-9 {
				t.Errorf("%s: weight of label %d, feature %d = %.12g, want %.12g", what, l, j, g, w[j])
			}
		}
	}
}

// Reweighting's sparse sums and merged cells give the dense reference's
// weights, pass for pass.
func TestReweightedWeights(t *testing.T) {
	X, sets := reweightX, reweightSets
	const alpha = 0.5
	for _, set := range []setting{{alpha, 1, 20}, {alpha, 3, 40}, {alpha, 10, 20}, {alpha, 10, 40}} {
		passes := set.passes
		f := newOvRFit(vectorize.FromDense(X), sets, 3, Config{Reweight: passes})
		c, _, err := f.reweighted(f.all, func(int) bool { return true }, set)
		if err != nil {
			t.Fatal(err)
		}
		if c.extra == nil || len(c.extra.Count) == 0 {
			t.Fatalf("%d passes: no rest gained", passes)
		}
		lin, err := f.fit(c, alpha)
		if err != nil {
			t.Fatal(err)
		}
		checkWeights(t, fmt.Sprintf("%d passes at rate %g", passes, set.rate), lin, reweightedDense(X, sets, 3, alpha, passes, set.rate))
	}
}

// With documents in part only, reweighting sees only those.
func TestReweightedPart(t *testing.T) {
	X, sets := reweightX, reweightSets
	in := func(i int) bool { return i != 2 }
	f := newOvRFit(vectorize.FromDense(X), sets, 3, Config{Reweight: 4})
	c, _, err := f.reweighted(f.counts(in), in, setting{1, 4, 20})
	if err != nil {
		t.Fatal(err)
	}
	lin, err := f.fit(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	checkWeights(t, "without document 2", lin, reweightedDense(slices.Delete(slices.Clone(X), 2, 3), slices.Delete(slices.Clone(sets), 2, 3), 3, 1, 4, 20))
}

func TestReweightSetting(t *testing.T) {
	docs := readMultiDocs(t, multiJSONL)
	plain, _ := trainMulti(t, pipeline.Config{}, Config{Reweight: -1}, docs)
	mm, _ := trainMulti(t, pipeline.Config{}, Config{Reweight: DefaultReweight}, docs)
	if plain.Multi.Reweight != -1 || mm.Multi.Reweight != DefaultReweight {
		t.Fatalf("reweighting passes %d and %d, want -1 and %d", plain.Multi.Reweight, mm.Multi.Reweight, DefaultReweight)
	}
	if !slices.Contains(PlainAlphas, plain.Config.Alpha) {
		t.Errorf("unweighted model's α %g, want one of %v", plain.Config.Alpha, PlainAlphas)
	}
	// The file records the passes; one written before the setting existed
	// was not reweighted.
	back, err := decode(testkit.Encode(t, mm))
	if err != nil || back.Multi.Reweight != DefaultReweight {
		t.Fatalf("reloaded: %v, %d passes", err, back.Multi.Reweight)
	}
	old, err := decode(hostile.EditHeader(t, testkit.Encode(t, plain), func(h map[string]any) { delete(h["multi"].(map[string]any), "reweight") }))
	if err != nil || old.Multi.Reweight != -1 {
		t.Errorf("a file without a reweight setting: %v, %d passes, want -1", err, old.Multi.Reweight)
	}
	for _, bad := range []any{0, maxReweight + 1} {
		_, err := decode(hostile.EditHeader(t, testkit.Encode(t, mm), func(h map[string]any) { h["multi"].(map[string]any)["reweight"] = bad }))
		if err == nil {
			t.Errorf("reweight %v in the header: no error", bad)
		}
	}
	// The rate: recorded; a reweighted file without one was written when
	// the rate was 20; a rate without passes, or out of range, is damage.
	if mm.Multi.ReweightRate != 20 && mm.Multi.ReweightRate != 40 || back.Multi.ReweightRate != mm.Multi.ReweightRate || plain.Multi.ReweightRate != 0 {
		t.Errorf("rates %g (reloaded %g) and %g for no reweighting", mm.Multi.ReweightRate, back.Multi.ReweightRate, plain.Multi.ReweightRate)
	}
	legacy, err := decode(hostile.EditHeader(t, testkit.Encode(t, mm), func(h map[string]any) { delete(h["multi"].(map[string]any), "reweight_rate") }))
	if err != nil || legacy.Multi.ReweightRate != legacyRate {
		t.Errorf("a reweighted file without a rate: %v, rate %g, want %d", err, legacy.Multi.ReweightRate, legacyRate)
	}
	for _, c := range []struct {
		model *Model
		rate  any
	}{{plain, 20}, {mm, -1}, {mm, maxReweightRate + 1}, {mm, "NaN"}} {
		_, err := decode(hostile.EditHeader(t, testkit.Encode(t, c.model), func(h map[string]any) { h["multi"].(map[string]any)["reweight_rate"] = c.rate }))
		if !errors.Is(err, pipeline.ErrDamaged) {
			t.Errorf("rate %v with %d passes in the header: %v, want ErrDamaged", c.rate, c.model.Multi.Reweight, err)
		}
	}
}

// Given passes, the cross-validation chooses the rate as it chooses α:
// the model is the one of the rate it reports, fixed, whose micro-F1 is
// the best, the first offered on a tie. The default offers one rate; the
// test offers two in both orders. On the small test corpus their
// thresholds tie, so each order must choose its first.
func TestReweightRateChoice(t *testing.T) {
	defer func(r []float64) { ReweightRates = r }(ReweightRates)
	docs := readMultiDocs(t, multiJSONL)
	chosen := map[float64]bool{}
	for _, rates := range [][]float64{{20, 40}, {40, 20}} {
		ReweightRates = rates
		for seed := range uint64(3) {
			mm, s := trainMulti(t, pipeline.Config{}, Config{Seed: seed, Reweight: DefaultReweight}, docs)
			fixed, fs := trainMulti(t, pipeline.Config{}, Config{Seed: seed, Reweight: DefaultReweight, ReweightRate: s.ReweightRate}, docs)
			other := rates[0]
			if s.ReweightRate == other {
				other = rates[1]
			}
			_, rs := trainMulti(t, pipeline.Config{}, Config{Seed: seed, Reweight: DefaultReweight, ReweightRate: other}, docs)
			if !bytes.Equal(testkit.Encode(t, mm), testkit.Encode(t, fixed)) || mm.Multi.ReweightRate != s.ReweightRate ||
				fs.CVMicroF1 != s.CVMicroF1 || rs.CVMicroF1 > s.CVMicroF1 || rs.CVMicroF1 == s.CVMicroF1 && s.ReweightRate != rates[0] {
				t.Errorf("rates %v, seed %d: rate %g chosen (micro-F1 %g), fixed it gives %g; rate %g gives %g", rates, seed, s.ReweightRate, s.CVMicroF1, fs.CVMicroF1, other, rs.CVMicroF1)
			}
			chosen[s.ReweightRate] = true
		}
	}
	if len(chosen) != 2 {
		t.Errorf("only the rates %v were chosen; the test needs each", chosen)
	}
}

// Automatic reweighting makes the model of the choice, plain counts or
// reweighting, whose cross-validated micro-F1 is higher (plain on a tie),
// and reports the other's. The fold seeds 0, 1 and 2 make plain win,
// tie and lose on the test corpus.
func TestReweightAuto(t *testing.T) {
	docs := readMultiDocs(t, multiJSONL)
	chosen := map[int]bool{}
	for seed := range uint64(3) {
		auto, as := trainMulti(t, pipeline.Config{}, Config{Seed: seed}, docs)
		plain, ps := trainMulti(t, pipeline.Config{}, Config{Seed: seed, Reweight: -1}, docs)
		rw, rs := trainMulti(t, pipeline.Config{}, Config{Seed: seed, Reweight: DefaultReweight}, docs)
		want, ws, other := plain, ps, rs.CVMicroF1
		if rs.CVMicroF1 > ps.CVMicroF1 {
			want, ws, other = rw, rs, ps.CVMicroF1
		}
		if !bytes.Equal(testkit.Encode(t, auto), testkit.Encode(t, want)) {
			t.Errorf("seed %d: automatic model (%d passes) differs from the one chosen (%d passes)", seed, as.Reweight, ws.Reweight)
		}
		if as.Reweight != ws.Reweight || as.Alpha != ws.Alpha || as.CVMicroF1 != ws.CVMicroF1 || as.OtherCVMicroF1 != other {
			t.Errorf("seed %d: summary %+v, want %d passes, α %g, micro-F1 %g against %g", seed, as, ws.Reweight, ws.Alpha, ws.CVMicroF1, other)
		}
		chosen[as.Reweight] = true
	}
	if !chosen[0] || !chosen[DefaultReweight] {
		t.Errorf("the seeds chose only %v passes; the test needs both choices", chosen)
	}
}
