package tokenize

import (
	"math/bits"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/textnb/textnb/tokenize/zh"
)

// A segmenter cuts a run of Han characters into words and appends them to
// dst; it must be safe for concurrent use. Package zh provides the one New
// uses.
type segmenter interface {
	Cut(dst []string, han string) []string
}

// Analyzer turns documents into terms as Config says (see the package
// documentation). It is safe for concurrent use; its cache (with stemming)
// is shared by all goroutines, and it keeps a pool of workers, whose
// scratch space and memory of words it borrows for each call.
type Analyzer struct {
	cfg   Config // with defaults
	seg   segmenter
	rules [len(scriptNames)]rules // by script
	join  bool                    // connectors join words (not SplitCompounds)
	// direct is set without stemming: words are checked in place, as views
	// of the (lowercased) text, and nothing is cached.
	direct bool
	cache  *termCache // nil when direct
	pool   sync.Pool  // of *worker
}

// state is a worker's scratch space and, with stemming, its memory of the
// words it has seen.
type state struct {
	seen  seenWords
	mask  []uint64 // word bits of the ASCII fast path
	low   []byte   // lowercased ASCII stretches, with stemming
	words []string
	runs  []string // Han runs, for character n-grams
	offs  []int
	grams gramBuf
}

// New returns an Analyzer for cfg that segments Han text with the
// process-wide zh.Default segmenter, which loads its dictionary only when
// the first Han run of more than one character arrives. Invalid values in
// cfg are clamped (see Config.Validate).
func New(cfg Config) *Analyzer {
	return newWithSegmenter(cfg, zh.Default())
}

// newWithSegmenter is New with a given Han segmenter. With a nil seg Han
// runs are not segmented, as with Config.NoHanWords.
func newWithSegmenter(cfg Config, seg segmenter) *Analyzer {
	cfg = cfg.withDefaults()
	cfg.WordNGrams = cfg.WordNGrams.clamp()
	cfg.HanChars = cfg.HanChars.clamp()
	a := &Analyzer{cfg: cfg, join: !cfg.SplitCompounds, direct: !cfg.Stem}
	if !a.direct {
		a.cache = newTermCache(cacheEntries)
	}
	if !cfg.NoHanWords {
		a.seg = seg
	}
	a.rules[scriptLatin].minLen, a.rules[scriptOther].minLen, a.rules[scriptHan].minLen = cfg.MinLen, cfg.MinLen, cfg.HanMinLen
	if cfg.Stopwords&EnglishStopwords != 0 {
		a.rules[scriptLatin].stop = isEnglishStopword
	}
	if cfg.Stopwords&ChineseStopwords != 0 {
		a.rules[scriptHan].stop = zh.IsStopword
	}
	a.pool.New = func() any {
		w := a.newWorker()
		w.st.seen.limit = maxPooledSeen
		return w
	}
	return a
}

// Config returns the configuration of a, with defaults filled in.
func (a *Analyzer) Config() Config { return a.cfg }

// Terms appends the terms of text to dst: its words in order, then its
// word n-grams (n = 2, 3, …), then the character n-grams of its Han runs.
// Unigram terms are views of text (or of lowercased copies of its
// stretches) or, with stemming, shared cached strings. The n-gram terms of
// one call share one allocation, so a caller that keeps a few of them for
// long should clone them (strings.Clone).
func (a *Analyzer) Terms(dst []string, text string) []string {
	w := a.pool.Get().(*worker)
	dst = w.Terms(dst, text)
	a.pool.Put(w)
	return dst
}

