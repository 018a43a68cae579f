package vocab

import (
	"errors"
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/textnb/textnb/internal/ngrams"
	"github.com/textnb/textnb/internal/sparse"
	"github.com/textnb/textnb/internal/termtab"
	"github.com/textnb/textnb/internal/testkit"
)

// handDocs: sorted terms a b c d e f with
// df a2 b4 c2 d1 e1 f1 and total counts a3 b4 c2 d1 e1 f3.
var handDocs = [][]string{
	{"a", "b", "a", "c"},
	{"b", "c", "d"},
	{"a", "b", "e"},
	{"b", "f", "f", "f"},
}

func build(t *testing.T, cfg Config, docs [][]string) (*Vocabulary, *sparse.CSR, error) {
	t.Helper()
	var b Builder
	for _, d := range docs {
		b.Add(d)
	}
	v, X, err := Finish(cfg, &b)
	if err == nil {
		if err := X.Validate(); err != nil {
			t.Fatal(err)
		}
		if X.Cols != v.Len() || X.Rows != len(docs) {
			t.Fatalf("matrix %d×%d for %d docs and %d terms", X.Rows, X.Cols, len(docs), v.Len())
		}
	}
	return v, X, err
}

func TestVocabHand(t *testing.T) {
	cases := []struct {
		name  string
		cfg   Config
		terms []string
		dense [][]float64
	}{
		{"default", Config{}, []string{"a", "b", "c", "d", "e", "f"}, [][]float64{
			{2, 1, 1, 0, 0, 0}, {0, 1, 1, 1, 0, 0}, {1, 1, 0, 0, 1, 0}, {0, 1, 0, 0, 0, 3}}},
		{"binary", Config{Binary: true}, []string{"a", "b", "c", "d", "e", "f"}, [][]float64{
			{1, 1, 1, 0, 0, 0}, {0, 1, 1, 1, 0, 0}, {1, 1, 0, 0, 1, 0}, {0, 1, 0, 0, 0, 1}}},
		{"min_df 2", Config{MinDF: 2}, []string{"a", "b", "c"}, [][]float64{
			{2, 1, 1}, {0, 1, 1}, {1, 1, 0}, {0, 1, 0}}},
		// 0.75 × 4 = 3 documents: b (df 4) goes.
		{"max_df .75", Config{MaxDF: 0.75}, []string{"a", "c", "d", "e", "f"}, [][]float64{
			{2, 1, 0, 0, 0}, {0, 1, 1, 0, 0}, {1, 0, 0, 1, 0}, {0, 0, 0, 0, 3}}},
		// 0.4 × 4 = 1.6 documents: only df 1 stays.
		{"max_df .4", Config{MaxDF: 0.4}, []string{"d", "e", "f"}, [][]float64{
			{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 3}}},
		{"min_df 2 max_df .75", Config{MinDF: 2, MaxDF: 0.75}, []string{"a", "c"}, [][]float64{
			{2, 1}, {0, 1}, {1, 0}, {0, 0}}},
		// Counts b4 a3 f3: a wins the tie with f by term order.
		{"max_features 2", Config{MaxFeatures: 2}, []string{"a", "b"}, [][]float64{
			{2, 1}, {0, 1}, {1, 1}, {0, 1}}},
		{"max_features 3", Config{MaxFeatures: 3}, []string{"a", "b", "f"}, [][]float64{
			{2, 1, 0}, {0, 1, 0}, {1, 1, 0}, {0, 1, 3}}},
		// Binary ranks by df: b4 a2 c2.
		{"max_features 3 binary", Config{MaxFeatures: 3, Binary: true}, []string{"a", "b", "c"}, [][]float64{
			{1, 1, 1}, {0, 1, 1}, {1, 1, 0}, {0, 1, 0}}},
		{"max_features 9", Config{MaxFeatures: 9}, []string{"a", "b", "c", "d", "e", "f"}, nil},
		// Pruning happens before max features: without b, counts a3 f3 c2.
		{"max_df .75 max_features 2", Config{MaxDF: 0.75, MaxFeatures: 2}, []string{"a", "f"}, [][]float64{
			{2, 0}, {0, 0}, {1, 0}, {0, 3}}},
	}
	for _, c := range cases {
		v, X, err := build(t, c.cfg, handDocs)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := v.Terms(); !slices.Equal(got, c.terms) {
			t.Errorf("%s: terms %q, want %q", c.name, got, c.terms)
		}
		if c.dense != nil && !reflect.DeepEqual(denseOf(X), c.dense) {
			t.Errorf("%s: matrix %v, want %v", c.name, denseOf(X), c.dense)
		}
	}
}

