package textfile

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/textnb/textnb/internal/testkit"
)

func TestDecodeUTF16(t *testing.T) {
	text := "good great happy 中文 𝄞 café"
	for _, c := range []struct {
		name string
		in   []byte
		want string
		enc  Encoding
	}{
		{"le", testkit.EncodeUTF16(text, false), text, UTF16LE},
		{"be", testkit.EncodeUTF16(text, true), text, UTF16BE},
		{"bom only", []byte(bomLE), "", UTF16LE},
		{"odd byte", append(testkit.EncodeUTF16("ab", false), 'c'), "ab\ufffd", UTF16LE},
		{"lone high surrogate", append(testkit.EncodeUTF16("a", false), 0x3d, 0xd8, 'b', 0), "a\ufffdb", UTF16LE},
		{"lone low surrogate", append(testkit.EncodeUTF16("a", true), 0xdc, 0x00), "a\ufffd", UTF16BE},
		{"high surrogate at end", append(testkit.EncodeUTF16("a", false), 0x3d, 0xd8), "a\ufffd", UTF16LE},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, enc := Decode(c.in); got != c.want || enc != c.enc {
				t.Errorf("Decode = %q, %v; want %q, %v", got, enc, c.want, c.enc)
			}
			if got, enc := DecodeString(string(c.in)); got != c.want || enc != c.enc {
				t.Errorf("DecodeString = %q, %v; want %q, %v", got, enc, c.want, c.enc)
			}
		})
	}
}

// TestUTF16Reader transcodes a stream that arrives a byte at a time, so
// that surrogate pairs and code units are split across reads.
func TestUTF16Reader(t *testing.T) {
	text := strings.Repeat("a𝄞中\n", 5000)
	for _, be := range []bool{false, true} {
		enc := UTF16LE
		if be {
			enc = UTF16BE
		}
		src := testkit.EncodeUTF16(text, be)[2:]
		for name, r := range map[string]io.Reader{"whole": bytes.NewReader(src), "bytes": iotest.OneByteReader(bytes.NewReader(src))} {
			got, err := io.ReadAll(newUTF16Reader(r, enc))
			if err != nil || string(got) != text {
				t.Errorf("%v %s: %d bytes, %v; want %d bytes", enc, name, len(got), err, len(text))
			}
		}
	}
}

// TestLineReader reads lines of any length, keeps blank lines, strips
// "\r\n" and byte order marks, and goes on after a line far longer than
// its buffer.
func TestLineReader(t *testing.T) {
	long := strings.Repeat("word ", 700_000) // several blocks
	for name, c := range map[string]struct {
		in   []byte
		want []string
		enc  Encoding
	}{
		"utf8":      {[]byte("\ufeffa\r\n\nb " + long + "\ncaf\xe9"), []string{"a", "", "b " + long, "café"}, UTF8},
		"utf16":     {testkit.EncodeUTF16("a\r\n\nb "+long+"\ncafé", true), []string{"a", "", "b " + long, "café"}, UTF16BE},
		"no ending": {[]byte("x"), []string{"x"}, UTF8},
		"empty":     {nil, nil, UTF8},
	} {
		t.Run(name, func(t *testing.T) {
			lr := NewLineReader(bytes.NewReader(c.in))
			var got []string
			for {
				text, num, enc, err := lr.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if num != len(got)+1 {
					t.Errorf("line %d numbered %d", len(got)+1, num)
				}
				if c.enc != UTF8 && enc != c.enc {
					t.Errorf("line %d: encoding %v, want %v", num, enc, c.enc)
				}
				got = append(got, text)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %d lines %.40q, want %d", len(got), got, len(c.want))
			}
		})
	}
}

// TestLongLineOwnsItsMemory checks that a line longer than the buffer
// comes in memory of its own and of its size (corpus's TestTSVLongLineOwnsItsMemory
// checks that a TSV line taken over that way is not changed by reading the next).
func TestLongLineOwnsItsMemory(t *testing.T) {
	long := strings.Repeat("x", 3*longBlock+12345)
	br, _ := NewReader(strings.NewReader("a\t" + long + "\r\nb\tnext\n"))
	lr := NewLines(br)
	line, owned, err := lr.Next()
	if err != nil || !owned || string(line) != "a\t"+long || cap(line) != len(line)+2 {
		t.Fatalf("long line: owned %v, len %d, cap %d, err %v", owned, len(line), cap(line), err)
	}
	line, owned, err = lr.Next()
	if err != nil || owned || string(line) != "b\tnext" {
		t.Errorf("next line %q, owned %v, %v", line, owned, err)
	}
}

// TestReadFile reads one document file in each encoding, and names a file
// it cannot read.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct {
		content, want string
		enc           Encoding
	}{
		"utf8.txt":   {"\ufeffnaïve 中文", "naïve 中文", UTF8},
		"utf16.txt":  {string(testkit.EncodeUTF16("good great happy", true)), "good great happy", UTF16BE},
		"latin1.txt": {"caf\xe9", "café", Latin1},
	} {
		text, enc, err := ReadFile(testkit.Write(t, dir, name, c.content))
		if err != nil || text != c.want || enc != c.enc {
			t.Errorf("%s: %q, %v, %v; want %q, %v", name, text, enc, err, c.want, c.enc)
		}
	}
	_, _, err := ReadFile(dir + "/missing.txt")
	testkit.ErrorMentions(t, err, "missing.txt")
}
