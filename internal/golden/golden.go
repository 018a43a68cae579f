package golden

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// File is the golden file.
type File struct {
	Cases      []Case       `json:"cases"`
	PriorShift PriorShift   `json:"prior_shift_known"`
	Murmur     []Murmur     `json:"murmurhash3_32"`
	Hashing    [][2]float64 `json:"hashing_2p20_alternate_sign"`
}

// Case is one fitted scikit-learn estimator or transformer: its inputs and
// the outputs it gave. Fields a case does not have are zero.
type Case struct {
	Name     string         `json:"name"`
	Model    string         `json:"model"`
	Params   map[string]any `json:"params"`
	XTrain   [][]float64    `json:"X_train"`
	YTrain   []int          `json:"y_train"`
	XQuery   [][]float64    `json:"X_query"`
	Classes  []int          `json:"classes"`
	JLL      [][]float64    `json:"joint_log_likelihood"`
	LogProba [][]float64    `json:"predict_log_proba"`
	Proba    [][]float64    `json:"predict_proba"`
	Predict  []int          `json:"predict"`
	// FeatureLogProb is 2-D, except for CategoricalNB (one 2-D table per
	// feature), so it is left to the test to decode.
	FeatureLogProb json.RawMessage `json:"feature_log_prob_"`
	ClassLogPrior  []float64       `json:"class_log_prior_"`
	Theta          [][]float64     `json:"theta_"`
	Var            [][]float64     `json:"var_"`
	ClassPrior     []float64       `json:"class_prior_"`
	Epsilon        float64         `json:"epsilon_"`
	IDF            []float64       `json:"idf_"`
	Transform      [][]float64     `json:"transform"`
}

// PriorShift is a prior correction with known new priors.
type PriorShift struct {
	Posteriors  [][]float64 `json:"posteriors"`
	TrainPriors []float64   `json:"train_priors"`
	NewPriors   []float64   `json:"new_priors"`
	Adjusted    [][]float64 `json:"adjusted"`
}

// Murmur is scikit-learn's murmurhash3_32 of a token, seed 0.
type Murmur struct {
	Token    string `json:"token"`
	Signed   int32  `json:"signed"`
	Unsigned uint32 `json:"unsigned"`
}

// Read reads the golden file of the module this package belongs to.
func Read() (*File, error) {
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		return nil, fmt.Errorf("golden: cannot locate the source tree")
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "testdata", "golden", "sklearn_nb.json"))
	if err != nil {
		return nil, err
	}
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("golden: %w", err)
	}
	return &f, nil
}

// Load is Read that fails t on an error.
func Load(t testing.TB) *File {
	t.Helper()
	f, err := Read()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Find returns the case called name.
func (f *File) Find(name string) (Case, bool) {
	for _, c := range f.Cases {
		if c.Name == name {
			return c, true
		}
	}
	return Case{}, false
}

// Named returns the case called name, failing t if there is none.
func Named(t testing.TB, name string) Case {
	t.Helper()
	c, ok := Load(t).Find(name)
	if !ok {
		t.Fatalf("golden case %q not found", name)
	}
	return c
}

// Close fails t unless got and want have the same length and agree to tol
// at every index, NaN only where NaN is wanted.
func Close(t testing.TB, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range want {
		if math.IsNaN(got[i]) != math.IsNaN(want[i]) || math.Abs(got[i]-want[i]) > tol {
			t.Fatalf("%s[%d] = %.17g, want %.17g", what, i, got[i], want[i])
		}
	}
}