func TestVocabErrors(t *testing.T) {
	cases := []struct {
		cfg  Config
		docs [][]string
		want error
	}{
		{Config{MinDF: 3, MaxDF: 0.75}, handDocs, ErrEmptyVocabulary}, // df must be 3: none is
		{Config{MinDF: 5}, handDocs, ErrConfig},                       // scikit-learn: max_df < min_df documents
		{Config{MinDF: 2, MaxDF: 0.3}, handDocs, ErrConfig},
		{Config{MaxDF: 0.1}, handDocs, ErrConfig}, // 0.4 documents < min_df 1
		{Config{MinDF: -1}, handDocs, ErrConfig},
		{Config{MaxDF: 1.5}, handDocs, ErrConfig},
		{Config{MaxDF: -0.5}, handDocs, ErrConfig},
		{Config{MaxFeatures: -1}, handDocs, ErrConfig},
		{Config{}, nil, ErrEmptyVocabulary},
		{Config{}, [][]string{{}, {}}, ErrEmptyVocabulary},
	}
	for _, c := range cases {
		_, _, err := build(t, c.cfg, c.docs)
		if !errors.Is(err, c.want) {
			t.Errorf("%+v on %d docs: error %v, want %v", c.cfg, len(c.docs), err, c.want)
		}
	}
	if _, _, err := Finish(Config{}); !errors.Is(err, ErrEmptyVocabulary) {
		t.Errorf("no shards: %v", err)
	}
	if _, _, err := Finish(Config{}, NewBuilder(), nil); !errors.Is(err, ErrConfig) {
		t.Errorf("nil shard: %v", err)
	}
	_, _, err := build(t, Config{MinDF: 3, MaxDF: 0.75}, handDocs)
	if err == nil || !strings.Contains(err.Error(), "min_df") {
		t.Errorf("error does not say why: %v", err)
	}
}

func TestVocabEmptyRows(t *testing.T) {
	v, X, err := build(t, Config{}, [][]string{{}, {"x", "x"}, {}, {"y"}, {}})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{0, 0}, {2, 0}, {0, 0}, {0, 1}, {0, 0}}
	if !reflect.DeepEqual(denseOf(X), want) || v.Len() != 2 {
		t.Errorf("got %v, want %v", denseOf(X), want)
	}
}

// naiveVocab is a direct transcription of scikit-learn's CountVectorizer.
func naiveVocab(cfg Config, docs [][]string) ([]string, [][]float64) {
	df, tf := map[string]int{}, map[string]int{}
	for _, d := range docs {
		seen := map[string]bool{}
		for _, t := range d {
			tf[t]++
			if !seen[t] {
				df[t]++
				seen[t] = true
			}
		}
	}
	maxDF := cfg.MaxDF
	if maxDF == 0 {
		maxDF = 1
	}
	var terms []string
	for t, n := range df {
		if n >= max(cfg.MinDF, 1) && float64(n) <= maxDF*float64(len(docs)) {
			terms = append(terms, t)
		}
	}
	slices.Sort(terms)
	if cfg.MaxFeatures > 0 && len(terms) > cfg.MaxFeatures {
		total := tf
		if cfg.Binary {
			total = df
		}
		slices.SortStableFunc(terms, func(a, b string) int { return total[b] - total[a] })
		terms = terms[:cfg.MaxFeatures]
		slices.Sort(terms)
	}
	id := map[string]int{}
	for i, t := range terms {
		id[t] = i
	}
	dense := make([][]float64, len(docs))
	for i, d := range docs {
		dense[i] = make([]float64, len(terms))
		for _, t := range d {
			if j, ok := id[t]; ok {
				dense[i][j]++
				if cfg.Binary {
					dense[i][j] = 1
				}
			}
		}
	}
	return terms, dense
}

