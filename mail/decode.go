package mail

import (
	"bytes"
	"encoding/base64"
	"mime"
	"path"
	"strings"
	"time"

	"github.com/textnb/textnb/internal/mailfile"

	"golang.org/x/text/encoding/htmlindex"

	"github.com/textnb/textnb/internal/textfile"
)

// Marker starts every feature token; Decode removes it from all other text
// it renders.
const Marker = "ǂ"

// Message is a decoded message.
type Message struct {
	// ID is the Message-ID without its angle brackets, or "".
	ID string
	// Text is the document: the Subject (twice with Title), the From and
	// To lines, the text of the body, then a line of feature tokens.
	Text string
	// Date is the message's date: its Date field, read as RFC 5322 has
	// it or as mailers write it wrongly (a missing, misspelt or named zone
	// read as UTC; asctime and "2002/09/14 Sat 02:29:32" forms), or else the delivery date of the mbox From line it starts with; zero
	// if it has neither.
	Date time.Time
	// Damaged reports a message that did not parse cleanly: a header line
	// that is not a field, a multipart body without its boundary, invalid
	// base64, parts nested or numerous beyond the limits, or a message cut
	// at Config.MaxMessage.
	Damaged bool
}

// Decode decodes the raw message msg (RFC 5322, optionally after an mbox
// "From " line) into a document. It never fails: what cannot be decoded is
// read as it is, or skipped, and reported in Message.Damaged.
func Decode(msg []byte, c Config) Message {
	d := decoder{c: c, feat: c.features()}
	raw := msg
	msg = stripFromLine(msg)
	if len(msg) > c.maxMessage() {
		msg, d.damaged = msg[:c.maxMessage()], true
	}
	h, body, damaged := splitHeader(msg, c.maxHeader())
	d.damaged = d.damaged || damaged
	_, params := contentType(h.get("content-type"))
	cs := params["charset"] // of 8-bit header bytes, for want of a better guess
	subject := clean(headerText(h.get("subject"), cs))
	id := strings.TrimSpace(headerText(h.get("message-id"), cs))
	id = strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">")

	d.entity(h, body, 0)

	var b strings.Builder
	b.Grow(2*len(subject) + d.body.Len() + 256)
	if subject != "" {
		b.WriteString(subject)
		b.WriteByte('\n')
		if d.feat&Title != 0 {
			b.WriteString(subject)
			b.WriteByte('\n')
		}
	}
	for _, name := range []string{"from", "to"} {
		if v := clean(headerText(h.get(name), cs)); v != "" {
			b.WriteString(v)
			b.WriteByte('\n')
		}
	}
	b.WriteString(d.body.String())
	if d.feat&Addresses != 0 {
		for _, a := range [...]struct{ field, kind string }{{"from", "from"}, {"reply-to", "replyto"}, {"return-path", "returnpath"}} {
			for _, addr := range addresses(headerText(h.get(a.field), cs)) {
				d.token(a.kind, addr)
				d.token(a.kind+"dom", addr[strings.LastIndexByte(addr, '@')+1:])
			}
		}
	}
	if d.feat&Headers != 0 {
		d.headers(h, cs)
	}
	if d.feat&Structure != 0 {
		if d.html && !d.plain {
			d.token("htmlonly", "")
		}
		if !h.has("date") {
			d.token("nodate", "")
		}
		if !h.has("message-id") {
			d.token("nomsgid", "")
		}
		if d.damaged {
			d.token("damaged", "")
		}
	}
	if len(d.tokens) > 0 {
		b.WriteByte('\n')
		b.WriteString(strings.Join(d.tokens, " "))
		b.WriteByte('\n')
	}
	return Message{ID: clean(id), Text: b.String(), Date: messageDate(h, raw), Damaged: d.damaged}
}

// decoder collects the text and feature tokens of one message.
type decoder struct {
	c           Config
	feat        Features
	body        strings.Builder
	tokens      []string
	seen        map[string]bool
	parts       int
	plain, html bool // a text/plain or text/html part was read
	damaged     bool
}

// headers adds the Headers group's tokens of the message header h.
func (d *decoder) headers(h header, charset string) {
	for _, f := range h {
		d.token("hdr", f.name)
	}
	mailer := h.get("x-mailer")
	if mailer == "" {
		mailer = h.get("user-agent")
	}
	if w := strings.FieldsFunc(headerText(mailer, charset), func(r rune) bool { return r == ' ' || r == '/' || r == '(' }); len(w) > 0 {
		d.token("mailer", w[0])
	}
	for _, f := range h {
		if f.name != "received" {
			continue
		}
		words := strings.Fields(f.value)
		for i := 0; i+1 < len(words); i++ {
			if words[i] != "from" && words[i] != "by" {
				continue
			}
			host := strings.ToLower(strings.Trim(words[i+1], "()[];"))
			if labels := strings.Split(host, "."); len(labels) >= 2 && !isNumber(labels[len(labels)-1]) {
				d.token("rcvd", strings.Join(labels[len(labels)-2:], "."))
			}
		}
	}
}

