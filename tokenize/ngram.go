package tokenize

// gramBuf collects the n-grams of one document in one byte buffer, so that
// they cost one string allocation per document instead of one each.
type gramBuf struct {
	buf  []byte
	ends []int
}

func (g *gramBuf) add(s string) {
	g.buf = append(g.buf, s...)
	g.ends = append(g.ends, len(g.buf))
}

// addJoined adds words joined by single spaces, as scikit-learn joins them.
func (g *gramBuf) addJoined(words []string) {
	for i, w := range words {
		if i > 0 {
			g.buf = append(g.buf, ' ')
		}
		g.buf = append(g.buf, w...)
	}
	g.ends = append(g.ends, len(g.buf))
}

// appendTo appends the n-grams to dst as substrings of one new string.
func (g *gramBuf) appendTo(dst []string) []string {
	if len(g.ends) == 0 {
		return dst
	}
	s, prev := string(g.buf), 0
	for _, end := range g.ends {
		dst = append(dst, s[prev:end])
		prev = end
	}
	return dst
}

// ngrams appends the word n-grams of the unigrams dst[start:] and the
// character n-grams of the Han runs, then drops the unigrams if the word
// range starts above 1.
func (a *Analyzer) ngrams(dst []string, start int, st *state) []string {
	wn := a.cfg.WordNGrams
	if wn.Max <= 1 && len(st.runs) == 0 {
		return dst
	}
	g := &st.grams
	uni := dst[start:]
	for n := max(wn.Min, 2); n <= wn.Max; n++ {
		for i := 0; i+n <= len(uni); i++ {
			g.addJoined(uni[i : i+n])
		}
	}
	for _, run := range st.runs {
		a.charGrams(g, st, run)
	}
	nUni := len(uni)
	dst = g.appendTo(dst)
	if wn.Min > 1 {
		dst = append(dst[:start], dst[start+nUni:]...)
	}
	return dst
}

// charGrams adds the character n-grams of one Han run.
func (a *Analyzer) charGrams(g *gramBuf, st *state, run string) {
	st.offs = st.offs[:0]
	for i := range run {
		st.offs = append(st.offs, i)
	}
	st.offs = append(st.offs, len(run))
	runes := len(st.offs) - 1
	for n := a.cfg.HanChars.Min; n <= a.cfg.HanChars.Max; n++ {
		for i := 0; i+n <= runes; i++ {
			gram := run[st.offs[i]:st.offs[i+n]]
			if !a.stopped(gram, scriptHan) {
				g.add(gram)
			}
		}
	}
}

// maxKeptBuffer bounds the scratch buffers a worker keeps, so that one
// huge document does not pin its buffers for good.
const maxKeptBuffer = 1 << 20

// reset empties st for reuse and drops references into the last document;
// the words seen stay.
func (st *state) reset() {
	clear(st.words[:cap(st.words)])
	clear(st.runs[:cap(st.runs)])
	st.words, st.runs = st.words[:0], st.runs[:0]
	st.grams.buf, st.grams.ends = st.grams.buf[:0], st.grams.ends[:0]
	if cap(st.grams.buf) > maxKeptBuffer || cap(st.low) > maxKeptBuffer || cap(st.words) > maxKeptBuffer/16 ||
		cap(st.grams.ends) > maxKeptBuffer/8 || cap(st.offs) > maxKeptBuffer/8 || cap(st.mask) > maxKeptBuffer/8 {
		*st = state{seen: st.seen}
	}
}
