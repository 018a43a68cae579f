package vocab

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/textnb/textnb/internal/ngrams"
	"github.com/textnb/textnb/internal/sparse"
)

// joinGrams is how scikit-learn forms word n-grams: n consecutive words
// joined by single spaces, every n in r, then the extra terms.
func joinGrams(words []string, r ngrams.Range, extra []string) []string {
	lo, hi := r.Bounds()
	var out []string
	for n := lo; n <= hi; n++ {
		for i := 0; i+n <= len(words); i++ {
			out = append(out, strings.Join(words[i:i+n], " "))
		}
	}
	return append(out, extra...)
}

// gramDocs returns random documents over a small alphabet of words,
// including the empty word and words that hold spaces, so that n-grams
// collide with words and extra terms.
func gramDocs(seed uint64) (words, extra [][]string) {
	alphabet := []string{"a", "b", "c", "ab", "a b", "", "b a", "naïve", "自然"}
	r := rand.New(rand.NewPCG(seed, 7))
	for range 30 {
		var w, e []string
		for range r.IntN(12) {
			w = append(w, alphabet[r.IntN(len(alphabet))])
		}
		for range r.IntN(3) {
			e = append(e, alphabet[r.IntN(len(alphabet))]+" "+alphabet[r.IntN(len(alphabet))])
		}
		words, extra = append(words, w), append(extra, e)
	}
	return words, extra
}

func TestAddWordsEqualsJoinedTerms(t *testing.T) {
	words, extra := gramDocs(1)
	for _, r := range []ngrams.Range{{}, {Min: 1, Max: 2}, {Min: 2, Max: 2}, {Min: 1, Max: 3}, {Min: 2, Max: 4}, {Min: 3, Max: 1}} {
		joined := make([][]string, len(words))
		b := NewBuilder()
		for i := range words {
			joined[i] = joinGrams(words[i], r, extra[i])
			b.AddWords(words[i], r, extra[i])
		}
		for _, cfg := range []Config{{}, {MinDF: 2}, {MaxFeatures: 7}} {
			wantTerms, wantDense := naiveVocab(cfg, joined)
			vocab, X, err := Finish(cfg, b)
			if err != nil {
				t.Fatalf("%v %+v: %v", r, cfg, err)
			}
			if !slices.Equal(vocab.Terms(), wantTerms) {
				t.Fatalf("%v %+v: terms %q, want %q", r, cfg, vocab.Terms(), wantTerms)
			}
			checkDense(t, X, wantDense)
			// The vocabulary finds the same n-grams from the words alone.
			var hashes []uint64
			for i := range words {
				idx, val, h := vocab.TransformWords(nil, nil, hashes, words[i], r, extra[i])
				hashes = h
				wantIdx, wantVal := vocab.Transform(nil, nil, joined[i])
				if !slices.Equal(idx, wantIdx) || !slices.Equal(val, wantVal) {
					t.Fatalf("%v doc %d: TransformWords %v %v, Transform %v %v", r, i, idx, val, wantIdx, wantVal)
				}
				gotIdx, gotVal := X.Row(i)
				if !slices.Equal(idx, gotIdx) || !slices.Equal(val, gotVal) {
					t.Fatalf("%v doc %d: TransformWords %v %v, training row %v %v", r, i, idx, val, gotIdx, gotVal)
				}
			}
		}
	}
}

