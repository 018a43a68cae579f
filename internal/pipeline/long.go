package pipeline

import (
	"github.com/textnb/textnb/internal/ngrams"
	"github.com/textnb/textnb/internal/tokencore"
)

// A document longer than longText bytes is analyzed and counted in pieces
// of about pieceBytes, cut between words (tokencore.Core.Cut): the memory for
// its words and their n-grams is then that of a piece and of its distinct
// terms, not of its length. Its terms and counts are those of the whole.
// (Variables so that tests can cut short documents.)
var (
	longText   = 1 << 20
	pieceBytes = 256 << 10
)

// contextOf returns how many words before a piece n-grams of r that end
// in it may start from.
func contextOf(r ngrams.Range) int { return max(r.Min, r.Max, 1) - 1 }

// eachPiece analyzes text in pieces with tok and calls fn with each
// piece's words and extra terms: words[:from] are the last words before
// the piece, up to context of them. words and extra are scratch buffers,
// returned for reuse.
func eachPiece(tok tokencore.Worker, words, extra []string, text string, context int,
	fn func(words []string, from int, extra []string)) ([]string, []string) {
	words = words[:0]
	for text != "" {
		end := tokens.Cut(text, pieceBytes)
		from := len(words)
		words, extra = tok.Words(words, extra[:0], text[:end])
		fn(words, from, extra)
		words = words[:copy(words, words[len(words)-min(context, len(words)):])]
		text = text[end:]
	}
	return words, extra
}

// pieceRow appends the row of a piece of a document to idx and val: its
// n-grams that end in words[from:] and its extra terms (see
// vectorize.Vocabulary.TransformWordsFrom).
type pieceRow func(idx []int32, val []float64, words []string, from int, extra []string) ([]int32, []float64)

// rowSum adds up the rows of a long document's pieces. Its buffers hold
// the sum and the piece's row; the sum is merged into spare, then swapped.
type rowSum struct {
	idx, pieceIdx, spareIdx []int32
	val, pieceVal, spareVal []float64
}

// long returns the row of text, analyzed in pieces by tok with words and
// extra as scratch, and each piece's row made by row; the row is valid
// until the next call.
func (s *rowSum) long(tok tokencore.Worker, words, extra []string, text string, context int, row pieceRow) (idx []int32, val []float64, w, e []string) {
	s.idx, s.val = s.idx[:0], s.val[:0]
	w, e = eachPiece(tok, words, extra, text, context, func(words []string, from int, extra []string) {
		s.pieceIdx, s.pieceVal = row(s.pieceIdx[:0], s.pieceVal[:0], words, from, extra)
		s.add(s.pieceIdx, s.pieceVal)
	})
	return s.idx, s.val, w, e
}

// add merges the row idx, val (sorted columns) into the sum. A column
// whose values cancel stays, as in the row of the whole document.
func (s *rowSum) add(idx []int32, val []float64) {
	oi, ov := s.spareIdx[:0], s.spareVal[:0]
	i, j := 0, 0
	for i < len(s.idx) && j < len(idx) {
		switch a, b := s.idx[i], idx[j]; {
		case a < b:
			oi, ov = append(oi, a), append(ov, s.val[i])
			i++
		case a > b:
			oi, ov = append(oi, b), append(ov, val[j])
			j++
		default:
			oi, ov = append(oi, a), append(ov, s.val[i]+val[j])
			i, j = i+1, j+1
		}
	}
	oi, ov = append(append(oi, s.idx[i:]...), idx[j:]...), append(append(ov, s.val[i:]...), val[j:]...)
	s.spareIdx, s.spareVal, s.idx, s.val = s.idx, s.val, oi, ov
}

// release drops buffers a document with more than limit terms grew.
func (s *rowSum) release(limit int) {
	if cap(s.idx) > limit || cap(s.spareIdx) > limit || cap(s.pieceIdx) > limit {
		*s = rowSum{}
	}
}
