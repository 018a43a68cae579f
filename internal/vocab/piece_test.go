package vocab

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/textnb/textnb/internal/featurehash"
	"github.com/textnb/textnb/internal/ngrams"
)

// piece is one piece of a document cut for counting in pieces: the words
// of the piece before that n-grams may start from (the first from words),
// its own words, and its extra terms.
type piece struct {
	words []string
	from  int
	extra []string
}

// cutPieces cuts words at random places into pieces, each led by the last
// hi-1 words before it, and spreads extra over them.
func cutPieces(r *rand.Rand, words, extra []string, hi int) []piece {
	var ps []piece
	for i, j := 0, 0; i < len(words) || j < len(extra) || len(ps) == 0; {
		n, m := r.IntN(len(words)-i+1), r.IntN(len(extra)-j+1)
		if r.IntN(3) == 0 { // and then the rest
			n, m = len(words)-i, len(extra)-j
		}
		ctx := words[max(0, i-hi+1):i]
		ps = append(ps, piece{words: append(slices.Clone(ctx), words[i:i+n]...), from: len(ctx), extra: extra[j : j+m]})
		i, j = i+n, j+m
	}
	return ps
}

// longWords is a document of n words over a vocabulary of k.
func longWords(r *rand.Rand, n, k int) []string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprint("w", r.IntN(k))
	}
	return w
}

// TestCodePieces checks that a document coded in pieces is the document
// coded whole: the same terms in the same order, the same grams, so that
// the builder numbers and counts them alike; also across a growing
// bigram index and with a coder reused between documents.
func TestCodePieces(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	words, extra := gramDocs(5)
	words, extra = append(words, longWords(r, 30000, 3000)), append(extra, longWords(r, 500, 100))
	for _, ng := range []ngrams.Range{{}, {Min: 1, Max: 2}, {Min: 2, Max: 2}, {Min: 1, Max: 3}, {Min: 2, Max: 4}, {Min: 3, Max: 1}} {
		_, hi := ng.Bounds()
		var whole, pieces WordCoder
		wantB, gotB := NewBuilder(), NewBuilder()
		for i := range words {
			var want, got CodedDoc
			whole.Code(&want, words[i], ng, extra[i])
			pieces.Start(&got, ng)
			for _, p := range cutPieces(r, words[i], extra[i], hi) {
				pieces.Piece(&got, p.words, p.from, p.extra)
			}
			pieces.Finish(&got)
			if !sameCoded(&got, &want) {
				t.Fatalf("%v doc %d: coded in pieces %v, whole %v", ng, i, spell(&got), spell(&want))
			}
			wantB.AddCoded(&want)
			gotB.AddCoded(&got)
		}
		if !sameCounts(t, gotB, wantB) {
			t.Fatalf("%v: counted in pieces differently", ng)
		}
	}
}

func sameCoded(a, b *CodedDoc) bool {
	return slices.Equal(spell(a), spell(b)) && slices.Equal(a.grams, b.grams) && slices.Equal(a.words, b.words) &&
		a.longLo == b.longLo && a.longHi == b.longHi
}

// spell returns the terms of d in its order.
func spell(d *CodedDoc) []string {
	s := make([]string, len(d.ids))
	for i, id := range d.ids {
		s[i] = d.tab.Term(id)
	}
	return s
}

// TestTransformPieces checks that the rows of a document's pieces, summed,
// are the row of the whole document, with a vocabulary and with hashing.
func TestTransformPieces(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	words, extra := gramDocs(6)
	words, extra = append(words, longWords(r, 3000, 300)), append(extra, longWords(r, 50, 10))
	var all []string
	for i := range words {
		all = append(all, joinGrams(words[i], ngrams.Range{Min: 1, Max: 4}, extra[i])...)
	}
	v := packTerms(all[:len(all)/2]) // some terms known, some not
	for _, ng := range []ngrams.Range{{}, {Min: 1, Max: 2}, {Min: 2, Max: 2}, {Min: 1, Max: 3}, {Min: 2, Max: 4}} {
		_, hi := ng.Bounds()
		transforms := map[string]func(words []string, from int, extra []string) ([]int32, []float64){
			"vocabulary": func(words []string, from int, extra []string) ([]int32, []float64) {
				idx, val, _ := v.TransformWordsFrom(nil, nil, nil, words, from, ng, extra)
				return idx, val
			},
		}
		for _, h := range []featurehash.Hashing{{Features: 64}, {Features: 1 << 20, AlternateSign: true}} {
			transforms[fmt.Sprintf("%+v", h)] = func(words []string, from int, extra []string) ([]int32, []float64) {
				idx, val, _ := h.TransformWordsFrom(nil, nil, nil, words, from, ng, extra)
				return idx, val
			}
		}
		for i := range words {
			ps := cutPieces(r, words[i], extra[i], hi)
			for name, transform := range transforms {
				wantIdx, wantVal := transform(words[i], 0, extra[i])
				sum := map[int32]float64{}
				for _, p := range ps {
					idx, val := transform(p.words, p.from, p.extra)
					for k, id := range idx {
						sum[id] += val[k]
					}
				}
				if !sameRow(sum, wantIdx, wantVal) {
					t.Fatalf("%s, %v doc %d: pieces sum to %d columns, whole %d", name, ng, i, len(sum), len(wantIdx))
				}
			}
		}
	}
}

// sameRow reports whether sum holds the row idx, val: the same columns
// (signed hashing keeps a column whose values cancel) with the same values.
func sameRow(sum map[int32]float64, idx []int32, val []float64) bool {
	if len(sum) != len(idx) {
		return false
	}
	for k, id := range idx {
		if v, ok := sum[id]; !ok || v != val[k] {
			return false
		}
	}
	return true
}