// A builder fed both ways, and in several shards, still gives every
// string one column.
func TestAddWordsMixedWithAdd(t *testing.T) {
	words, extra := gramDocs(2)
	r := ngrams.Range{Min: 1, Max: 3}
	joined := make([][]string, len(words))
	shards := []*Builder{NewBuilder(), NewBuilder()}
	for i := range words {
		joined[i] = joinGrams(words[i], r, extra[i])
		b := shards[i*2/len(words)]
		if i%2 == 0 {
			b.Add(joined[i])
		} else {
			b.AddWords(words[i], r, extra[i])
		}
	}
	wantTerms, wantDense := naiveVocab(Config{}, joined)
	for _, sh := range [][]*Builder{shards, shards[:1]} {
		n := len(joined)
		if len(sh) == 1 {
			n = len(joined) / 2
			wantTerms, wantDense = naiveVocab(Config{}, joined[:n])
		}
		vocab, X, err := Finish(Config{}, sh...)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(vocab.Terms(), wantTerms) || X.Rows != n {
			t.Fatalf("%d shards: terms %q, want %q", len(sh), vocab.Terms(), wantTerms)
		}
		checkDense(t, X, wantDense)
	}
}

func TestNGramPrefixesAreNotTerms(t *testing.T) {
	b := NewBuilder()
	b.AddWords([]string{"x", "y", "z"}, ngrams.Range{Min: 3, Max: 3}, nil)
	if b.Len() != 1 {
		t.Errorf("Len %d, want 1: the trigram (its prefixes are not terms)", b.Len())
	}
	c, err := Merge(b)
	if err != nil {
		t.Fatal(err)
	}
	vocab, X, err := c.Finish(Config{})
	if err != nil || !slices.Equal(vocab.Terms(), []string{"x y z"}) || X.Cols != 1 {
		t.Fatalf("terms %q, %v", vocab.Terms(), err)
	}
	if _, ok := vocab.ID("x y"); ok {
		t.Error(`ID("x y") found a prefix`)
	}
	empty := NewBuilder()
	empty.AddWords([]string{"x"}, ngrams.Range{Min: 2, Max: 2}, nil)
	if _, _, err := Finish(Config{}, empty); err == nil {
		t.Error("a document without bigrams gave a vocabulary")
	}
}

func checkDense(t *testing.T, X *sparse.CSR, want [][]float64) {
	t.Helper()
	if X.Rows != len(want) {
		t.Fatalf("%d rows, want %d", X.Rows, len(want))
	}
	for i, row := range want {
		got := make([]float64, X.Cols)
		idx, val := X.Row(i)
		for k, j := range idx {
			got[j] = val[k]
		}
		if !slices.Equal(got, row) {
			t.Fatalf("row %d: %v, want %v", i, got, row)
		}
	}
}

func TestConsumeEqualsFinish(t *testing.T) {
	words, extra := gramDocs(3)
	r := ngrams.Range{Min: 1, Max: 2}
	build := func() []*Builder {
		shards := []*Builder{NewBuilder(), NewBuilder()}
		for i := range words {
			shards[i*2/len(words)].AddWords(words[i], r, extra[i])
		}
		return shards
	}
	for _, cfg := range []Config{{MinDF: 2}, {MaxFeatures: 5}, {MaxFeatures: 5, Binary: true}} {
		consumeEqualsFinish(t, build, cfg)
	}
}

func consumeEqualsFinish(t *testing.T, build func() []*Builder, cfg Config) {
	for _, n := range []int{1, 2} {
		want, wantX, err := Finish(cfg, build()[:n]...)
		if err != nil {
			t.Fatal(err)
		}
		shards := build()[:n]
		c, err := Merge(shards...)
		if err != nil {
			t.Fatal(err)
		}
		got, gotX, err := c.Consume(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Terms(), want.Terms()) || !slices.Equal(gotX.Indices, wantX.Indices) ||
			!slices.Equal(gotX.Data, wantX.Data) || !slices.Equal(gotX.Indptr, wantX.Indptr) {
			t.Fatalf("%d shards: Consume differs from Finish", n)
		}
		for k, b := range shards {
			if b.Rows() != 0 || b.Len() != 0 || b.g.len() != 0 {
				t.Errorf("%d shards: shard %d not emptied: %d rows, %d terms", n, k, b.Rows(), b.Len())
			}
		}
		if _, _, err := c.Finish(cfg); err == nil {
			t.Errorf("%d shards: Finish after Consume gave a vocabulary", n)
		}
	}
}

