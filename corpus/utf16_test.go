package corpus

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"
)

// encodeUTF16 returns s in UTF-16 with a byte order mark.
func encodeUTF16(s string, bigEndian bool) []byte {
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

func TestDecodeUTF16(t *testing.T) {
	text := "good great happy 中文 𝄞 café"
	for _, c := range []struct {
		name string
		in   []byte
		want string
		enc  Encoding
	}{
		{"le", encodeUTF16(text, false), text, UTF16LE},
		{"be", encodeUTF16(text, true), text, UTF16BE},
		{"bom only", []byte(bomLE), "", UTF16LE},
		{"odd byte", append(encodeUTF16("ab", false), 'c'), "ab\ufffd", UTF16LE},
		{"lone high surrogate", append(encodeUTF16("a", false), 0x3d, 0xd8, 'b', 0), "a\ufffdb", UTF16LE},
		{"lone low surrogate", append(encodeUTF16("a", true), 0xdc, 0x00), "a\ufffd", UTF16BE},
		{"high surrogate at end", append(encodeUTF16("a", false), 0x3d, 0xd8), "a\ufffd", UTF16LE},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, enc := Decode(c.in); got != c.want || enc != c.enc {
				t.Errorf("Decode = %q, %v; want %q, %v", got, enc, c.want, c.enc)
			}
			if got, enc := decodeString(string(c.in)); got != c.want || enc != c.enc {
				t.Errorf("decodeString = %q, %v; want %q, %v", got, enc, c.want, c.enc)
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
		src := encodeUTF16(text, be)[2:]
		for name, r := range map[string]io.Reader{"whole": bytes.NewReader(src), "bytes": iotest.OneByteReader(bytes.NewReader(src))} {
			got, err := io.ReadAll(newUTF16Reader(r, enc))
			if err != nil || string(got) != text {
				t.Errorf("%v %s: %d bytes, %v; want %d bytes", enc, name, len(got), err, len(text))
			}
		}
	}
}

// TestUTF16Files reads a document "good great happy" saved as UTF-16 in
// every format: folder files, .tsv, .csv and .jsonl lines.
func TestUTF16Files(t *testing.T) {
	for _, be := range []bool{false, true} {
		enc := UTF16LE
		if be {
			enc = UTF16BE
		}
		t.Run(enc.String(), func(t *testing.T) {
			dir := t.TempDir()
			u := func(s string) string { return string(encodeUTF16(s, be)) }
			write(t, dir, "folder/pos/a.txt", u("good great happy"))
			write(t, dir, "folder/neg/b.txt", u("bad 糟糕"))
			for path, want := range map[string][]string{
				dir + "/folder": {"folder/neg/b.txt neg|bad 糟糕", "folder/pos/a.txt pos|good great happy"},
				write(t, dir, "d.tsv", u("label\ttext\r\npos\tgood great happy\r\nneg\tbad 糟糕\r\n")): {
					"d.tsv:2 pos|good great happy", "d.tsv:3 neg|bad 糟糕"},
				write(t, dir, "d.csv", u("label,text\npos,good great happy\nneg,\"bad\n糟糕\"\n")): {
					"d.csv:2 pos|good great happy", "d.csv:3 neg|bad\n糟糕"},
				write(t, dir, "d.jsonl", u(`{"label":"pos","text":"good great happy"}`+"\n"+`{"label":"neg","text":"bad 糟糕"}`)): {
					"d.jsonl:1 pos|good great happy", "d.jsonl:2 neg|bad 糟糕"},
			} {
				var docs []Document
				st, err := WalkStats(path, Options{Workers: 2}, func(d Document) error { docs = append(docs, d); return nil })
				if err != nil {
					t.Fatal(err)
				}
				if got := brief(dir, docs); !reflect.DeepEqual(got, want) {
					t.Errorf("%s:\n got %q\nwant %q", path, got, want)
				}
				if want := map[Encoding]int{enc: 2}; !reflect.DeepEqual(st.Encodings, want) {
					t.Errorf("%s: encodings %v, want %v", path, st.Encodings, want)
				}
			}
		})
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
		"utf16":     {encodeUTF16("a\r\n\nb "+long+"\ncafé", true), []string{"a", "", "b " + long, "café"}, UTF16BE},
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
// comes in memory of its own and of its size, and that a TSV line taken
// over that way is not changed by reading the next.
func TestLongLineOwnsItsMemory(t *testing.T) {
	long := strings.Repeat("x", 3*longBlock+12345)
	br, _ := textReader(strings.NewReader("a\t" + long + "\r\nb\tnext\n"))
	lr := lineReader{r: br}
	line, owned, err := lr.next()
	if err != nil || !owned || string(line) != "a\t"+long || cap(line) != len(line)+2 {
		t.Fatalf("long line: owned %v, len %d, cap %d, err %v", owned, len(line), cap(line), err)
	}
	line, owned, err = lr.next()
	if err != nil || owned || string(line) != "b\tnext" {
		t.Errorf("next line %q, owned %v, %v", line, owned, err)
	}
	dir := t.TempDir()
	p := write(t, dir, "d.tsv", "a\t"+long+"\nb\tnext\n")
	docs := mustReadAll(t, p, Options{})
	if len(docs) != 2 || docs[0].Text != long || docs[1].Text != "next" {
		t.Errorf("TSV with a long line misread: %d docs", len(docs))
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
		"utf16.txt":  {string(encodeUTF16("good great happy", true)), "good great happy", UTF16BE},
		"latin1.txt": {"caf\xe9", "café", Latin1},
	} {
		text, enc, err := ReadFile(write(t, dir, name, c.content))
		if err != nil || text != c.want || enc != c.enc {
			t.Errorf("%s: %q, %v, %v; want %q, %v", name, text, enc, err, c.want, c.enc)
		}
	}
	_, _, err := ReadFile(dir + "/missing.txt")
	errorMentions(t, err, "missing.txt")
}
