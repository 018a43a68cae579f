package corpus

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/internal/textfile"
)

// Walk reads the documents at path (see the package documentation for
// the formats) and calls fn on each, sequentially and in a deterministic
// order, while files are read and decoded on opt.Workers goroutines ahead of
// it. It stops at and returns the first error: fn's own error unchanged, a
// *ParseError for a malformed line, an fs error naming an unreadable file, or
// one wrapping ErrEmptyCorpus, ErrEmptyClass or ErrUnsupported. Errors found
// while listing a directory are returned before fn is first called.
// The Stats, which cover the documents passed to fn, say how many were
// empty and how they were encoded.
func Walk(path string, opt Options, fn func(Document) error) (Stats, error) {
	if opt.Whole {
		opt.Unlabeled = true
		return walk(path, fileProducer([]fileDoc{{name: path}}, opt), opt, fn)
	}
	produce, err := producer(path, opt)
	if err != nil {
		return Stats{Encodings: make(map[Encoding]int)}, err
	}
	return walk(path, produce, opt, fn)
}

// walk passes the documents that produce queues to fn, in order.
func walk(path string, produce func(emitFunc), opt Options, fn func(Document) error) (Stats, error) {
	st := Stats{Encodings: make(map[Encoding]int)}
	err := parallel.Ordered(opt.Workers, produce, func(b batch) error {
		if b.labelsIgnored {
			st.LabelsIgnored = true
		}
		each := func(d Document, enc Encoding) error {
			st.Docs++
			st.Encodings[enc]++
			if strings.TrimSpace(d.Text) == "" {
				st.Empty++
			}
			if d.Mail {
				st.Mail++
			}
			return fn(d)
		}
		for i, d := range b.docs {
			if err := each(d, b.encs[i]); err != nil {
				return err
			}
		}
		if b.err == nil && b.mbox != "" {
			return walkMbox(b.mbox, b.mboxLabel, opt, each)
		}
		return b.err
	})
	if err == nil && st.Docs == 0 {
		err = fmt.Errorf("%w: %s", ErrEmptyCorpus, path)
	}
	return st, err
}

