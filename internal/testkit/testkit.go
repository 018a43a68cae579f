// Package testkit holds the small helpers that the tests of several
// packages share: writing files, checking error messages, encoding text
// and models, and generating inputs. Only tests use it. It imports no
// package of this module except internal/golden, so that the tests of any
// package (inside the package or not) can use it without an import cycle.
package testkit

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"golang.org/x/text/encoding/simplifiedchinese"

	"github.com/textnb/textnb/internal/golden"
)

// Write creates dir/name (and its parents) holding content and returns its path.
func Write(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// ErrorMentions checks that err is non-nil and its message holds every part.
func ErrorMentions(t testing.TB, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one mentioning %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not mention %q", err, p)
		}
	}
}

// EncodeUTF16 returns s in UTF-16 with a byte order mark.
func EncodeUTF16(s string, bigEndian bool) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune("\ufeff" + s)) {
		if bigEndian {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

// GBK returns s encoded as GBK.
func GBK(t testing.TB, s string) []byte {
	t.Helper()
	b, err := simplifiedchinese.GBK.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatalf("encoding %q as GBK: %v", s, err)
	}
	return b
}

// Encode returns the model file of m.
func Encode(t testing.TB, m io.WriterTo) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Dense returns the rows×cols matrix whose row i has the entries row(i)
// gives, as column ids and values; it takes a sparse matrix's Row method,
// so that it serves every CSR type.
func Dense(rows, cols int, row func(i int) ([]int32, []float64)) [][]float64 {
	out := make([][]float64, rows)
	for i := range out {
		out[i] = make([]float64, cols)
		idx, val := row(i)
		for k, j := range idx {
			out[i][j] = val[k]
		}
	}
	return out
}

// Ints converts rows of integral floats, such as golden category ids, to ints.
func Ints(rows [][]float64) [][]int {
	out := make([][]int, len(rows))
	for r, row := range rows {
		out[r] = make([]int, len(row))
		for i, v := range row {
			out[r][i] = int(v)
		}
	}
	return out
}

// Labels returns n class labels drawn uniformly from [0, k).
func Labels(r *rand.Rand, n, k int) []int {
	y := make([]int, n)
	for i := range y {
		y[i] = r.IntN(k)
	}
	return y
}

// ZipfDocs returns n documents of about length terms drawn from a Zipf law
// over a vocabulary of size words.
func ZipfDocs(seed uint64, n, length, size int) [][]string {
	r := rand.New(rand.NewPCG(seed, 7))
	words := make([]string, size)
	for i := range words {
		words[i] = fmt.Sprintf("w%x", r.Uint32())
	}
	z := rand.NewZipf(r, 1.1, 2, uint64(size-1))
	docs := make([][]string, n)
	for i := range docs {
		docs[i] = make([]string, r.IntN(2*length+1))
		for k := range docs[i] {
			docs[i][k] = words[z.Uint64()]
		}
	}
	return docs
}

// TextGoldenCases returns the nine golden cases of the text models (mnb_*,
// cnb_*, bnb_*), failing the test if any is missing.
func TextGoldenCases(t testing.TB) []golden.Case {
	t.Helper()
	var out []golden.Case
	for _, c := range golden.Load(t).Cases {
		if strings.HasPrefix(c.Name, "mnb_") || strings.HasPrefix(c.Name, "cnb_") || strings.HasPrefix(c.Name, "bnb_") {
			out = append(out, c)
		}
	}
	if len(out) != 9 {
		t.Fatalf("found %d text golden cases, want 9", len(out))
	}
	return out
}

// NonZero returns the column ids and values of the non-zero entries of a
// dense row, as a sparse matrix's AppendRow takes them.
func NonZero(dense []float64) (idx []int32, val []float64) {
	for j, v := range dense {
		if v != 0 {
			idx, val = append(idx, int32(j)), append(val, v)
		}
	}
	return idx, val
}

// SpamLike returns n ham and spam messages' labels and texts in their time
// order, a third of them spam, each a subject line with words of the other
// class and rare ones mixed in: a corpus for online evaluation.
func SpamLike(n int, seed uint64) (labels, texts []string) {
	r := rand.New(rand.NewPCG(seed, 7))
	vocab := map[string][]string{
		"ham":  strings.Fields("meeting gas schedule report attached deal price contract monday team enron call"),
		"spam": strings.Fields("cheap viagra offer click free money winner price deal now pills save"),
	}
	for range n {
		label, other := "ham", "spam"
		if r.IntN(3) == 0 {
			label, other = "spam", "ham"
		}
		var b strings.Builder
		b.WriteString("Subject: ")
		for k := range 4 + r.IntN(8) {
			if k > 0 {
				b.WriteByte(' ')
			}
			switch words := vocab[label]; r.IntN(8) {
			case 0: // a word of the other class, or a rare one
				words = vocab[other]
				b.WriteString(words[r.IntN(len(words))])
			case 1:
				fmt.Fprintf(&b, "w%d", r.IntN(40))
			default:
				b.WriteString(words[r.IntN(len(words))])
			}
		}
		labels, texts = append(labels, label), append(texts, b.String())
	}
	return labels, texts
}
