package zh

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/go-ego/gse"
)

// ErrEmptyDictionary is returned by Load when the embedded dictionary holds
// no words, as happens when gse is built with the `ne` tag.
var ErrEmptyDictionary = errors.New("zh: embedded gse dictionary is empty (built with the ne tag?)")

// minTokens is far below the ~350,000 words of gse's zh_s dictionary and far
// above anything an empty or truncated dictionary could hold.
const minTokens = 100000

// probeWord must be a dictionary entry of its own.
const probeWord = "北京大学"

// maxChunk bounds the bytes handed to gse at once. gse needs about 20 bytes
// of scratch per input byte; a cut between chunks can only misplace the
// word boundary at the seam, once per 32 KB of unbroken Han text.
const maxChunk = 32 << 10

// A Segmenter cuts Chinese text into words. The zero value is ready to use:
// it loads the dictionary on the first Cut of more than one character, or
// on Load. It is safe for concurrent use.
type Segmenter struct {
	once   sync.Once
	loaded atomic.Bool
	err    error
	seg    gse.Segmenter
}

var defaultSegmenter Segmenter

// Default returns the process-wide Segmenter, which loads the dictionary
// when first asked to cut a run of more than one character.
func Default() *Segmenter { return &defaultSegmenter }

// Load loads the dictionary unless it has been loaded already and returns
// the error of that single attempt.
func (s *Segmenter) Load() error {
	s.once.Do(s.load)
	return s.err
}

// Loaded reports whether the dictionary has been loaded successfully.
func (s *Segmenter) Loaded() bool { return s.loaded.Load() }

func (s *Segmenter) load() {
	if err := loadEmbedded(&s.seg); err != nil {
		s.seg.Dict = nil
		s.err = err
		return
	}
	s.loaded.Store(true)
}

// loadEmbedded loads the simplified Chinese dictionary that gse embeds.
// LoadDict would look for files next to gse's source in the module cache,
// which a deployed binary does not have.
func loadEmbedded(seg *gse.Segmenter) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("zh: loading gse dictionary: panic: %v", r)
		}
	}()
	seg.SkipLog = true
	seg.NotLoadHMM = true // Cut never uses the HMM; its model is global state.
	if err := seg.LoadDictEmbed("zh_s"); err != nil {
		return fmt.Errorf("zh: loading gse dictionary: %w", err)
	}
	return checkDict(seg.Dictionary())
}

// checkDict guards against a dictionary that loaded without error but holds
// nothing useful.
func checkDict(d *gse.Dictionary) error {
	if d == nil || d.NumTokens() < minTokens {
		return ErrEmptyDictionary
	}
	if _, _, err := d.Value([]byte(probeWord)); err != nil {
		return fmt.Errorf("%w: %s not found", ErrEmptyDictionary, probeWord)
	}
	return nil
}

// Cut appends the words of han to dst and returns the extended slice. han is
// normally a run of Han characters, but any string is accepted: words are
// substrings of han in order, white space is dropped, and invalid UTF-8
// bytes are dropped and end the word before them. Without a dictionary
// (see Load) every character is a word.
func (s *Segmenter) Cut(dst []string, han string) []string {
	if oneChar(han) {
		return append(dst, han) // its only segmentation: no dictionary needed
	}
	if s.Load() != nil {
		return cutChars(dst, han)
	}
	for han != "" {
		n := validPrefix(han)
		for n > 0 {
			k := chunkLen(han[:n])
			dst = s.cutValid(dst, han[:k])
			han, n = han[k:], n-k
		}
		if han != "" {
			han = han[1:] // an invalid byte
		}
	}
	return dst
}

// cutValid segments valid UTF-8 text.
func (s *Segmenter) cutValid(dst []string, text string) []string {
	for _, sg := range s.seg.Segment([]byte(text)) {
		if w := text[sg.Start():sg.End()]; !isSpace(w) {
			dst = append(dst, w)
		}
	}
	return dst
}

// oneChar reports whether s is one valid character other than white
// space. A stray Han character in other text, such as mojibake in an
// English corpus, then costs no dictionary load.
func oneChar(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return n == len(s) && n > 0 && r != utf8.RuneError && !unicode.IsSpace(r)
}

// cutChars makes every character of text a word.
func cutChars(dst []string, text string) []string {
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !(r == utf8.RuneError && n == 1) && !unicode.IsSpace(r) {
			dst = append(dst, text[i:i+n])
		}
		i += n
	}
	return dst
}

// validPrefix returns the length of the longest valid UTF-8 prefix of s.
func validPrefix(s string) int {
	if utf8.ValidString(s) {
		return len(s)
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(s)
}

// chunkLen returns the length of the first chunk of valid text: at most
// maxChunk bytes, ending on a character boundary.
func chunkLen(s string) int {
	if len(s) <= maxChunk {
		return len(s)
	}
	n := maxChunk
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// isSpace reports whether w consists of white space only.
func isSpace(w string) bool {
	for _, r := range w {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}