func TestVocabShardsAndReference(t *testing.T) {
	docs := testkit.ZipfDocs(1, 300, 40, 2000)
	docs[17] = nil
	cfgs := []Config{{}, {MinDF: 2}, {MaxDF: 0.2}, {MinDF: 2, MaxDF: 0.5, MaxFeatures: 100}, {MaxFeatures: 50, Binary: true}}
	for _, cfg := range cfgs {
		wantTerms, wantDense := naiveVocab(cfg, docs)
		var ref *sparse.CSR
		for _, nShards := range []int{1, 2, 3, 7} {
			shards := make([]*Builder, nShards)
			for k := range shards {
				shards[k] = NewBuilder()
				for _, d := range docs[k*len(docs)/nShards : (k+1)*len(docs)/nShards] {
					shards[k].Add(d)
				}
			}
			v, X, err := Finish(cfg, shards...)
			if err != nil {
				t.Fatal(err)
			}
			if err := X.Validate(); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(v.Terms(), wantTerms) {
				t.Fatalf("%+v, %d shards: %d terms, want %d", cfg, nShards, v.Len(), len(wantTerms))
			}
			if ref == nil {
				ref = X
				if !reflect.DeepEqual(denseOf(X), wantDense) {
					t.Fatalf("%+v: matrix differs from the reference", cfg)
				}
			} else if !reflect.DeepEqual(X, ref) {
				t.Fatalf("%+v: %d shards differ from 1", cfg, nShards)
			}
		}
	}
}

// TestVocabBuilderCopiesTerms checks that the builder keeps copies of the
// terms, not the caller's memory: terms here alias a buffer that is then
// overwritten, as a tokenizer reusing its buffer might.
func TestVocabBuilderCopiesTerms(t *testing.T) {
	buf := []byte("alpha beta gamma-is-a-longer-term")
	doc := unsafe.String(&buf[0], len(buf))
	var b Builder
	b.Add(strings.Fields(doc))
	copy(buf, "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX")
	b.Add([]string{"gamma-is-a-longer-term", "alpha", "alpha"})
	v, X, err := Finish(Config{}, &b)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"alpha", "beta", "gamma-is-a-longer-term"}
	if got := v.Terms(); !slices.Equal(got, want) {
		t.Fatalf("terms %q, want %q", got, want)
	}
	if want := [][]float64{{1, 1, 1}, {2, 0, 1}}; !reflect.DeepEqual(denseOf(X), want) {
		t.Fatalf("matrix %v, want %v", denseOf(X), want)
	}
}

// minDFFor is Merge(shards...).MinDFFor, failing the test on error.
func minDFFor(t *testing.T, maxCols, maxFeatures int, shards ...*Builder) int {
	t.Helper()
	c, err := Merge(shards...)
	if err != nil {
		t.Fatal(err)
	}
	return c.MinDFFor(maxCols, maxFeatures)
}

// TestMinDFForManyDocs checks that frequencies far above the number of
// terms (merged statistics of a large corpus) give the cut a histogram of
// them would.
func TestMinDFForManyDocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		n := 1 + rng.IntN(40)
		scale := int64(1)
		if rng.IntN(2) == 0 {
			scale = 1 << 40
		}
		df := make([]int64, n)
		for i := range df {
			if rng.IntN(5) > 0 {
				df[i] = 1 + rng.Int64N(8)*scale
			}
		}
		maxCols := rng.IntN(n + 2)
		// The least m that keeps at most maxCols terms: kept only falls
		// just above a frequency, so m is 1 or one of those.
		want := int64(-1)
		for i := -1; i < len(df); i++ {
			m := int64(1)
			if i >= 0 {
				m = df[i] + 1
			}
			kept := 0
			for _, d := range df {
				if d >= m {
					kept++
				}
			}
			if kept <= maxCols && (want < 0 || m < want) {
				want = m
			}
		}
		if maxCols <= 0 {
			want = 1
		}
		if got := MinDFFor(df, 1<<62, maxCols, 0); int64(got) != want {
			t.Fatalf("MinDFFor(%v, maxCols %d) = %d, want %d", df, maxCols, got, want)
		}
	}
}