// unigrams appends the words of text to dst and keeps its Han runs in st.
// ASCII stretches take the fast path (asciiTerms); non-ASCII text takes the
// rune-at-a-time path, from the last break before it (so that NFKC sees a
// mark with the ASCII character it may compose with: '<' and U+0338 make
// '≮') up to where the text is ASCII again for a while (resumeAt), so that
// one curly quote does not slow the rest of a document.
func (a *Analyzer) unigrams(dst []string, st *state, text string) []string {
	lower := !a.cfg.KeepCase
	var low []byte // room for lowercased ASCII stretches, a few KiB at a time
	for {
		cut := firstNonASCII(text)
		if cut < len(text) {
			cut = lastBreak(text[:cut])
		}
		ascii := text[:cut] // what asciiTerms reads, lowercased unless KeepCase
		switch {
		case lower && a.direct: // words are views of the copies: each stretch gets its own
			ascii, low = lowerASCII(low, ascii, min(len(text), lowChunk))
		case lower: // terms come from the caches: every stretch reuses one buffer
			if len(st.low) < len(ascii) {
				st.low = make([]byte, max(len(ascii), lowChunk))
			}
			ascii, _ = lowerASCII(st.low, ascii, 0)
		}
		if dst = a.asciiTerms(dst, st, ascii); cut == len(text) {
			return dst
		}
		text = text[cut:]
		end := resumeAt(text)
		// NFKC comes before lowercasing: it may compose an ASCII capital
		// with the mark that follows it.
		slow := normalize(text[:end])
		if lower {
			slow = strings.ToLower(slow)
		}
		dst = a.unicodeTerms(dst, st, slow)
		text = text[end:]
	}
}

// isBreak reports an ASCII separator that is no connector: it ends any word
// before it, and nothing before it composes with it under NFKC.
func isBreak(c byte) bool { return asciiClass[c] == sepRune && !isConnector[c] }

// lastBreak returns the index of the last break of ASCII text, or 0.
func lastBreak(text string) int {
	i := len(text) - 1
	for i > 0 && !isBreak(text[i]) {
		i--
	}
	return max(i, 0)
}

// resumeRun is how many ASCII bytes must follow before the fast path takes
// over again: fewer would cut text with scattered ASCII (Chinese with
// digits, say) into pieces that cost more than they save.
const resumeRun = 64

// resumeAt returns where the fast path can take text back: at a break
// followed by at least resumeRun ASCII bytes (itself included), or
// len(text). A break at 0 does not count: the slow path must make progress.
func resumeAt(text string) int {
	for i := 1; i < len(text); i++ {
		if c := text[i]; c < utf8.RuneSelf && isBreak(c) { // the first break of an ASCII run
			n := firstNonASCII(text[i:min(i+resumeRun, len(text))]) // the fast path measures the rest
			if n == resumeRun {
				return i
			}
			i += n // to the non-ASCII byte that ends the run
		}
	}
	return len(text)
}

// asciiTerms is the fast path: it appends the terms of text, which is all
// ASCII and ends just before a break or at the end of the document. Words
// are the runs of wordMask's bits, taken 64 at a time from the bits where
// runs start and end.
func (a *Analyzer) asciiTerms(dst []string, st *state, text string) []string {
	st.mask = wordMask(st.mask, text, a.join)
	m, start := st.mask, -1       // start: of the run waiting for its end, or −1
	latin := a.rules[scriptLatin] // a copy, in registers; bytes are runes here
	var carry uint64              // the previous block's last bit
	for k, w := range m {
		if w == 0 { // no run is open: it would have set this block's first bit
			carry = 0
			continue
		}
		var next uint64 // the next block's first bit
		if k+1 < len(m) {
			next = m[k+1] & 1
		}
		base := k << 6
		starts, ends := w&^(w<<1|carry), w&^(w>>1|next<<63) // a run's first and last bits
		carry = w >> 63
		for ; ends != 0; ends &= ends - 1 {
			if start < 0 { // a run starts before it ends
				start = base + bits.TrailingZeros64(starts)
				starts &= starts - 1
			}
			end := base + bits.TrailingZeros64(ends) + 1
			switch t := text[start:end]; {
			case !a.direct:
				dst = a.word(dst, st, t, scriptLatin)
			case latin.keeps(t, len(t)):
				dst = append(dst, t)
			}
			start = -1
		}
		if starts != 0 { // a run that goes on into the next block
			start = base + bits.TrailingZeros64(starts)
		}
	}
	return dst
}

