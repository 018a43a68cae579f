package corpus

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/textnb/textnb/internal/enum"
)

// order is how ReadOrdered puts documents in the order they arrived.
// Documents that an order cannot tell apart keep their reading order
// (Walk's), so the messages of one mbox and the rows of one line file keep
// theirs.
type order uint8

// The orders, named as ReadOrdered takes them.
const (
	orderAuto order = iota
	orderName
	orderDate
	orderMtime
	orderList
)

var orderNames = [...]string{"auto", "name", "date", "mtime", "list"}

func (o order) String() string { return enum.String(orderNames[:], int(o)) }

// ErrOrderList: a list file given to ReadOrdered does not name the
// corpus's documents, each once; the error names the line.
var ErrOrderList = errors.New("corpus: bad order list")

// ReadOrdered returns the documents at path in the order they arrived,
// by the order named by, with the name of the order it used (never auto). A corpus folder's
// documents are read, as Walk reads them, into memory, then sorted: memory
// grows with the corpus's decoded text, as a cross-validation's does. The
// orders are:
//
//   - "name": by file name: by the sequence number every name starts with
//     when each name has its own (Enron-Spam's
//     "0006.2003-12-18.GP.spam.txt", numbered by the corpus's authors in
//     the order the messages arrive), else by the date (YYYY-MM-DD) every
//     name holds, else by the names, their numbers compared by value.
//   - "date": messages by their date (Document.Date); a document without
//     one takes its file's modification time.
//   - "mtime": by the files' modification times.
//   - "auto": name when every file's name holds a date, else date when the
//     corpus holds mail, else mtime.
//   - any other order is the path of a list file (the order used is then
//     "list"), which names every document once, in order, one a line: its
//     Source, its Source relative to path or to the list's folder, or a
//     message's Message-ID; a line may start with the document's label and
//     white space, as in the TREC spam track's index files ("spam
//     ../data/inmail.1"), and the label must then be the document's. Blank
//     lines and lines starting with # are skipped.
func ReadOrdered(path string, opt Options, by string) ([]Document, string, error) {
	o, list := orderList, ""
	if i := slices.Index(orderNames[:orderList], by); i >= 0 {
		o = order(i)
	} else {
		list = by
	}
	docs, used, err := readOrdered(path, opt, o, list)
	return docs, used.String(), err
}

// readOrdered is ReadOrdered by an order, and the list file of orderList.
func readOrdered(path string, opt Options, by order, list string) ([]Document, order, error) {
	var files []fileDoc
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		if files, err = listCorpus(path, opt.Unlabeled, opt.Workers); err != nil {
			return nil, by, err
		}
	} else if err != nil {
		return nil, by, fmt.Errorf("corpus: %w", err)
	}
	docs, err := ReadAll(path, opt)
	if err != nil {
		return nil, by, err
	}
	if by == orderList {
		docs, err = orderByList(docs, path, list)
		return docs, by, err
	}
	names := nameKeys(files)
	if by == orderAuto {
		switch {
		case names.dated:
			by = orderName
		case slices.ContainsFunc(docs, func(d Document) bool { return d.Mail }):
			by = orderDate
		default:
			by = orderMtime
		}
	}
	key := make([]int64, len(docs)) // per document, in reading order
	fileOf := fileFinder(path, files)
	mtimes := map[string]int64{}
	mtime := func(file string) (int64, error) {
		if t, ok := mtimes[file]; ok {
			return t, nil
		}
		info, err := os.Stat(file)
		if err != nil {
			return 0, fmt.Errorf("corpus: %w", err)
		}
		mtimes[file] = info.ModTime().UnixNano()
		return mtimes[file], nil
	}
	for i, d := range docs {
		file := fileOf(d.Source)
		switch {
		case by == orderName:
			key[i] = int64(names.rank[file]) // files not listed (a line file) rank 0
		case by == orderDate && !d.Date.IsZero():
			key[i] = d.Date.UnixNano()
		default:
			if key[i], err = mtime(file); err != nil {
				return nil, by, err
			}
		}
	}
	idx := make([]int, len(docs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(key[a], key[b]) })
	out := make([]Document, len(docs))
	for k, i := range idx {
		out[k] = docs[i]
	}
	return out, by, nil
}

// fileFinder returns the function that gives the file a document with a
// given Source was read from: for a folder's files, a Source that is one
// of them or, for an mbox's messages, one with ":N" after it; for a line
// file, path.
func fileFinder(path string, files []fileDoc) func(source string) string {
	if files == nil {
		return func(string) string { return path }
	}
	set := make(map[string]bool, len(files))
	for _, f := range files {
		set[f.path()] = true
	}
	return func(source string) string {
		if !set[source] {
			if i := strings.LastIndexByte(source, ':'); i > 0 && set[source[:i]] {
				return source[:i]
			}
		}
		return source
	}
}