func TestMinDFFor(t *testing.T) {
	var b Builder
	for _, d := range handDocs {
		b.Add(d)
	}
	// The same documents in two shards: "b" has df 2 + 2 across them.
	var s0, s1 Builder
	s0.Add(handDocs[0])
	s0.Add(handDocs[1])
	s1.Add(handDocs[2])
	s1.Add(handDocs[3])
	cases := []struct{ maxCols, maxFeatures, want int }{
		{0, 0, 1}, {6, 0, 1}, {5, 0, 2}, {3, 0, 2}, {2, 0, 3}, {1, 0, 3}, {3, 2, 1}, {2, 3, 3},
	}
	for _, c := range cases {
		if got := minDFFor(t, c.maxCols, c.maxFeatures, &b); got != c.want {
			t.Errorf("MinDFFor(%d, %d) = %d, want %d", c.maxCols, c.maxFeatures, got, c.want)
		}
		if got := minDFFor(t, c.maxCols, c.maxFeatures, &s0, &s1); got != c.want {
			t.Errorf("two shards: MinDFFor(%d, %d) = %d, want %d", c.maxCols, c.maxFeatures, got, c.want)
		}
		_, X, err := Finish(Config{MinDF: c.want, MaxFeatures: c.maxFeatures}, &b)
		if err != nil || c.maxCols > 0 && X.Cols > c.maxCols {
			t.Errorf("min_df %d leaves %v columns, more than %d (%v)", c.want, X, c.maxCols, err)
		}
	}
	if minDFFor(t, 1, 0) != 1 {
		t.Error("no shards")
	}
}

func TestVocabulary(t *testing.T) {
	v, err := NewVocabulary([]string{"b", "c", "café", "x"})
	if err != nil {
		t.Fatal(err)
	}
	if v.Len() != 4 || v.Term(2) != "café" || v.Term(-1) != "" || v.Term(4) != "" {
		t.Errorf("Len %d Term(2) %q", v.Len(), v.Term(2))
	}
	if id, ok := v.ID("x"); !ok || id != 3 {
		t.Errorf("ID(x) = %d, %v", id, ok)
	}
	if _, ok := v.ID("a"); ok {
		t.Error("ID(a) found")
	}
	idx, val := v.Transform([]int32{9}, []float64{9}, []string{"x", "nope", "b", "x", "café", "x"})
	if !slices.Equal(idx, []int32{9, 0, 2, 3}) || !slices.Equal(val, []float64{9, 1, 1, 3}) {
		t.Errorf("Transform = %v %v", idx, val)
	}
	idx, val = v.Transform(idx[:0], val[:0], nil)
	if len(idx) != 0 || len(val) != 0 {
		t.Errorf("empty Transform = %v %v", idx, val)
	}
	// Terms may come in any order; they number the columns as given.
	u, err := NewVocabulary([]string{"x", "b", "a b"})
	if err != nil {
		t.Fatal(err)
	}
	for want, term := range []string{"x", "b", "a b"} {
		if id, ok := u.ID(term); !ok || id != int32(want) || u.Term(want) != term {
			t.Errorf("unsorted: ID(%q) = %d, %v; Term(%d) = %q", term, id, ok, want, u.Term(want))
		}
	}
	for _, bad := range [][]string{{"a", "a"}, {"b", "a", "c", "a"}, {"", "b", ""}} {
		if _, err := NewVocabulary(bad); !errors.Is(err, ErrVocabularyTerms) {
			t.Errorf("NewVocabulary(%q) error %v", bad, err)
		}
	}
	if _, err := NewVocabulary(nil); !errors.Is(err, ErrEmptyVocabulary) {
		t.Errorf("NewVocabulary(nil) error %v", err)
	}
}