// ReadAll returns every document at path, in Walk's order.
func ReadAll(path string, opt Options) ([]Document, error) {
	var docs []Document
	_, err := Walk(path, opt, func(d Document) error {
		docs = append(docs, d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return docs, nil
}

// supported lists the accepted inputs, for error messages.
const supported = "a directory of class folders, .tsv, .csv, .jsonl or .ndjson (and .txt, .eml or .mbox when unlabeled)"

// producer picks the reader for what path is. Errors it returns (missing
// path, bad directory layout, unopenable file) come before any document.
func producer(path string, opt Options) (func(emitFunc), error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	if info.IsDir() {
		if opt.rowFields() {
			return nil, fmt.Errorf("%w: %s: a folder's documents have no id or fields to keep: they need a line file", ErrUnsupported, path)
		}
		files, err := listCorpus(path, opt.Unlabeled, opt.Workers)
		if err != nil {
			return nil, err
		}
		return fileProducer(files, opt), nil
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is not a regular file or directory", ErrUnsupported, path)
	}
	format := opt.Format
	if format == FormatAuto {
		format = FormatOf(path)
	}
	if format != FormatAuto {
		f, r, enc, err := textfile.Open(path)
		if err != nil {
			return nil, err
		}
		return streamProducer(f, r, enc, path, format, opt)
	}
	if opt.rowFields() {
		return nil, fmt.Errorf("%w: %s: a whole file has no id or fields to keep: they need a .tsv, .csv or .jsonl file", ErrUnsupported, path)
	}
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".eml", ".mbox", ".mbx":
		if opt.Unlabeled && opt.Input != InputText {
			return fileProducer([]fileDoc{{name: path}}, opt), nil
		}
		return nil, fmt.Errorf("%w: %s: a mail file is unlabeled documents (set Unlabeled); labeled mail is %s",
			ErrUnsupported, path, "a directory of class folders of messages, mbox files or Maildirs")
	case ".txt":
		if opt.Unlabeled {
			return fileProducer([]fileDoc{{name: path}}, opt), nil
		}
		return nil, fmt.Errorf("%w: %s: a .txt file is one unlabeled document (set Unlabeled); labeled input is %s",
			ErrUnsupported, path, supported)
	default:
		return nil, fmt.Errorf("%w: %s: unknown extension %q; supported: %s", ErrUnsupported, path, ext, supported)
	}
}

// fileDoc is a document that is a whole file: name in folder dir, or at
// the path name when dir is "" (a single file, or a file in the root of an
// unlabeled corpus). Listing a class folder leaves joining the two to the
// reading goroutines.
type fileDoc struct{ dir, name, label string }

// path returns the file's path: filepath.Join(dir, name) for the clean dir
// and plain name that listing gives.
func (f fileDoc) path() string {
	if f.dir == "" {
		return f.name
	}
	return f.dir + string(filepath.Separator) + f.name
}

// fileProducer emits one unit per file, read and decoded by a worker.
func fileProducer(files []fileDoc, opt Options) func(emitFunc) {
	return func(emit emitFunc) {
		for _, f := range files {
			if !emit(func() batch { return readFileDoc(f, opt) }) {
				return
			}
		}
	}
}

// listCorpus lists a corpus directory in reading order: entries sorted by
// name, class folders expanded in place. The class folders are listed on
// up to workers goroutines; the first error in reading order is reported.
func listCorpus(root string, unlabeled bool, workers int) ([]fileDoc, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	// parts in reading order: a class folder to list, a file of the root,
	// or what is wrong with an entry, the last part
	type part struct {
		dir, label, file string
		files            []fileDoc
		err              error
	}
	var parts []part
	maildir := isMaildir(entries)
entries:
	for _, e := range entries {
		if hidden(e.Name()) || maildir && e.Name() == "tmp" {
			continue
		}
		p := filepath.Join(root, e.Name())
		mode, err := followLink(root, e)
		switch {
		case err != nil:
			parts = append(parts, part{err: fmt.Errorf("corpus: %w", err)})
			break entries
		case mode.IsDir():
			label := e.Name()
			if unlabeled {
				label = ""
			}
			parts = append(parts, part{dir: p, label: label})
		case !mode.IsRegular():
			// Devices, sockets and pipes are not documents.
		case unlabeled:
			parts = append(parts, part{file: p})
		default:
			parts = append(parts, part{err: fmt.Errorf("%w: %s: file in the root of a labeled corpus (put it in a class folder, or read unlabeled)",
				ErrUnsupported, p)})
			break entries
		}
	}
	parallel.For(len(parts), workers, func(k int) {
		if p := &parts[k]; p.dir != "" {
			p.files, p.err = listClass(nil, p.dir, p.label)
			if p.err == nil && len(p.files) == 0 && !unlabeled {
				p.err = fmt.Errorf("%w: %s", ErrEmptyClass, p.dir)
			}
		}
	})
	var files []fileDoc
	for _, p := range parts {
		switch {
		case p.err != nil:
			return nil, p.err
		case p.file != "":
			files = append(files, fileDoc{name: p.file})
		default:
			files = append(files, p.files...)
		}
	}
	return files, nil
}

// listClass appends the regular files under dir, recursively, in name order.
// Symlinked folders inside a class are refused: they could loop.
func listClass(dst []fileDoc, dir, label string) ([]fileDoc, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return dst, fmt.Errorf("corpus: %w", err)
	}
	maildir := isMaildir(entries)
	for _, e := range entries {
		if hidden(e.Name()) || maildir && e.Name() == "tmp" {
			continue
		}
		mode, err := followLink(dir, e)
		switch {
		case err != nil:
			return dst, fmt.Errorf("corpus: %w", err)
		case mode.IsRegular(): // most entries: no path to join
			dst = append(dst, fileDoc{dir: dir, name: e.Name(), label: label})
		case !mode.IsDir():
			// Devices, sockets and pipes are not documents.
		case e.Type()&os.ModeSymlink != 0:
			return dst, fmt.Errorf("%w: %s: symlinked folder inside a class folder", ErrUnsupported, filepath.Join(dir, e.Name()))
		default:
			if dst, err = listClass(dst, filepath.Join(dir, e.Name()), label); err != nil {
				return dst, err
			}
		}
	}
	return dst, nil
}

// followLink returns the type of the entry e of folder dir, that of its
// target if it is a symbolic link: only a link costs a system call and a
// joined path.
func followLink(dir string, e fs.DirEntry) (fs.FileMode, error) {
	if e.Type()&os.ModeSymlink == 0 {
		return e.Type(), nil
	}
	info, err := os.Stat(filepath.Join(dir, e.Name()))
	if err != nil {
		return 0, err
	}
	return info.Mode().Type(), nil
}

func hidden(name string) bool { return strings.HasPrefix(name, ".") }

// isMaildir reports a folder's entries that are a Maildir's: cur, new and
// tmp, whose tmp holds messages still being delivered, which are skipped.
func isMaildir(entries []fs.DirEntry) bool {
	var n int
	for _, e := range entries {
		switch e.Name() {
		case "cur", "new", "tmp":
			if e.IsDir() {
				n++
			}
		}
	}
	return n == 3
}