func isNumber(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// maxTokens caps the feature tokens of a message (hosts, charsets, ...).
const maxTokens = 200

// token adds the feature token of kind with value, once.
func (d *decoder) token(kind, value string) {
	t := Marker + kind
	if value != "" {
		t += "_" + tokenValue(value)
	}
	if d.seen[t] || len(d.tokens) >= maxTokens {
		return
	}
	if d.seen == nil {
		d.seen = make(map[string]bool)
	}
	d.seen[t] = true
	d.tokens = append(d.tokens, t)
}

// tokenValue reduces s to one word of the tokenizer whatever its
// settings (SplitCompounds included): lowercase ASCII letters and digits,
// anything else an underscore, at most 100 bytes.
func tokenValue(s string) string {
	b := []byte(s[:min(len(s), 100)])
	for i, c := range b {
		switch {
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		default:
			b[i] = '_'
		}
	}
	return string(b)
}

// clean removes Marker from text a message holds, so that only feature
// tokens start with it.
func clean(s string) string {
	if strings.Contains(s, Marker) {
		return strings.ReplaceAll(s, Marker, " ")
	}
	return s
}

// entity reads a message or part with header h and body, nested depth
// deep in multipart bodies and attached messages.
func (d *decoder) entity(h header, body []byte, depth int) {
	if d.parts >= d.c.maxParts() {
		d.damaged = true
		return
	}
	d.parts++
	ct, params := contentType(h.get("content-type"))
	if cs := params["charset"]; cs != "" && d.feat&Structure != 0 {
		d.token("charset", strings.ToLower(strings.Trim(cs, `"' `)))
	}
	_, dparams := contentType(h.get("content-disposition"))
	name := dparams["filename"]
	if name == "" {
		name = params["name"]
	}
	if name != "" && d.feat&Structure != 0 {
		if ext := strings.TrimPrefix(path.Ext(headerText(name, params["charset"])), "."); ext != "" {
			d.token("attachext", ext)
		}
	}
	switch {
	case strings.HasPrefix(ct, "multipart/"):
		if depth >= d.c.maxDepth() {
			d.damaged = true
			return
		}
		left := d.c.maxParts() - d.parts
		parts, ok := splitMultipart(body, params["boundary"], left)
		if len(parts) >= left {
			d.damaged = true // there may be more
		}
		if !ok {
			d.damaged = true
			d.text(h, body, "text/plain", params)
			return
		}
		d.multipart(ct, parts, depth)
	case ct == "message/rfc822" || ct == "message/global":
		if depth >= d.c.maxDepth() {
			d.damaged = true
			return
		}
		inner := decodeTransfer(h.get("content-transfer-encoding"), body, &d.damaged)
		ih, ib, damaged := splitHeader(inner, d.c.maxHeader())
		d.damaged = d.damaged || damaged
		_, iparams := contentType(ih.get("content-type"))
		if s := clean(headerText(ih.get("subject"), iparams["charset"])); s != "" {
			d.body.WriteString(s)
			d.body.WriteByte('\n')
		}
		d.entity(ih, ib, depth+1)
	case strings.HasPrefix(ct, "text/"):
		d.text(h, body, ct, params)
	default:
		if d.feat&Structure != 0 {
			d.token("attach", ct)
		}
	}
}

// multipart reads the parts of a multipart body. Of the alternatives of
// multipart/alternative, HTML is skipped when there is plain text.
func (d *decoder) multipart(ct string, parts [][]byte, depth int) {
	type part struct {
		h    header
		body []byte
		ct   string
	}
	ps := make([]part, len(parts))
	plain := false
	for i, p := range parts {
		h, body, damaged := splitHeader(p, d.c.maxHeader())
		d.damaged = d.damaged || damaged
		pct, _ := contentType(h.get("content-type"))
		ps[i] = part{h, body, pct}
		plain = plain || pct == "text/plain"
	}
	for _, p := range ps {
		if ct == "multipart/alternative" && plain && p.ct == "text/html" {
			d.html = true // it is there, and counts against html-only
			continue
		}
		d.entity(p.h, p.body, depth+1)
	}
}

// text reads a text part of media type ct.
func (d *decoder) text(h header, body []byte, ct string, params map[string]string) {
	b := decodeTransfer(h.get("content-transfer-encoding"), body, &d.damaged)
	s := decodeCharset(b, params["charset"])
	if ct == "text/html" {
		d.html = true
		d.readHTML(s)
	} else {
		d.plain = true
		d.body.WriteString(clean(s))
		if d.feat&URLs != 0 {
			textHosts(s, func(host string) { d.token("url", host) })
		}
	}
	d.lineBreak()
}

// contentType parses a Content-Type (or Content-Disposition) value: the
// lowercased media type, "text/plain" if there is none, and its
// parameters, read by hand where mime.ParseMediaType refuses them.
func contentType(value string) (string, map[string]string) {
	value = strings.TrimSpace(value)
	mt, params, err := mime.ParseMediaType(value)
	if err == nil {
		return orPlain(mt), params
	}
	// Spam is full of malformed parameters; take what can be read.
	parts := strings.Split(value, ";")
	mt = strings.ToLower(strings.TrimSpace(parts[0]))
	params = make(map[string]string)
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		params[strings.ToLower(strings.TrimSpace(k))] = strings.Trim(strings.TrimSpace(v), `"'`)
	}
	return orPlain(mt), params
}