func TestVocabularyConcurrentTransform(t *testing.T) {
	docs := testkit.ZipfDocs(2, 50, 30, 500)
	v, X, err := build(t, Config{}, docs)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Go(func() {
			var idx []int32
			var val []float64
			for i, d := range docs {
				idx, val = v.Transform(idx[:0], val[:0], d)
				wi, wv := X.Row(i)
				if !slices.Equal(idx, wi) || !slices.Equal(val, wv) {
					t.Errorf("row %d: %v %v, want %v %v", i, idx, val, wi, wv)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestMergeAndSelectVocabularies(t *testing.T) {
	a, _ := NewVocabulary([]string{"a", "c", "e"})
	b, _ := NewVocabulary([]string{"b", "c", "f"})
	u, fa, fb := MergeVocabularies(a, b)
	if !slices.Equal(u.Terms(), []string{"a", "b", "c", "e", "f"}) ||
		!slices.Equal(fa, []int32{0, 2, 3}) || !slices.Equal(fb, []int32{1, 2, 4}) {
		t.Errorf("merge = %q %v %v", u.Terms(), fa, fb)
	}
	// Terms in first-seen order, as a trained model keeps them.
	c, _ := NewVocabulary([]string{"e", "a", "c"})
	d, _ := NewVocabulary([]string{"f", "c", "b"})
	u2, fc, fd := MergeVocabularies(c, d)
	if !slices.Equal(u2.Terms(), u.Terms()) || !slices.Equal(fc, []int32{3, 0, 2}) || !slices.Equal(fd, []int32{4, 2, 1}) {
		t.Errorf("merge of unsorted = %q %v %v", u2.Terms(), fc, fd)
	}
	s, err := u.Select([]int32{1, 3})
	if err != nil || !slices.Equal(s.Terms(), []string{"b", "e"}) {
		t.Errorf("Select = %v, %v", s, err)
	}
	for _, bad := range [][]int32{{3, 1}, {1, 1}, {5}, {-1}, {}} {
		if _, err := u.Select(bad); err == nil {
			t.Errorf("Select(%v) succeeded", bad)
		}
	}
}

func TestVocabCountsReuse(t *testing.T) {
	docs := testkit.ZipfDocs(4, 200, 30, 1000)
	shards := []*Builder{NewBuilder(), NewBuilder()}
	for i, d := range docs {
		shards[i*2/len(docs)].Add(d)
	}
	c, err := Merge(shards...)
	if err != nil {
		t.Fatal(err)
	}
	if c.Rows() != len(docs) || c.Len() == 0 {
		t.Fatalf("Rows %d Len %d", c.Rows(), c.Len())
	}
	for _, cfg := range []Config{{MinDF: 3}, {}, {MaxFeatures: 10, Binary: true}} {
		v1, X1, err1 := c.Finish(cfg)
		v2, X2, err2 := Finish(cfg, shards...)
		if err1 != nil || err2 != nil || !slices.Equal(v1.Terms(), v2.Terms()) || !reflect.DeepEqual(X1, X2) {
			t.Errorf("%+v: Finish and Finish differ (%v, %v)", cfg, err1, err2)
		}
	}
	if _, _, err := c.Finish(Config{MinDF: -1}); !errors.Is(err, ErrConfig) {
		t.Errorf("invalid config: %v", err)
	}
	if m := c.MinDFFor(50, 0); m != minDFFor(t, 50, 0, shards...) || m < 2 {
		t.Errorf("MinDFFor(50) = %d", m)
	}
	if _, err := Merge(nil); !errors.Is(err, ErrConfig) {
		t.Errorf("nil shard: %v", err)
	}
}

func TestNewVocabularyPacked(t *testing.T) {
	terms := []string{"a b", "apple", "banana", "café"}
	var blob []byte
	var ends []int
	for _, s := range terms {
		blob = append(blob, s...)
		ends = append(ends, len(blob))
	}
	v, err := NewVocabularyPacked(blob, ends)
	if err != nil {
		t.Fatal(err)
	}
	go v.Prepare()
	for i, s := range terms {
		if id, ok := v.ID(s); !ok || int(id) != i || v.Term(i) != s {
			t.Errorf("term %q: id %d %v, Term(%d) = %q", s, id, ok, i, v.Term(i))
		}
	}
	if _, ok := v.ID("apples"); ok {
		t.Error("found a term that is not there")
	}
	for _, bad := range [][]int{{5, 3, 9, 14}, {3, 8, 14, 99}, {3, 8, 14, -1}} {
		if _, err := NewVocabularyPacked(blob, bad); !errors.Is(err, ErrVocabularyTerms) {
			t.Errorf("ends %v: error %v", bad, err)
		}
	}
	// A repeated term is reported by Prepare, on every call.
	rep, err := NewVocabularyPacked([]byte("bananaapplebanana"), []int{6, 11, 17})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := rep.Prepare(); !errors.Is(err, ErrVocabularyTerms) || !strings.Contains(err.Error(), `term 2 "banana" repeats term 0`) {
			t.Errorf("repeated term: Prepare error %v", err)
		}
	}
	if id, ok := rep.ID("banana"); !ok || id != 0 {
		t.Errorf("a repeated term is found as %d, %v; want its first id", id, ok)
	}
	if _, err := NewVocabularyPacked(nil, nil); !errors.Is(err, ErrEmptyVocabulary) {
		t.Errorf("empty: %v", err)
	}
}

// TestVocabularyIndexOnEveryCore checks that the index, built in parts on
// several goroutines, finds every term of a vocabulary large enough to be
// split and loaded as fully as tableSize allows (just under 3/8), where
// runs cross the parts' ends (most seeds spill some terms;
// TestIndexFillSpillsAcrossParts spills for certain).
func TestVocabularyIndexOnEveryCore(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	terms := make([]string, 196_000)
	for i := range terms {
		terms[i] = fmt.Sprintf("t%07d", i)
		if i%3 == 0 {
			terms[i] += " bigram"
		}
	}
	v, err := NewVocabulary(terms)
	if err != nil {
		t.Fatal(err)
	}
	v.Prepare()
	for i, term := range terms {
		if id, ok := v.ID(term); !ok || id != int32(i) {
			t.Fatalf("ID(%q) = %d, %v, want %d", term, id, ok, i)
		}
	}
	for _, absent := range []string{"t0000001 bigram", "t9999999", "", "bigram"} {
		if id, ok := v.ID(absent); ok {
			t.Errorf("ID(%q) = %d, found", absent, id)
		}
	}
}

// TestIndexFillSpillsAcrossParts fills a table of 1024 slots in two parts
// with hashes chosen so that two runs cross the middle and one the end:
// those terms are spilled, and every term is found all the same.
func TestIndexFillSpillsAcrossParts(t *testing.T) {
	v := packTerms([]string{"a", "bb", "ccc", "dddd", "eeeee", "ff"})
	const shift = 64 - 10 // 1024 slots
	home := []uint64{511, 511, 511, 1023, 1023, 5}
	hashes := make([]uint64, len(home))
	for id, s := range home {
		hashes[id] = s<<shift | uint64(id) // distinct hashes, home slot s
	}
	var x vocabIndex
	if spilled, rep := x.fill(&v.tab, hashes, 2); spilled != 3 || rep {
		t.Errorf("spilled %d terms, want 3 (two past the middle, one past the end); repeat %v", spilled, rep)
	}
	for id, h := range hashes {
		if got := x.find(h, v.tab.TermLen(int32(id))); got != int32(id) {
			t.Errorf("term %d (home %d) found as %d", id, home[id], got)
		}
	}
	if x.find(hashes[0], 2) != -1 || x.find(hashes[0]+1<<20, 1) != -1 {
		t.Error("a hash or length that was not indexed is found")
	}
}

// TestIndexFillFindsRepeats fills a table in two parts with a term repeated
// within a part and one repeated among the spilled terms: the repeat of
// smallest id is reported, with the id it repeats.
func TestIndexFillFindsRepeats(t *testing.T) {
	terms := []string{"ccc", "bb", "a", "bb", "a"}
	v := packTerms(terms)
	const shift = 64 - 10 // 1024 slots
	code := map[string]uint64{"ccc": 0, "bb": 1, "a": 2}
	home := map[string]uint64{"ccc": 511, "bb": 511, "a": 100} // bb spills past the middle
	hashes := make([]uint64, len(terms))
	for id, s := range terms {
		hashes[id] = home[s]<<shift | code[s] // equal terms, equal hashes
	}
	var x vocabIndex
	spilled, rep := x.fill(&v.tab, hashes, 2)
	if spilled != 2 || !rep {
		t.Errorf("spilled %d, repeat %v; want 2 and a repeat", spilled, rep)
	}
	if id, of := x.firstRepeat(&v.tab, hashes); id != 3 || of != 1 {
		t.Errorf("first repeat: term %d of %d; want term 3 repeating term 1", id, of)
	}
	for _, id := range []int32{0, 1, 2} {
		if got := x.find(hashes[id], len(terms[id])); got != id {
			t.Errorf("term %q found as %d, want %d", terms[id], got, id)
		}
	}
}

// TestIndexPlaceStopsAtPartEnd checks the step that lets parts of the
// index fill in parallel: a probe that would reach the next part (or wrap
// around the table's end) is refused without writing anything, and a
// later unbounded call places the term after the occupied run.
func TestIndexPlaceStopsAtPartEnd(t *testing.T) {
	v := packTerms([]string{"a", "b", "c"})
	var x vocabIndex
	size := 1 << 10
	x.slots, x.tags, x.shift = make([]indexSlot, size), make([]uint8, size), termtab.ShiftFor(size)
	placed := func(id int32, h uint64, i, stop int) bool {
		ok, same := x.place(&v.tab, id, h, i, stop)
		if same {
			t.Fatalf("term %d met an equal term", id)
		}
		return ok
	}
	if !placed(0, 1, 510, 512) || !placed(1, 2, 511, 512) {
		t.Fatal("free slots refused")
	}
	if placed(2, 3, 510, 512) || x.tags[512] != 0 {
		t.Fatal("placed past the part's end")
	}
	x.tags[size-1] = 0x80
	if placed(2, 3, size-1, 0) || x.tags[0] != 0 {
		t.Fatal("wrapped around the table's end")
	}
	if !placed(2, 3, 510, -1) || x.tags[512] != tagOf(3) || x.slots[512] != (indexSlot{hash: 3, id: 2, n: 1}) {
		t.Fatalf("unbounded place: slot 512 = %+v", x.slots[512])
	}
}

// TestEmptyVocabularySameErrorEverywhere checks that documents without
// terms get the same error from Finish and from Prune.
func TestEmptyVocabularySameErrorEverywhere(t *testing.T) {
	b := NewBuilder()
	b.Add(nil)
	c, err := Merge(b)
	if err != nil {
		t.Fatal(err)
	}
	_, _, errFinish := c.Finish(Config{})
	_, errPrune := c.Prune(Config{})
	for _, err := range []error{errFinish, errPrune} {
		if !errors.Is(err, ErrEmptyVocabulary) || !strings.Contains(err.Error(), "no terms in 1 documents") {
			t.Errorf("error %v, want ErrEmptyVocabulary: no terms in 1 documents", err)
		}
	}
}

// TestMergeTakesNoPrefixes checks that merging shards spells and sorts
// only their terms, not the nodes that only prefix longer n-grams.
func TestMergeTakesNoPrefixes(t *testing.T) {
	docs := [][]string{{"a", "b", "c", "d"}, {"b", "c", "d", "e"}}
	var shards []*Builder
	for _, d := range docs {
		b := NewBuilder()
		b.AddWords(d, ngrams.Range{Min: 3, Max: 3}, nil)
		shards = append(shards, b)
	}
	c, err := Merge(shards...)
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != 3 || len(c.u.df) != 3 { // a b c, b c d, c d e
		t.Errorf("%d terms under %d union ids, want 3 and 3", c.Len(), len(c.u.df))
	}
	v, X, err := c.Finish(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a b c", "b c d", "c d e"}; !slices.Equal(v.Terms(), want) || !slices.Equal(X.Indices, []int32{0, 1, 1, 2}) {
		t.Errorf("terms %q, columns %v", v.Terms(), X.Indices)
	}
}

// TestIndexFillUnevenParts fills in a number of parts that does not divide
// the table, so parts' ends fall between slots' shares: every term is
// found, whatever part takes it.
func TestIndexFillUnevenParts(t *testing.T) {
	terms := make([]string, 3000)
	for i := range terms {
		terms[i] = fmt.Sprintf("w%d", i)
	}
	v := packTerms(terms)
	var x vocabIndex
	x.seed = maphash.MakeSeed()
	hashes := make([]uint64, len(terms))
	for id, s := range terms {
		hashes[id] = x.termHash(s)
	}
	for _, parts := range []int{3, 5, 7} {
		x.fill(&v.tab, hashes, parts)
		for id, s := range terms {
			if got := x.find(hashes[id], len(s)); got != int32(id) {
				t.Fatalf("%d parts: term %q found as %d", parts, s, got)
			}
		}
	}
}

// A builder whose pair table EndInput freed refuses more documents rather
// than numbering the pairs it has seen again, and still prunes as before.
func TestVocabEndInput(t *testing.T) {
	b := NewBuilder()
	bigrams := ngrams.Range{Min: 1, Max: 2}
	b.AddWords([]string{"a", "b", "c"}, bigrams, nil)
	b.AddWords([]string{"a", "b"}, bigrams, nil)
	b.EndInput()
	c, err := Merge(b)
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.Prune(Config{MinDF: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Provisional().Terms(); !slices.Equal(got, []string{"a", "a b", "b"}) && !slices.Equal(got, []string{"a", "b", "a b"}) {
		t.Errorf("terms in 2 documents: %q", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("adding a bigram after EndInput did not panic")
		}
	}()
	b.AddWords([]string{"c", "a"}, bigrams, nil)
}