// A look-up needs the term's hash and its length.
func TestVocabIndexChecksLength(t *testing.T) {
	v, err := NewVocabulary([]string{"a b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	v.Prepare()
	h := v.ix.termHash("a b")
	if id := v.ix.find(h, 3); id != 0 {
		t.Fatalf("find(hash of \"a b\", 3) = %d", id)
	}
	if id := v.ix.find(h, 4); id != -1 {
		t.Errorf("a forged hash of another length found term %d", id)
	}
	if id := v.ix.find(v.ix.termHash("a x"), 3); id != -1 {
		t.Errorf("\"a x\" found term %d", id)
	}
}

func TestAddCodedEqualsAddWords(t *testing.T) {
	words, extra := gramDocs(4)
	addCodedEqualsAddWords(t, words, extra)
	// Without spaces in any term and with n ≤ 2, AddCoded takes its fast path.
	plain := make([][]string, len(words))
	for i, ws := range words {
		for _, w := range ws {
			if !strings.Contains(w, " ") {
				plain[i] = append(plain[i], w, w)
			}
		}
	}
	addCodedEqualsAddWords(t, plain, make([][]string, len(words)))
}

func addCodedEqualsAddWords(t *testing.T, words, extra [][]string) {
	for _, r := range []ngrams.Range{{}, {Min: 1, Max: 2}, {Min: 2, Max: 2}, {Min: 1, Max: 3}, {Min: 2, Max: 4}, {Min: 3, Max: 1}} {
		want, coded := NewBuilder(), NewBuilder()
		coders := []*WordCoder{{}, {}}
		var d CodedDoc
		for i := range words {
			want.AddWords(words[i], r, extra[i])
			coders[i%3%2].Code(&d, words[i], r, extra[i])
			if d.Len() == 0 != (len(joinGrams(words[i], r, extra[i])) == 0) {
				t.Fatalf("%v doc %d: coded %d entries for %d terms", r, i, d.Len(), len(joinGrams(words[i], r, extra[i])))
			}
			coded.AddCoded(&d)
		}
		if !sameCounts(t, coded, want) {
			t.Fatalf("%v: AddCoded differs from AddWords", r)
		}
	}
}

// sameCounts reports whether Finish makes the same terms and matrix
// of got as of want: the documents were counted alike.
func sameCounts(t *testing.T, got, want *Builder) bool {
	t.Helper()
	gv, gx, err := Finish(Config{}, got)
	if err != nil {
		t.Fatal(err)
	}
	wv, wx, err := Finish(Config{}, want)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Equal(gv.Terms(), wv.Terms()) && slices.Equal(gx.Indptr, wx.Indptr) &&
		slices.Equal(gx.Indices, wx.Indices) && slices.Equal(gx.Data, wx.Data)
}

// A coder whose documents go to two builders, before and after Consume,
// keeps its numbers apart.
func TestWordCoderSharedByBuilders(t *testing.T) {
	var c WordCoder
	var d CodedDoc
	a, b := NewBuilder(), NewBuilder()
	docs := [][]string{{"x", "y"}, {"y", "z"}, {"z", "x", "w"}}
	for round := range 2 {
		for i, words := range docs {
			c.Code(&d, words, ngrams.Range{Min: 1, Max: 2}, nil)
			[]*Builder{a, b}[(i+round)%2].AddCoded(&d)
		}
		for _, v := range []*Builder{a, b} {
			want := NewBuilder()
			// The documents v got, added directly.
			for i, words := range docs {
				if v == []*Builder{a, b}[(i+round)%2] {
					want.AddWords(words, ngrams.Range{Min: 1, Max: 2}, nil)
				}
			}
			c1, _ := Merge(v)
			got, gotX, err := c1.Consume(Config{})
			if err != nil {
				t.Fatal(err)
			}
			wantVocab, wantX, _ := Finish(Config{}, want)
			if !slices.Equal(got.Terms(), wantVocab.Terms()) || !slices.Equal(gotX.Indices, wantX.Indices) {
				t.Fatalf("round %d: terms %q, want %q", round, got.Terms(), wantVocab.Terms())
			}
		}
	}
}

// Coders code the next documents while the builder adds the last ones, as
// the pipeline runs them; run with -race.
func TestWordCoderConcurrentWithBuilder(t *testing.T) {
	words, extra := gramDocs(5)
	r := ngrams.Range{Min: 1, Max: 2}
	want := NewBuilder()
	for i := range words {
		want.AddWords(words[i], r, extra[i])
	}
	coders := []*WordCoder{{}, {}}
	docs := make(chan *CodedDoc, 4)
	go func() {
		for i := range words {
			d := new(CodedDoc)
			coders[i%2].Code(d, words[i], r, extra[i])
			docs <- d
		}
		close(docs)
	}()
	got := NewBuilder()
	for d := range docs {
		got.AddCoded(d)
	}
	if !sameCounts(t, got, want) {
		t.Fatal("concurrent coding differs")
	}
}

// A document with more bigrams than the kept buckets cover gets two
// buckets per bigram, so that its chains stay short; the short document
// after it drops them.
func TestWordCoderLongDocument(t *testing.T) {
	var long []string
	for i := range 40000 { // 80,000 words, about 75,000 distinct bigrams
		long = append(long, strings.Repeat("w", 1+i%197), strings.Repeat("v", 1+i%191))
	}
	short := strings.Fields("a b a b c a b")
	var c WordCoder
	b, want := NewBuilder(), NewBuilder()
	for k, words := range [][]string{long, short} {
		var d CodedDoc
		c.Code(&d, words, ngrams.Range{Min: 2, Max: 2}, nil)
		b.AddCoded(&d)
		want.AddWords(words, ngrams.Range{Min: 2, Max: 2}, nil)
		switch n := len(c.seen.heads); {
		case k == 0 && n < 2*(len(long)-1):
			t.Fatalf("the long document's bigram index has %d buckets for %d bigrams: its chains grow with it", n, len(long)-1)
		case k == 1 && n > maxBuckets:
			t.Fatalf("the short document kept the long one's %d buckets", n)
		}
	}
	if !sameCounts(t, b, want) {
		t.Fatal("long document counted differently")
	}
}

// Documents of different lengths share the kept buckets: a short one uses
// their first part, over heads a longer one left, and counts as AddWords.
func TestWordCoderBigramIndexPrefix(t *testing.T) {
	doc := func(n int) []string {
		var w []string
		for i := range n {
			w = append(w, fmt.Sprint("w", i%(n/2+1)), fmt.Sprint("v", i%7))
		}
		return w
	}
	var c WordCoder
	b, want := NewBuilder(), NewBuilder()
	for k, words := range [][]string{doc(10000), doc(30), doc(5000), doc(30), doc(10000)} {
		var d CodedDoc
		c.Code(&d, words, ngrams.Range{Min: 1, Max: 2}, nil)
		b.AddCoded(&d)
		want.AddWords(words, ngrams.Range{Min: 1, Max: 2}, nil)
		if n := len(c.seen.heads); n != maxBuckets { // 20,000 words: two buckets per bigram, up to the most kept
			t.Fatalf("document %d: %d buckets kept, want the first long document's %d", k, n, maxBuckets)
		}
	}
	if !sameCounts(t, b, want) {
		t.Fatal("documents sharing the kept buckets counted differently")
	}
}

// The bigram index numbers documents to tell its buckets' heads from the
// last document's; when the numbers wrap around it starts a new table
// rather than take a stale head for a current one.
func TestWordCoderBigramIndexWraps(t *testing.T) {
	words := strings.Fields("to be or not to be that is the question to be")
	var c WordCoder
	var d CodedDoc
	c.Code(&d, words, ngrams.Range{Min: 2, Max: 2}, nil)
	c.seen.doc = math.MaxUint32 // the next document is number 0 again
	b, want := NewBuilder(), NewBuilder()
	c.Code(&d, words, ngrams.Range{Min: 2, Max: 2}, nil)
	b.AddCoded(&d)
	want.AddWords(words, ngrams.Range{Min: 2, Max: 2}, nil)
	if c.seen.doc != 1 {
		t.Errorf("document number %d after wrapping, want 1", c.seen.doc)
	}
	if !sameCounts(t, b, want) {
		t.Error("counted differently after wrapping")
	}
}

// craftedWords returns 256 distinct 16-byte words that collided under any
// seed with the hash this package used before maphash (a linear
// rotate-and-xor): flipping bit 3 of byte k and bit 0 of byte 8+(k+4)%8
// cancelled out.
func craftedWords() []string {
	var out []string
	for mask := range 256 {
		w := []byte("aaaaaaaadddddddd")
		for k := range 8 {
			if mask&(1<<k) != 0 {
				w[k] ^= 0x08
				w[8+(k+4)%8] ^= 0x01
			}
		}
		out = append(out, string(w))
	}
	return out
}

func TestCraftedWordsDoNotCollide(t *testing.T) {
	words := craftedWords()
	v, err := NewVocabulary([]string{words[0], "zebra"})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range words[1:] {
		if id, ok := v.ID(w); ok {
			t.Fatalf("ID(%q) found term %d, %q", w, id, v.Term(int(id)))
		}
	}
}

// Emptying a builder by assigning its zero value also makes coders forget
// their numbers for it.
func TestWordCoderAfterBuilderReset(t *testing.T) {
	var c WordCoder
	var d CodedDoc
	b := NewBuilder()
	c.Code(&d, []string{"x", "y", "z"}, ngrams.Range{}, nil)
	b.AddCoded(&d)
	*b = Builder{}
	b.AddWords([]string{"p", "q", "r"}, ngrams.Range{}, nil)
	c.Code(&d, []string{"z", "y"}, ngrams.Range{}, nil)
	b.AddCoded(&d)
	vocab, X, err := Finish(Config{}, b)
	if err != nil {
		t.Fatal(err)
	}
	idx, _ := X.Row(1)
	var got []string
	for _, j := range idx {
		got = append(got, vocab.Term(int(j)))
	}
	if !slices.Equal(got, []string{"y", "z"}) {
		t.Errorf("second document counted as %q, want [y z]", got)
	}
}

// Rows of huge documents with few distinct terms do not strand the room
// reserved for them.
func TestHugeRowsReleaseReservedPages(t *testing.T) {
	words := slices.Repeat([]string{"a"}, 200000)
	b := NewBuilder()
	for range 20 {
		b.AddWords(words, ngrams.Range{Min: 1, Max: 2}, nil)
	}
	reserved := 0
	for _, p := range b.rows.pages {
		reserved += cap(p)
	}
	if limit := 2*len(words)*2 + rowPage; reserved > limit {
		t.Errorf("20 rows of 2 entries keep room for %d entries, want ≤ %d", reserved, limit)
	}
	if _, X, err := Finish(Config{}, b); err != nil || X.Rows != 20 || X.Data[0] != 200000 {
		t.Fatalf("counts wrong: %v", err)
	}
}

// A term of millions of words is handled without deep recursion.
func TestVeryLongTerm(t *testing.T) {
	long := strings.Repeat("a ", 1<<20) + "b"
	b := NewBuilder()
	b.Add([]string{long, "a a"})
	b.AddWords([]string{"a", long}, ngrams.Range{Min: 2, Max: 2}, nil)
	vocab, X, err := Finish(Config{}, b)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a a", "a " + long, long}
	if !slices.Equal(vocab.Terms(), want) || X.Rows != 2 {
		t.Fatalf("got %d terms", vocab.Len())
	}
}

// Spelling many terms at once, on several goroutines, gives back each
// term's own string.
func TestGramTableTerms(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var g gramTable
	var want []string
	var nodes []int32
	seen := map[string]bool{}
	for len(want) < 3*termsPart {
		var words []string
		for range 1 + r.IntN(3) {
			words = append(words, strings.Repeat(string(rune('a'+r.IntN(26))), 1+r.IntN(3))+string(rune('a'+r.IntN(26))))
		}
		s := strings.Join(words, " ")
		if seen[s] {
			continue
		}
		seen[s] = true
		want, nodes = append(want, s), append(nodes, g.term(s))
	}
	for i, n := range nodes {
		if g.termLen(n) != len(want[i]) {
			t.Fatalf("termLen of %q = %d", want[i], g.termLen(n))
		}
	}
	spelled := g.terms(nodes)
	got := spelled.Strings()
	if !slices.Equal(got, want) {
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("term %d of %d spelled %q, want %q", i, len(want), got[i], want[i])
			}
		}
		t.Fatalf("%d terms spelled, want %d", len(got), len(want))
	}
}

