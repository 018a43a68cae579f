package vocab

import (
	"slices"
	"testing"

	"github.com/textnb/textnb/internal/sparse"
	"github.com/textnb/textnb/internal/testkit"
)

// TestPrunedMatchesFinish checks that the rows and terms of a Pruned, mapped
// to final ids, are those of Finish, for one and several shards, with and
// without consuming the builders, while Vocabulary runs concurrently with
// Row.
func TestPrunedMatchesFinish(t *testing.T) {
	docs := testkit.ZipfDocs(3, 250, 40, 1500)
	docs[9] = nil
	cfgs := []Config{{}, {MinDF: 2}, {MaxDF: 0.3}, {MinDF: 2, MaxFeatures: 80}, {MaxFeatures: 5000, Binary: true}}
	for _, cfg := range cfgs {
		for _, nShards := range []int{1, 3} {
			for _, consume := range []bool{false, true} {
				shards := make([]*Builder, nShards)
				for k := range shards {
					shards[k] = NewBuilder()
					for _, d := range docs[k*len(docs)/nShards : (k+1)*len(docs)/nShards] {
						shards[k].Add(d)
					}
				}
				c, err := Merge(shards...)
				if err != nil {
					t.Fatal(err)
				}
				want, X, err := c.Finish(cfg)
				if err != nil {
					t.Fatal(err)
				}
				prune := c.Prune
				if consume {
					prune = c.PruneConsume
				}
				p, err := prune(cfg)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%+v shards %d consume %v", cfg, nShards, consume)
				checkPruned(t, p, want, X)
				checkProvisionalOrder(t, p.Provisional().Terms(), nShards, docs)
			}
		}
	}
}

// checkProvisionalOrder checks that provisional ids follow the order in
// which one builder first saw the terms (docs hold no n-grams, so that is
// the order of first occurrence), and sorted order across several.
func checkProvisionalOrder(t *testing.T, terms []string, shards int, docs [][]string) {
	t.Helper()
	if shards > 1 {
		if !slices.IsSorted(terms) {
			t.Fatal("several shards: provisional terms not sorted")
		}
		return
	}
	first := map[string]int{}
	for _, d := range docs {
		for _, w := range d {
			if _, ok := first[w]; !ok {
				first[w] = len(first)
			}
		}
	}
	for i := 1; i < len(terms); i++ {
		if first[terms[i-1]] >= first[terms[i]] {
			t.Fatalf("one shard: provisional term %d %q was first seen before term %d %q", i, terms[i], i-1, terms[i-1])
		}
	}
}

func checkPruned(t *testing.T, p *Pruned, want *Vocabulary, X *sparse.CSR) {
	t.Helper()
	if p.Len() != want.Len() || p.Rows() != X.Rows {
		t.Fatalf("%d terms × %d rows, want %d × %d", p.Len(), p.Rows(), want.Len(), X.Rows)
	}
	done := make(chan struct{})
	var v *Vocabulary
	var final []int32
	go func() { v, final = p.Vocabulary(); close(done) }()
	rows := make([][]int32, X.Rows)
	vals := make([][]float64, X.Rows)
	for i := range X.Rows {
		rows[i], vals[i] = p.Row(i, nil, nil)
		// Row appends: what the buffers held stays, whatever their lengths.
		idx, val := p.Row(i, []int32{-7}, []float64{-7, -8})
		if idx[0] != -7 || val[0] != -7 || val[1] != -8 || !slices.Equal(idx[1:], rows[i]) || !slices.Equal(val[2:], vals[i]) {
			t.Fatalf("row %d appended to buffers holding 1 and 2 entries: %v %v, want them before %v %v", i, idx, val, rows[i], vals[i])
		}
	}
	<-done
	if !slices.Equal(v.Terms(), want.Terms()) {
		t.Fatalf("terms differ from Finish's")
	}
	prov := p.Provisional() // the terms under the ids Row gives
	if prov.Len() != p.Len() {
		t.Fatalf("Provisional has %d terms, want %d", prov.Len(), p.Len())
	}
	for id := range p.Len() {
		if prov.Term(id) != v.Term(int(final[id])) {
			t.Fatalf("provisional term %d is %q, want %q", id, prov.Term(id), v.Term(int(final[id])))
		}
	}
	wantDF := X.ColumnCounts(nil)
	for id, df := range p.DF() {
		if int64(wantDF[final[id]]) != df {
			t.Fatalf("term %d: df %d, want %d", id, df, wantDF[final[id]])
		}
	}
	for i := range X.Rows {
		type entry struct {
			j int32
			v float64
		}
		got := make([]entry, len(rows[i]))
		for k, id := range rows[i] {
			got[k] = entry{final[id], vals[i][k]}
		}
		slices.SortFunc(got, func(a, b entry) int { return int(a.j - b.j) })
		idx, val := X.Row(i)
		if len(got) != len(idx) {
			t.Fatalf("row %d: %d entries, want %d", i, len(got), len(idx))
		}
		for k := range got {
			if got[k].j != idx[k] || got[k].v != val[k] {
				t.Fatalf("row %d entry %d: %v, want (%d, %g)", i, k, got[k], idx[k], val[k])
			}
		}
	}
}

func TestPrunedErrors(t *testing.T) {
	var b Builder
	b.Add([]string{"a", "b"})
	c, err := Merge(&b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Prune(Config{MinDF: 2}); err == nil {
		t.Fatal("no error when min_df leaves no terms")
	}
	if _, err := c.Prune(Config{MinDF: -1}); err == nil {
		t.Fatal("no error for a negative min_df")
	}
}

func TestRankSet(t *testing.T) {
	members := []int32{0, 3, 63, 64, 65, 127, 200}
	s := newRankSet(201, members)
	for id := range int32(201) {
		below, found := slices.BinarySearch(members, id)
		if got, in := s.rankOf(id); got != int32(below) || (in == 1) != found {
			t.Fatalf("rankOf(%d) = %d, %d; want %d, %t", id, got, in, below, found)
		}
	}
}