// unicodeTerms appends the terms of NFKC text.
func (a *Analyzer) unicodeTerms(dst []string, st *state, text string) []string {
	for tok, ok := nextToken(text, 0, a.join); ok; tok, ok = nextToken(text, tok.End, a.join) {
		w := text[tok.Start:tok.End]
		if tok.Script == scriptHan {
			dst = a.han(dst, st, w)
		} else {
			dst = a.word(dst, st, w, tok.Script)
		}
	}
	return dst
}

// word appends the term of word w of script s, if it has one: w itself
// when direct, else the term the caches or admits and stem give it. Only
// copies of w are kept, so it may be a view of scratch space.
func (a *Analyzer) word(dst []string, st *state, w string, s script) []string {
	switch {
	case len(w) < a.rules[s].minLen: // too short in bytes, so in runes: spare the caches
	case !a.direct:
		if t := a.termOf(st, w, s); t != "" {
			dst = append(dst, t)
		}
	case a.admits(w, s):
		dst = append(dst, w)
	}
	return dst
}

// han appends the words of a Han run and keeps the run for n-grams.
func (a *Analyzer) han(dst []string, st *state, run string) []string {
	if a.cfg.HanChars.Max > 0 {
		st.runs = append(st.runs, run)
	}
	switch {
	case a.seg != nil:
		st.words = a.seg.Cut(st.words[:0], run)
		for _, w := range st.words {
			dst = a.word(dst, st, w, scriptHan)
		}
	case a.cfg.HanChars.Max == 0: // the run is one word, as in scikit-learn
		dst = a.word(dst, st, run, scriptHan)
	}
	return dst
}

// lowChunk is the room unigrams makes at a time for lowercased ASCII
// stretches: a document whose curly quotes cut its ASCII text into many
// stretches then allocates about once per lowChunk bytes, not per stretch,
// and a mostly non-ASCII one no more than that.
const lowChunk = 4 << 10

// lowerASCII lowercases the ASCII letters of s. Without an upper-case one
// it returns s; else a copy at the front of buf, which it first replaces by
// a new one of at least room bytes if buf is too short, and the rest of
// buf. The copies are never written again: words are views of them.
func lowerASCII(buf []byte, s string, room int) (string, []byte) {
	i := firstUpper(s)
	if i == len(s) {
		return s, buf
	}
	if len(buf) < len(s) {
		buf = make([]byte, max(len(s), room))
	}
	b := buf[:len(s):len(s)]
	copy(b, s[:i])
	lowerInto(b[i:], s[i:])
	return unsafe.String(&b[0], len(b)), buf[len(s):]
}

// lowerTable maps each byte to itself, ASCII upper-case letters to lower.
var lowerTable = func() (t [256]byte) {
	for c := range t {
		t[c] = byte(c)
		if isUpper(byte(c)) {
			t[c] += 'a' - 'A'
		}
	}
	return t
}()

// termOf returns the term of key, a word after lowercasing, or "": from
// the words the worker has seen, else from the shared cache, else from
// filter. Only copies of key are kept, so it may be a view of scratch
// space. Words longer than maxCachedBytes are not cached.
func (a *Analyzer) termOf(st *state, key string, s script) string {
	if len(key) > maxCachedBytes {
		return a.filter(strings.Clone(key), s)
	}
	id, seen := st.seen.lookup(key)
	if seen {
		return st.seen.terms[id]
	}
	t, ok := a.cache.get(key)
	if !ok {
		k := strings.Clone(key)
		t = a.filter(k, s)
		a.cache.put(k, t)
	}
	st.seen.terms[id] = t
	return t
}

// filter returns the term of key, a word of script s after lowercasing, or
// "" when the rules drop it.
func (a *Analyzer) filter(key string, s script) string {
	switch {
	case !a.admits(key, s):
		return ""
	case s == scriptLatin && a.cfg.Stem:
		return stem(key)
	}
	return key
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