// Release must leave a CodedDoc holding no buffer a long document grew
// and no reference to its coder or the coder's terms, and ready to be
// coded again.
func TestCodedDocRelease(t *testing.T) {
	var c WordCoder
	var d CodedDoc
	long := make([]string, 2*keptDocBuffer)
	for i := range long {
		long[i] = fmt.Sprint("w", i)
	}
	c.Code(&d, long, ngrams.Range{Min: 1, Max: 3}, nil) // trigrams: words are kept too
	d.Release()
	if d.coder != nil || d.tab.Bytes != nil || d.tab.Ends != nil || d.Len() != 0 || cap(d.ids) > keptDocBuffer ||
		cap(d.grams) > keptDocBuffer || cap(d.words) > keptDocBuffer {
		t.Fatalf("after a long document Release keeps %d entries, %d term bytes, capacities %d/%d/%d",
			d.Len(), len(d.tab.Bytes), cap(d.ids), cap(d.grams), cap(d.words))
	}
	c.Code(&d, []string{"aa", "bb", "aa"}, ngrams.Range{Min: 1, Max: 2}, nil)
	capIDs := cap(d.ids)
	d.Release()
	if cap(d.ids) != capIDs {
		t.Errorf("Release dropped a short document's buffer (capacity %d, was %d)", cap(d.ids), capIDs)
	}
	b := NewBuilder()
	c.Code(&d, []string{"aa", "bb"}, ngrams.Range{Min: 1, Max: 1}, nil)
	b.AddCoded(&d)
	vocab, X, err := Finish(Config{}, b)
	if err != nil {
		t.Fatal(err)
	}
	if got := vocab.Terms(); !slices.Equal(got, []string{"aa", "bb"}) || X.NNZ() != 2 {
		t.Errorf("coded again after Release: terms %q, %d entries", got, X.NNZ())
	}
}

// A coded document spells its terms from the coder's copies, not from the
// text: a caller may reuse the text's memory before the builder adds it.
func TestCodedDocHoldsNoText(t *testing.T) {
	text := []byte("alpha beta gamma")
	words := strings.Fields(unsafe.String(&text[0], len(text))) // views of text
	var c WordCoder
	var d CodedDoc
	c.Code(&d, words, ngrams.Range{Min: 1, Max: 2}, nil)
	for i := range text {
		text[i] = 'x'
	}
	b := NewBuilder()
	b.AddCoded(&d)
	vocab, _, err := Finish(Config{}, b)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"alpha", "alpha beta", "beta", "beta gamma", "gamma"}
	if got := vocab.Terms(); !slices.Equal(got, want) {
		t.Errorf("terms after the text changed: %q, want %q", got, want)
	}
}
