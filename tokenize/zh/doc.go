// Package zh segments Chinese text into words with the simplified Chinese
// dictionary embedded in github.com/go-ego/gse, and lists Chinese stopwords.
//
// The dictionary takes about a second and a large heap to load
// (docs/performance.md has the figures), so a Segmenter loads it lazily,
// once, on the first Cut of more than one character or on Load; programs
// that never see Han text never pay for it.
// Segmentation uses gse's shortest-path mode without the HMM, which is
// several times faster and keeps unknown words as single characters.
//
// The dictionary is compiled into the binary (go:embed), so a deployed
// program needs no module cache or data files. Building with gse's `ne`
// tag removes it; Load then reports ErrEmptyDictionary.
package zh
