package mail

import (
	"bytes"
	"io"
	"mime"
	"strings"
	"unicode/utf8"

	"github.com/textnb/textnb/internal/mailfile"

	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/transform"

	"github.com/textnb/textnb/internal/textfile"
)

// field is one header field: its name lowercased and its raw value, the
// continuation lines unfolded.
type field struct{ name, value string }

type header []field

// get returns the value of the first field named name (lowercase), or "".
func (h header) get(name string) string {
	for _, f := range h {
		if f.name == name {
			return f.value
		}
	}
	return ""
}

func (h header) has(name string) bool {
	for _, f := range h {
		if f.name == name {
			return true
		}
	}
	return false
}

// splitHeader parses the header block at the start of msg and returns it
// with the body that follows the blank line after it. A line that is
// neither a field nor a continuation ends the block early (the message is
// then damaged, and the line starts the body). At most max bytes of the
// block are kept, and at most max bytes of any field.
func splitHeader(msg []byte, max int) (h header, body []byte, damaged bool) {
	i, kept := 0, 0
	for i < len(msg) {
		line, next := mailfile.NextLine(msg, i)
		if len(line) == 0 {
			return h, msg[next:], damaged
		}
		if line[0] == ' ' || line[0] == '\t' {
			if len(h) > 0 && kept < max {
				f := &h[len(h)-1]
				add := min(len(line), max-len(f.value), max-kept)
				if add < len(line) {
					damaged = true
				}
				if add > 0 {
					f.value += string(line[:add])
					kept += add
				}
			} else if len(h) == 0 {
				damaged = true
			}
			i = next
			continue
		}
		name, ok := mailfile.FieldName(line)
		if !ok {
			return h, msg[i:], true
		}
		if kept < max {
			value := line[len(name)+1:]
			if len(value) > max-kept {
				value, damaged = value[:max-kept], true
			}
			kept += len(name) + len(value)
			h = append(h, field{strings.ToLower(name), string(value)})
		} else {
			damaged = true
		}
		i = next
	}
	return h, nil, damaged
}

// stripFromLine drops a leading mbox "From " line.
func stripFromLine(msg []byte) []byte {
	if !bytes.HasPrefix(msg, []byte("From ")) {
		return msg
	}
	_, next := mailfile.NextLine(msg, 0)
	return msg[next:]
}

// wordDecoder decodes RFC 2047 encoded words in any charset htmlindex
// knows; words in another charset are decoded as plain text is.
var wordDecoder = &mime.WordDecoder{CharsetReader: func(charset string, input io.Reader) (io.Reader, error) {
	if enc, err := htmlindex.Get(charset); err == nil {
		return transform.NewReader(input, enc.NewDecoder()), nil
	}
	b, err := io.ReadAll(input)
	if err != nil {
		return nil, err
	}
	s, _ := textfile.Decode(b)
	return strings.NewReader(s), nil
}}

// headerText decodes a field's value for reading: raw 8-bit bytes in the
// message's declared charset, or as plain text is decoded when there is
// none, encoded words by their charset, white space collapsed.
func headerText(raw, charset string) string {
	var s string
	if charset != "" && !utf8.ValidString(raw) {
		s = decodeCharset([]byte(raw), charset)
	} else {
		s, _ = textfile.DecodeString(raw)
	}
	if strings.Contains(s, "=?") {
		if dec, err := wordDecoder.DecodeHeader(s); err == nil {
			s = strings.ToValidUTF8(dec, "\ufffd")
		}
	}
	return strings.Join(strings.Fields(s), " ")
}

// addresses returns the e-mail addresses in a field's value: the words
// with an @ between the separators of address syntax. It is more lenient
// than net/mail, which refuses the malformed lists spam carries.
func addresses(value string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(value, func(r rune) bool {
		return r <= ' ' || strings.ContainsRune(`<>"(),;:[]`, r)
	}) {
		at := strings.LastIndexByte(w, '@')
		if at > 0 && at < len(w)-1 {
			out = append(out, strings.ToLower(strings.Trim(w, ".")))
		}
	}
	return out
}
