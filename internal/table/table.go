package table

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/textnb/textnb/internal/densenb"

	"github.com/textnb/textnb/internal/discretize"
	"github.com/textnb/textnb/internal/enum"
	"github.com/textnb/textnb/internal/finite"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/nb"
)

var (
	// ErrColumns: a table lacks a column the model was trained on.
	ErrColumns = errors.New("table: missing feature column")
	// ErrOverflow: a row is so far from the training data (|x| near 1e154
	// for Gaussian NB) that every class scores −Inf.
	ErrOverflow = errors.New("table: the row's scores overflow")
)

// Kind names a naive Bayes model for numeric tables.
type Kind uint8

// The table models. The zero value, Gaussian, models every column as normal
// within a class; Categorical counts category ids.
const (
	Gaussian Kind = iota
	Categorical
)

var kindNames = [...]string{"gaussian", "categorical"}

func (k Kind) String() string { return enum.String(kindNames[:], int(k)) }

// MarshalText writes the kind's name, so model files stay readable.
func (k Kind) MarshalText() ([]byte, error) {
	if int(k) >= len(kindNames) {
		return nil, fmt.Errorf("%w: table kind %d", pipeline.ErrConfig, k)
	}
	return []byte(k.String()), nil
}

// UnmarshalText reads a kind's name, "gaussian" or "categorical", in any
// case; what names neither is ErrConfig.
func (k *Kind) UnmarshalText(b []byte) error {
	i, err := enum.Parse(pipeline.ErrConfig, "table model", kindNames[:], string(b))
	*k = Kind(i)
	return err
}

// maxDirect bounds the category ids a Categorical column may use as they
// are, so that one large integer cannot blow up the count table.
const maxDirect = 1024

// Config holds the settings of a table model. Its zero value is
// Gaussian NB with scikit-learn's defaults.
type Config struct {
	Kind Kind
	// Bins is the number of quantile bins per continuous column of a
	// Categorical model; 0 means 5.
	Bins int
	// Alpha is Categorical's additive smoothing; 0 means
	// densenb.DefaultCategoricalAlpha (1).
	Alpha float64
	// VarSmoothing is Gaussian's variance floor; 0 means
	// densenb.DefaultVarSmoothing.
	VarSmoothing float64
}

// Table is a trained naive Bayes model over the numeric columns of a table.
//
// A Categorical model uses a column as category ids as they are when its
// training values are non-negative integers below 1024 with no more distinct
// values than Bins (a coded category such as 0/1/2 must not be merged by
// binning); every other column is cut into quantile bins fitted on the
// training table. At prediction a value of a direct column that is not one
// of its ids scores as an unseen category; a value outside a binned
// column's training range falls into its first or last bin.
type Table struct {
	Kind        Kind                 `json:"kind"`
	Features    []string             `json:"features"` // column names, in model order
	Classes     []string             `json:"classes"`
	Gaussian    *densenb.Gaussian    `json:"gaussian,omitempty"`
	Categorical *densenb.Categorical `json:"categorical,omitempty"`
	// Direct marks the Categorical columns used as category ids unbinned.
	Direct []bool `json:"direct,omitempty"`
	// LabelField names the training table's label column when it was not
	// "label", so that eval reads the same; older builds ignore it.
	LabelField string `json:"label_field,omitempty"`

	bins *discretize.Discretizer // Categorical's bin edges of every column
}

// tableFile is a Table as its model file holds it, the bin edges included.
type tableFile struct {
	Kind        Kind                    `json:"kind"`
	Features    []string                `json:"features"`
	Classes     []string                `json:"classes"`
	Gaussian    *densenb.Gaussian       `json:"gaussian,omitempty"`
	Categorical *densenb.Categorical    `json:"categorical,omitempty"`
	Discretizer *discretize.Discretizer `json:"discretizer,omitempty"`
	Direct      []bool                  `json:"direct,omitempty"`
	LabelField  string                  `json:"label_field,omitempty"`
}

// MarshalJSON writes m as its model file holds it.
func (m Table) MarshalJSON() ([]byte, error) {
	return json.Marshal(tableFile{m.Kind, m.Features, m.Classes, m.Gaussian, m.Categorical, m.bins, m.Direct, m.LabelField})
}

