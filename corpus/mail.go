package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unsafe"

	"github.com/textnb/textnb/internal/mailfile"

	"github.com/textnb/textnb/internal/enum"
	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/internal/readfile"
	"github.com/textnb/textnb/internal/textfile"
	"github.com/textnb/textnb/mail"
)

// Input says how the files of a folder, and single files, are read.
type Input uint8

// The inputs.
const (
	// InputAuto, the default, reads mail as mail: .eml files, .mbox
	// files, and files that mailfile.Detect takes for a message or an mbox
	// (strictly: plain text, news posts included, reads as text).
	InputAuto Input = iota
	// InputText reads every file as one text document.
	InputText
	// InputMail reads every file as a message, or as an mbox when it
	// starts with a "From " line.
	InputMail
)

var inputNames = [...]string{"auto", "text", "mail"}

func (in Input) String() string { return enum.String(inputNames[:], int(in)) }

// MarshalText and UnmarshalText write and read the input's name ("auto",
// "text" or "mail"), as flag.TextVar and encoding/json use them.
func (in Input) MarshalText() ([]byte, error) { return []byte(in.String()), nil }

func (in *Input) UnmarshalText(b []byte) error {
	i, err := enum.Parse(ErrUnsupported, "input", inputNames[:], string(b))
	if err == nil {
		*in = Input(i)
	}
	return err
}

// bigMail is the size above which a mail file is streamed, an mbox
// message at a time, rather than read whole.
const bigMail = 64 << 20

// mailExt reports the mail kind a file's extension gives, in auto mode.
func mailExt(path string) (mailfile.Kind, bool) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".eml":
		return mailfile.OneMessage, true
	case ".mbox", ".mbx":
		return mailfile.MboxFile, true
	}
	return mailfile.NotMail, false
}

// mailKind returns how a file whose first bytes are head is read.
func mailKind(path string, head []byte, in Input) mailfile.Kind {
	if in == InputText { // before Detect: plain text pays for no look at its headers
		return mailfile.NotMail
	}
	k := mailfile.Detect(head[:min(len(head), mailfile.DetectBytes)])
	switch in {
	case InputMail:
		if k == mailfile.MboxFile || bytes.HasPrefix(head, []byte("From ")) {
			return mailfile.MboxFile
		}
		return mailfile.OneMessage
	}
	if ext, ok := mailExt(path); ok && k == mailfile.NotMail {
		if ext == mailfile.MboxFile && !bytes.HasPrefix(head, []byte("From ")) {
			return mailfile.OneMessage
		}
		return ext
	}
	return k
}

// readFileDoc reads a folder's file, or a single file: one text document,
// or the messages of a mail file.
func readFileDoc(f fileDoc, opt Options) batch {
	path := f.path()
	if opt.Input == InputText {
		return textDoc(path, f.label)
	}
	raw, size, err := readfile.ReadFileLimit(path, bigMail)
	if err != nil {
		return batch{err: fmt.Errorf("corpus: %w", err)}
	}
	if raw == nil && size > bigMail {
		head, err := readHead(path)
		if err != nil {
			return batch{err: err}
		}
		if mailKind(path, head, opt.Input) == mailfile.NotMail {
			return textDoc(path, f.label)
		}
		return batch{mbox: path, mboxLabel: f.label}
	}
	switch mailKind(path, raw, opt.Input) {
	case mailfile.NotMail:
		text, enc := textfile.DecodeString(unsafe.String(unsafe.SliceData(raw), len(raw))) // raw is never written again
		return batch{docs: []Document{{Source: path, Label: f.label, Text: text}}, encs: []Encoding{enc}}
	case mailfile.OneMessage:
		var b batch
		b.add(messageDoc(raw, path, f.label, opt.Mail), UTF8)
		return b
	}
	var b batch
	mb := mailfile.NewMbox(bytes.NewReader(raw), opt.Mail.MaxMessage)
	for {
		msg, err := mb.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		b.add(messageDoc(msg, path+":"+strconv.Itoa(mb.Num()), f.label, opt.Mail), UTF8)
	}
	if len(b.docs) == 1 {
		b.docs[0].Source = path // a file of one message is named as one
	}
	return b
}

// textDoc reads the file at path as one text document.
func textDoc(path, label string) batch {
	text, enc, err := textfile.ReadFile(path)
	if err != nil {
		return batch{err: err}
	}
	return batch{
		docs: []Document{{Source: path, Label: label, Text: text}},
		encs: []Encoding{enc},
	}
}

func messageDoc(raw []byte, source, label string, c mail.Config) Document {
	m := mail.Decode(raw, c)
	return Document{Source: source, Label: label, Text: m.Text, ID: m.ID, Mail: true, Date: m.Date}
}

// readHead returns the first bytes of a file, enough for mailfile.Detect.
func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	defer f.Close()
	head := make([]byte, mailfile.DetectBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	return head[:n], nil
}

// Messages of a streamed mbox are decoded in batches of this many, or of
// this many bytes.
const (
	mboxBatch      = 64
	mboxBatchBytes = 4 << 20
)

// walkMbox reads a large mbox file a message at a time, decoding batches
// of messages on opt.Workers goroutines, and passes its documents to fn in
// order: memory is bounded by the messages in flight, not the file.
func walkMbox(path, label string, opt Options, fn func(Document, Encoding) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	defer f.Close()
	produce := func(emit emitFunc) {
		mb := mailfile.NewMbox(f, opt.Mail.MaxMessage)
		var msgs [][]byte
		var nums []int
		size := 0
		flush := func() bool {
			ms, ns := msgs, nums
			msgs, nums, size = nil, nil, 0
			return emit(func() batch {
				var b batch
				for i, m := range ms {
					b.add(messageDoc(m, path+":"+strconv.Itoa(ns[i]), label, opt.Mail), UTF8)
				}
				return b
			})
		}
		for {
			msg, err := mb.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				emit(errorUnit(fmt.Errorf("corpus: reading %s after message %d: %w", path, mb.Num(), err)))
				return
			}
			msgs, nums, size = append(msgs, msg), append(nums, mb.Num()), size+len(msg)
			if (len(msgs) >= mboxBatch || size >= mboxBatchBytes) && !flush() {
				return
			}
		}
		if len(msgs) > 0 {
			flush()
		}
	}
	return parallel.Ordered(opt.Workers, produce, func(b batch) error {
		for i, d := range b.docs {
			if err := fn(d, b.encs[i]); err != nil {
				return err
			}
		}
		return b.err
	})
}
