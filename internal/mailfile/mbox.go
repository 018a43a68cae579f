package mailfile

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Mbox reads the messages of an mbox file one at a time, in memory
// bounded by mail.Config.MaxMessage whatever the file's size. A message starts
// with a "From sender date" line (the date with a digit) at the start of
// the file or after a blank line;
// lines of the body quoted as ">From " (mboxrd, and mboxo's "From ") lose
// one ">". Text before the first "From " line, or a file without one, is
// a message too.
type Mbox struct {
	r         *bufio.Reader
	max       int
	n         int
	truncated bool
	started   bool // a message's first line has been read (its From line, or not)
	err       error
}

// DefaultMaxMessage is mail.Config's MaxMessage when it is 0.
const DefaultMaxMessage = 32 << 20

// NewMbox returns an Mbox reading r that cuts each message at maxMessage
// bytes (mail.Config.MaxMessage: ≤ 0 means DefaultMaxMessage).
func NewMbox(r io.Reader, maxMessage int) *Mbox {
	if maxMessage <= 0 {
		maxMessage = DefaultMaxMessage
	}
	return &Mbox{r: bufio.NewReaderSize(r, 64<<10), max: maxMessage}
}

// Num returns the 1-based number of the message Next last returned.
func (m *Mbox) Num() int { return m.n }

// Truncated reports whether the message Next last returned was cut at
// mail.Config.MaxMessage bytes.
func (m *Mbox) Truncated() bool { return m.truncated }

// Next returns the next message, without its From line, in memory of its
// own; io.EOF after the last one, or the error reading.
func (m *Mbox) Next() ([]byte, error) {
	if m.err != nil {
		return nil, m.err
	}
	var msg []byte
	m.truncated = false
	// at a line's start; the line before was blank (or none was: the
	// start of the file, not the From line just read)
	atStart, blankBefore := true, !m.started
	have := m.started // this message has begun (its From line was read)
	for {
		line, err := m.r.ReadSlice('\n')
		if len(line) > 0 {
			if atStart && blankBefore && fromLine(line) {
				if have {
					m.started = true // the next message's From line
					if err := m.skipLine(line, err); err != nil {
						m.err = err
					}
					return m.done(msg)
				}
				have = true
				if err := m.skipLine(line, err); err != nil {
					m.err = err
					return m.done(msg)
				}
				atStart, blankBefore = true, false
				continue
			}
			full := err == nil // the line ended here
			blank := atStart && full && (len(line) == 1 || len(line) == 2 && line[0] == '\r')
			if atStart && quotedFrom(line) {
				line = line[1:]
			}
			have = true
			if room := m.max - len(msg); room < len(line) {
				line, m.truncated = line[:max(room, 0)], true
			}
			msg = append(msg, line...)
			blankBefore, atStart = blank, full
		}
		switch {
		case err == nil, errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF):
			m.err = io.EOF
			if !have {
				return nil, io.EOF
			}
			return m.done(msg)
		default:
			m.err = err
			return nil, err
		}
	}
}

// done returns a message, counting it.
func (m *Mbox) done(msg []byte) ([]byte, error) {
	m.n++
	if msg == nil {
		msg = []byte{}
	}
	return msg, nil
}

// skipLine reads to the end of a From line whose start, line, ReadSlice
// returned with err.
func (m *Mbox) skipLine(line []byte, err error) error {
	for errors.Is(err, bufio.ErrBufferFull) {
		_, err = m.r.ReadSlice('\n')
	}
	if errors.Is(err, io.EOF) {
		return io.EOF
	}
	return err
}

// fromLine reports whether line starts a message: "From ", the sender,
// and a date with a digit ("From here on, ..." in a body is no From line).
func fromLine(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte("From "))
	if !ok {
		return false
	}
	_, date, ok := bytes.Cut(bytes.TrimLeft(rest, " "), []byte(" "))
	return ok && bytes.ContainsAny(date, "0123456789")
}

// quotedFrom reports a line of ">" characters and "From ".
func quotedFrom(line []byte) bool {
	i := 0
	for i < len(line) && line[i] == '>' {
		i++
	}
	return i > 0 && bytes.HasPrefix(line[i:], []byte("From "))
}