// names ranks a folder's files in orderName's order.
type names struct {
	rank  map[string]int // by path, from 1
	dated bool           // every name holds a date
}

var (
	leadingNumber = regexp.MustCompile(`^[0-9]+`)
	nameDate      = regexp.MustCompile(`(?:^|[^0-9])([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[^0-9]|$)`)
)

// nameDate returns the date a file name holds, if it holds a valid one.
func dateInName(name string) (time.Time, bool) {
	m := nameDate.FindStringSubmatch(name)
	if m == nil {
		return time.Time{}, false
	}
	t, err := time.Parse("2006-01-02", m[1]+"-"+m[2]+"-"+m[3])
	return t, err == nil
}

// nameKeys ranks files by name (orderName).
func nameKeys(files []fileDoc) names {
	n := names{rank: make(map[string]int, len(files)), dated: len(files) > 0}
	type file struct {
		path, base string
		seq        uint64
		date       time.Time
	}
	fs := make([]file, len(files))
	numbered := len(files) > 0
	seen := make(map[uint64]bool, len(files))
	for i, f := range files {
		base := filepath.Base(f.name)
		fs[i] = file{path: f.path(), base: base}
		if d, ok := dateInName(base); ok {
			fs[i].date = d
		} else {
			n.dated = false
		}
		s, err := strconv.ParseUint(leadingNumber.FindString(base), 10, 64)
		if err != nil || seen[s] {
			numbered = false
		}
		seen[s], fs[i].seq = true, s
	}
	slices.SortStableFunc(fs, func(a, b file) int {
		switch {
		case numbered && n.dated:
			return cmp.Compare(a.seq, b.seq)
		case n.dated:
			if c := a.date.Compare(b.date); c != 0 {
				return c
			}
		}
		return cmp.Or(naturalCompare(a.base, b.base), cmp.Compare(a.path, b.path))
	})
	for i, f := range fs {
		n.rank[f.path] = i + 1
	}
	return n
}

// naturalCompare compares names with their runs of digits compared by
// value: "9.txt" before "10.txt".
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Or(cmp.Compare(len(na), len(nb)), cmp.Compare(na, nb)); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

func digitRun(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// orderByList orders docs, read from path, as the list file names them.
func orderByList(docs []Document, path, list string) ([]Document, error) {
	f, err := os.Open(list)
	if err != nil {
		return nil, fmt.Errorf("corpus: order list: %w", err)
	}
	defer f.Close()
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			return filepath.Clean(p)
		}
		return a
	}
	bySource := make(map[string]int, len(docs))
	byID := map[string]int{}
	for i, d := range docs {
		bySource[abs(d.Source)] = i
		if d.ID != "" {
			if _, dup := byID[d.ID]; dup {
				byID[d.ID] = -1 // ambiguous: not a name
			} else {
				byID[d.ID] = i
			}
		}
	}
	root := path
	if info, err := os.Stat(path); err == nil && !info.IsDir() {
		root = filepath.Dir(path)
	}
	listDir := filepath.Dir(list)
	find := func(name string) (int, bool) {
		if i, ok := byID[strings.TrimSuffix(strings.TrimPrefix(name, "<"), ">")]; ok && i >= 0 {
			return i, true
		}
		for _, p := range []string{name, filepath.Join(root, name), filepath.Join(listDir, name)} {
			if filepath.IsAbs(name) && p != name {
				break
			}
			if i, ok := bySource[abs(p)]; ok {
				return i, true
			}
		}
		return 0, false
	}
	named := make([]int, len(docs)) // the line that named each document, or 0
	out := make([]Document, 0, len(docs))
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		label, name := "", text
		i, ok := find(name)
		if !ok {
			if l, rest, cut := strings.Cut(text, " "); cut {
				label, name = l, strings.TrimSpace(rest)
			} else if l, rest, cut := strings.Cut(text, "\t"); cut {
				label, name = l, strings.TrimSpace(rest)
			}
			i, ok = find(name)
		}
		switch {
		case !ok:
			return nil, &ParseError{File: list, Line: line, Err: fmt.Errorf("%w: %q names no document of %s", ErrOrderList, name, path)}
		case named[i] != 0:
			return nil, &ParseError{File: list, Line: line, Err: fmt.Errorf("%w: %s named again (first on line %d)", ErrOrderList, docs[i].Source, named[i])}
		case label != "" && label != docs[i].Label:
			return nil, &ParseError{File: list, Line: line, Err: fmt.Errorf("%w: %s is labeled %q here, %q in %s", ErrOrderList, docs[i].Source, label, docs[i].Label, path)}
		}
		named[i] = line
		out = append(out, docs[i])
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("corpus: order list %s: %w", list, err)
	}
	if len(out) < len(docs) {
		first := slices.Index(named, 0)
		return nil, fmt.Errorf("%w: %s names %d of the %d documents of %s; %s is not named", ErrOrderList, list, len(out), len(docs), path, docs[first].Source)
	}
	return out, nil
}