func orPlain(mt string) string {
	if mt == "" || !strings.Contains(mt, "/") {
		return "text/plain"
	}
	return mt
}

// splitMultipart returns the parts of a multipart body with the given
// boundary, at most max of them; ok is false when no delimiter line is
// found. A missing close delimiter ends the last part at the body's end.
func splitMultipart(body []byte, boundary string, max int) (parts [][]byte, ok bool) {
	if boundary == "" || max <= 0 {
		return nil, false
	}
	delim := []byte("--" + boundary)
	start := -1 // where the current part starts
	for i := 0; i < len(body); {
		j := bytes.Index(body[i:], delim)
		if j < 0 {
			break
		}
		j += i
		if j > 0 && body[j-1] != '\n' { // not at the start of a line
			i = j + len(delim)
			continue
		}
		ok = true
		if start >= 0 {
			end := j
			if end > start && body[end-1] == '\n' {
				end--
				if end > start && body[end-1] == '\r' {
					end--
				}
			}
			parts = append(parts, body[start:end])
			if len(parts) >= max {
				return parts, true
			}
		}
		after := body[j+len(delim):]
		if bytes.HasPrefix(after, []byte("--")) {
			return parts, true
		}
		_, next := mailfile.NextLine(body, j)
		start, i = next, next
	}
	if start >= 0 && start < len(body) {
		parts = append(parts, body[start:])
	}
	return parts, ok
}

// decodeTransfer undoes a Content-Transfer-Encoding; unknown encodings and
// 7bit, 8bit and binary are read as they are.
func decodeTransfer(encoding string, b []byte, damaged *bool) []byte {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "base64":
		out, ok := decodeBase64(b)
		*damaged = *damaged || !ok
		return out
	case "quoted-printable":
		return decodeQP(b)
	}
	return b
}

// decodeBase64 decodes b leniently: white space is skipped, and so are
// other bytes outside the alphabet (reported by ok), and a last partial
// group gives the bytes it holds.
func decodeBase64(b []byte) (out []byte, ok bool) {
	ok = true
	clean := make([]byte, 0, len(b))
	for _, c := range b {
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/':
			clean = append(clean, c)
		case c == '-':
			clean = append(clean, '+')
		case c == '_':
			clean = append(clean, '/')
		case c == '=', c == ' ', c == '\t', c == '\r', c == '\n':
		default:
			ok = false
		}
	}
	if len(clean)%4 == 1 {
		clean, ok = clean[:len(clean)-1], false
	}
	out = make([]byte, base64.RawStdEncoding.DecodedLen(len(clean)))
	n, err := base64.RawStdEncoding.Decode(out, clean)
	if err != nil {
		ok = false
	}
	return out[:n], ok
}

// decodeQP decodes quoted-printable leniently: "=" and two hex digits is a
// byte, "=" at the end of a line joins it to the next, and any other "="
// is kept as it is.
func decodeQP(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '=' {
			out = append(out, c)
			continue
		}
		rest := b[i+1:]
		switch {
		case len(rest) >= 2 && unhex(rest[0]) >= 0 && unhex(rest[1]) >= 0:
			out = append(out, byte(unhex(rest[0])<<4|unhex(rest[1])))
			i += 2
		case bytes.HasPrefix(rest, []byte("\r\n")):
			i += 2
		case bytes.HasPrefix(rest, []byte("\n")):
			i++
		default:
			out = append(out, c)
		}
	}
	return out
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return -1
}

// decodeCharset decodes text in the declared charset; an undeclared or
// unknown charset, or bytes that are not of it, are decoded as plain text
// files are (UTF-8, else GB18030 or Latin-1).
func decodeCharset(b []byte, charset string) string {
	switch cs := strings.ToLower(strings.Trim(charset, `"' `)); cs {
	case "", "us-ascii", "ascii", "utf-8", "utf8":
	default:
		if enc, err := htmlindex.Get(cs); err == nil {
			if out, err := enc.NewDecoder().Bytes(b); err == nil {
				return strings.ToValidUTF8(string(out), "\ufffd")
			}
		}
	}
	s, _ := textfile.Decode(b)
	return s
}
