package mailfile

import "strings"

// Kind is what Detect finds a file to be.
type Kind uint8

// The kinds of input.
const (
	// NotMail is a plain text document.
	NotMail Kind = iota
	// OneMessage is one RFC 5322 message.
	OneMessage
	// MboxFile starts with an mbox "From " line: one or more messages.
	MboxFile
)

// DetectBytes is how much of a file Detect needs: the header block of a
// message, or its first part.
const DetectBytes = 16 << 10

// Detect tells what head, the first bytes of a file (DetectBytes are
// enough), is. It is strict, so that plain text keeps reading as text: a
// message's header block must start the file, every line of it must be a
// field or a continuation, it must hold a Received field or a Message-ID
// with a Date, and no field of a news post (Newsgroups, Path, Xref, Lines,
// NNTP-Posting-Host). MIME-Version and Content-Type are no evidence: news
// posts carry them too. An mbox file starts with a "From " line followed by
// at least two fields.
func Detect(head []byte) Kind {
	if first, next := NextLine(head, 0); fromLine(first) {
		if fields, _ := headerEvidence(head[next:]); fields >= 2 {
			return MboxFile
		}
		return NotMail
	}
	if fields, ok := headerEvidence(head); fields >= 2 && ok {
		return OneMessage
	}
	return NotMail
}

// headerEvidence counts the fields of the header block at the start of b,
// 0 if a line is neither a field nor a continuation, and reports whether
// they show a message. A last line cut off by the end of b counts.
func headerEvidence(b []byte) (fields int, mail bool) {
	var received, id, date, news bool
	for i := 0; i < len(b); {
		line, next := NextLine(b, i)
		if len(line) == 0 {
			break
		}
		i = next
		if line[0] == ' ' || line[0] == '\t' {
			if fields == 0 {
				return 0, false
			}
			continue
		}
		name, ok := FieldName(line)
		if !ok {
			return 0, false
		}
		fields++
		switch len(name) { // most fields are none of these: spare the comparisons
		case len("date"), len("lines"), len("received"), len("message-id"), len("nntp-posting-host"): // and path, xref, newsgroups, of the same lengths
		default:
			continue
		}
		switch {
		case strings.EqualFold(name, "received"):
			received = true
		case strings.EqualFold(name, "message-id"):
			id = true
		case strings.EqualFold(name, "date"):
			date = true
		case strings.EqualFold(name, "newsgroups"), strings.EqualFold(name, "nntp-posting-host"), strings.EqualFold(name, "lines"),
			strings.EqualFold(name, "xref"), strings.EqualFold(name, "path"):
			news = true
		}
	}
	return fields, (received || id && date) && !news
}