// UnmarshalJSON reads m as MarshalJSON writes it.
func (m *Table) UnmarshalJSON(b []byte) error {
	var f tableFile
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*m = Table{f.Kind, f.Features, f.Classes, f.Gaussian, f.Categorical, f.Direct, f.LabelField, f.Discretizer}
	return nil
}

// Train fits a table model on every row of t. Classes are numbered in
// the order they first appear.
func Train(t Data, cfg Config) (*Table, error) {
	if len(t.Labels) == 0 || len(t.Features) != len(t.Labels) {
		return nil, pipeline.ErrNoDocuments
	}
	if len(t.Header) == 0 {
		return nil, fmt.Errorf("%w: the table has no feature columns besides the label", pipeline.ErrConfig)
	}
	m := &Table{Kind: cfg.Kind, Features: append([]string(nil), t.Header...)}
	index := map[string]int{}
	y := make([]int, len(t.Labels))
	for i, l := range t.Labels {
		c, ok := index[l]
		if !ok {
			c = len(m.Classes)
			index[l] = c
			m.Classes = append(m.Classes, l)
		}
		y[i] = c
	}
	if len(m.Classes) < 2 {
		return nil, fmt.Errorf("%w: every row is labeled %q", pipeline.ErrOneClass, m.Classes[0])
	}
	var err error
	switch cfg.Kind {
	case Gaussian:
		m.Gaussian = &densenb.Gaussian{VarSmoothing: cfg.VarSmoothing}
		err = m.Gaussian.Fit(t.Features, y, len(m.Classes))
	case Categorical:
		err = m.fitCategorical(t.Features, y, cfg)
	default:
		err = fmt.Errorf("%w: unknown table model %v", pipeline.ErrConfig, cfg.Kind)
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

func (m *Table) fitCategorical(X [][]float64, y []int, cfg Config) error {
	m.bins = &discretize.Discretizer{Bins: cfg.Bins}
	if err := m.bins.Fit(X); err != nil {
		return err
	}
	m.Direct = directColumns(X, m.bins.Bins)
	minCat := make([]int, len(m.Features))
	for j, direct := range m.Direct {
		if !direct {
			minCat[j] = m.bins.NBins[j]
		}
	}
	ids := make([][]int, len(X))
	flat := make([]int, 0, len(X)*len(m.Features))
	for i, x := range X {
		n := len(flat)
		flat = m.categories(flat, x)
		ids[i] = flat[n:len(flat):len(flat)]
	}
	m.Categorical = &densenb.Categorical{Alpha: cfg.Alpha, MinCategories: minCat}
	if err := m.Categorical.Fit(ids, y, len(m.Classes)); err != nil {
		return err
	}
	return finite.Weights(pipeline.ErrConfig, m.Categorical.Alpha, m.Categorical.FeatureLogProb...)
}

// directColumns reports which columns hold few small non-negative integers.
func directColumns(X [][]float64, bins int) []bool {
	if bins == 0 {
		bins = discretize.DefaultBins
	}
	direct := make([]bool, len(X[0]))
	seen := map[float64]bool{}
	for j := range direct {
		clear(seen)
		direct[j] = true
		for _, x := range X {
			v := x[j]
			if v < 0 || v >= maxDirect || v != math.Trunc(v) {
				direct[j] = false
				break
			}
			if seen[v] = true; len(seen) > bins {
				direct[j] = false
				break
			}
		}
	}
	return direct
}

// categories appends the Categorical ids of row x to dst. A direct
// column's value that is not a known id maps to the unseen category.
func (m *Table) categories(dst []int, x []float64) []int {
	n := len(dst)
	dst = m.bins.Transform(dst, x)
	for j, direct := range m.Direct {
		if !direct {
			continue
		}
		v := x[j]
		unseen := maxDirect
		if m.Categorical != nil && j < len(m.Categorical.NCategories) {
			unseen = m.Categorical.NCategories[j]
		}
		if v >= 0 && v < float64(unseen) && v == math.Trunc(v) {
			dst[n+j] = int(v)
		} else {
			dst[n+j] = unseen
		}
	}
	return dst
}

// Proba appends the class probabilities of the row x (one value per
// Features column, in that order) to dst and returns them with the index of
// the most probable class (ties: the first class).
func (m *Table) Proba(dst, x []float64) ([]float64, int, error) {
	if len(x) != len(m.Features) {
		return dst, 0, fmt.Errorf("%w: a row of %d values for a model of %d columns", pipeline.ErrConfig, len(x), len(m.Features))
	}
	n := len(dst)
	switch {
	case m.Gaussian != nil:
		dst = m.Gaussian.JointLogLikelihoodDense(dst, x)
	case m.Categorical != nil:
		var buf [32]int
		dst = m.Categorical.JointLogLikelihoodInt(dst, m.categories(buf[:0], x))
	}
	jll := dst[n:]
	if len(jll) != len(m.Classes) {
		return dst[:n], 0, fmt.Errorf("%w: the model has no classifier", modelfile.ErrFormat)
	}
	best := nb.Argmax(jll)
	dst = nb.Proba(dst[:n], jll)                  // in place: each score is read before it is overwritten
	if slices.ContainsFunc(dst[n:], math.IsNaN) { // exactly when the scores' logsumexp is not finite
		return dst[:n], 0, fmt.Errorf("%w: %v", ErrOverflow, x)
	}
	return dst, best, nil
}

// TrainingPriors returns the class frequencies of the training rows, the
// priors that the posteriors assume.
func (m *Table) TrainingPriors() []float64 {
	if m.Gaussian != nil {
		return append([]float64(nil), m.Gaussian.ClassPrior...)
	}
	p := make([]float64, len(m.Classes))
	if m.Categorical != nil && len(m.Categorical.ClassLogPrior) == len(p) {
		for c, lp := range m.Categorical.ClassLogPrior {
			p[c] = math.Exp(lp)
		}
	}
	return p
}

// WriteTo writes the model file to w: the container header, the model as
// JSON and the checksum.
func (m *Table) WriteTo(w io.Writer) (int64, error) {
	js, err := json.Marshal(m)
	if err != nil {
		return 0, err
	}
	cw := modelfile.NewWriter(w, modelfile.TableModel)
	cw.Put(js)
	return cw.Close()
}

// Load reads a table model file.
func Load(path string) (*Table, error) { return modelfile.Load(path, Decode) }

// Decode reads a table model from the bytes of a model file.
func Decode(data []byte) (*Table, error) {
	payload, err := modelfile.OpenKind(data, modelfile.TableModel)
	if err != nil {
		return nil, err
	}
	return decodeTable(payload)
}

// decodeTable reads a table model from a checked container's payload.
func decodeTable(payload []byte) (*Table, error) {
	m := new(Table)
	if err := json.Unmarshal(payload, m); err != nil {
		return nil, fmt.Errorf("%w: %v", modelfile.ErrDamaged, err)
	}
	if err := m.prepare(); err != nil {
		return nil, fmt.Errorf("%w: %v", modelfile.ErrDamaged, err)
	}
	return m, nil
}

// prepare checks a decoded model and builds its scoring tables: every
// shape against the numbers of classes and features (the lengths of slices
// decoded, so no product of them can allocate beyond the file's size),
// every value as a fit could have left it.
func (m *Table) prepare() error {
	k, f := len(m.Classes), len(m.Features)
	if k < 2 || f == 0 {
		return fmt.Errorf("%d classes, %d features", k, f)
	}
	if err := modelfile.CheckClassNames(m.Classes); err != nil {
		return err
	}
	switch m.Kind {
	case Gaussian:
		g := m.Gaussian
		if g == nil || m.Categorical != nil || m.bins != nil || m.Direct != nil ||
			len(g.ClassCount) != k || len(g.Theta)/f != k || len(g.Theta)%f != 0 {
			return fmt.Errorf("the Gaussian model does not fit %d classes × %d features", k, f)
		}
		return g.Prepare()
	case Categorical:
		c, d := m.Categorical, m.bins
		if c == nil || d == nil || m.Gaussian != nil || len(c.ClassCount) != k || len(c.ClassLogPrior) != k ||
			len(c.NCategories) != f || len(d.Edges) != f || len(d.NBins) != f || len(m.Direct) != f {
			return fmt.Errorf("the Categorical model does not fit %d classes × %d features", k, f)
		}
		if err := checkEdges(d); err != nil {
			return err
		}
		return c.Prepare()
	}
	return fmt.Errorf("unknown table model %v", m.Kind)
}

// checkEdges reports bin edges that no fit gives: fewer than two per
// column, not finite or decreasing, or disagreeing with NBins.
func checkEdges(d *discretize.Discretizer) error {
	for j, e := range d.Edges {
		if len(e) < 2 || d.NBins[j] != len(e)-1 {
			return fmt.Errorf("column %d has %d bin edges for %d bins", j+1, len(e), d.NBins[j])
		}
		for i, v := range e {
			if math.IsNaN(v) || math.IsInf(v, 0) || i > 0 && v < e[i-1] {
				return fmt.Errorf("column %d: bin edge %d is %g, after %g", j+1, i, v, e[max(i-1, 0)])
			}
		}
	}
	return nil
}

// Columns appends to dst, for every feature of m, its index in header, and
// reports the features that header lacks.
func (m *Table) Columns(dst []int, header []string) ([]int, error) {
	at := make(map[string]int, len(header))
	for i, h := range header {
		if _, dup := at[h]; !dup {
			at[h] = i
		}
	}
	var missing []string
	for _, f := range m.Features {
		i, ok := at[f]
		if !ok {
			missing = append(missing, fmt.Sprintf("%q", f))
		}
		dst = append(dst, i)
	}
	if missing != nil {
		s := ""
		if len(missing) > 1 {
			s = "s"
		}
		return dst, fmt.Errorf("%w: no column%s %s, which the model needs", ErrColumns, s, enum.Join(missing))
	}
	return dst, nil
}

// Inspect describes m: its settings, and each class's training rows, prior
// and per-column statistics.
func (m *Table) Inspect() pipeline.Info {
	info := pipeline.Info{Kind: "table", Features: len(m.Features), Columns: slices.Clone(m.Features)}
	info.Settings.Classifier = m.Kind.String()
	var count []float64
	switch {
	case m.Gaussian != nil:
		info.Settings.VarSmoothing = cmp.Or(m.Gaussian.VarSmoothing, densenb.DefaultVarSmoothing)
		count = m.Gaussian.ClassCount
	case m.Categorical != nil:
		info.Settings.Alpha = cmp.Or(m.Categorical.Alpha, densenb.DefaultCategoricalAlpha)
		info.Settings.Bins = cmp.Or(m.bins.Bins, discretize.DefaultBins)
		count = m.Categorical.ClassCount
	}
	priors := m.TrainingPriors()
	f := len(m.Features)
	for k, name := range m.Classes {
		ci := pipeline.ClassInfo{Name: name, Prior: priors[k]}
		if k < len(count) {
			ci.Documents = count[k]
		}
		for j, col := range m.Features {
			info := pipeline.ColumnInfo{Name: col}
			if g := m.Gaussian; g != nil {
				info.Mean, info.Std = ptr(g.Theta[k*f+j]), ptr(math.Sqrt(g.Var[k*f+j]))
			} else if c := m.Categorical; c != nil {
				m.bestCategory(&info, k, j)
			}
			ci.Columns = append(ci.Columns, info)
		}
		info.Classes = append(info.Classes, ci)
	}
	return info
}

// bestCategory fills info with class k's most probable category of column
// j, and its range if the column is binned.
func (m *Table) bestCategory(info *pipeline.ColumnInfo, k, j int) {
	c := m.Categorical
	n := c.NCategories[j]
	if j >= len(c.FeatureLogProb) || len(c.FeatureLogProb[j]) < (k+1)*n || n == 0 {
		return
	}
	lp := c.FeatureLogProb[j][k*n : (k+1)*n]
	best := 0
	for i, v := range lp {
		if v > lp[best] {
			best = i
		}
	}
	info.Category, info.Prob = ptr(best), ptr(math.Exp(lp[best]))
	if !m.Direct[j] {
		if e := m.bins.Edges[j]; best+1 < len(e) {
			info.Low, info.High = ptr(e[best]), ptr(e[best+1])
		}
	}
}

func ptr[T any](v T) *T { return &v }
