package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/textnb/textnb/internal/split"

	"github.com/textnb/textnb/corpus"
)

// Item is one labeled document of a benchmark corpus: its text, or, for a
// corpus of files such as raw mail, the file's path, linked into the fold
// folders under Name.
type Item struct {
	Label string
	Text  string
	Path  string // a file's path, read by the systems themselves; then Text is unused
	Name  string // the file's name in its class folder, unique within the class
}

// Split is one training and test part on disk: .jsonl files of
// {"label", "text"} objects, or folders of class folders of links to files.
type Split struct {
	Train, Test string
	N           int // test documents
}

// Fold is the outer cross-validation of a corpus written to disk once, so
// that every system is trained and scored on the same parts.
type Fold struct {
	Splits []Split
	// Fingerprint identifies the documents and their deal to folds, for
	// caches of results that depend only on them.
	Fingerprint string
	Assign      []int  // each document's fold, when a program needs it
	Source      string // the file the documents came from, when one
}

// WriteFolds deals items into k stratified folds (split.StratifiedKFold
// with seed) and writes, under dir, each fold's training part (the other
// folds) and test part: .jsonl files for text items, class folders of
// symbolic links for file items.
func WriteFolds(dir string, items []Item, k int, seed uint64) (Fold, error) {
	labels := make([]string, len(items))
	for i, it := range items {
		labels[i] = it.Label
	}
	folds := split.StratifiedKFold(labels, k, seed)
	h := sha256.New()
	var f Fold
	for i := range folds {
		d := filepath.Join(dir, fmt.Sprintf("fold%02d", i))
		train := split.FoldTrain(nil, folds, i)
		s, err := WriteSplit(d, items, train, folds[i])
		if err != nil {
			return f, err
		}
		f.Splits = append(f.Splits, s)
		fmt.Fprintf(h, "fold %d %s\n", i, ItemsFingerprint(Pick(items, folds[i]), 0))
	}
	f.Fingerprint = hex.EncodeToString(h.Sum(nil))
	return f, nil
}

// ItemsFingerprint hashes items (labels, names and texts, in order), the
// first nTrain of them marked as the training part.
func ItemsFingerprint(items []Item, nTrain int) string {
	h := sha256.New()
	for i, it := range items {
		fmt.Fprintf(h, "%t\t%s\t%s\t%x\n", i < nTrain, it.Label, it.Name, sha256.Sum256([]byte(it.Text)))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func hashString(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:8])
}

// WriteSplit writes items[train] and items[test] under dir as a Split.
func WriteSplit(dir string, items []Item, train, test []int) (Split, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Split{}, err
	}
	files := len(items) > 0 && items[0].Path != ""
	write := writeJSONL
	name := func(part string) string { return filepath.Join(dir, part+".jsonl") }
	if files {
		write = writeLinks
		name = func(part string) string { return filepath.Join(dir, part) }
	}
	s := Split{Train: name("train"), Test: name("test"), N: len(test)}
	if err := write(s.Train, items, train); err != nil {
		return s, err
	}
	return s, write(s.Test, items, test)
}

func writeJSONL(path string, items []Item, idx []int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for _, i := range idx {
		if err := enc.Encode(struct {
			Label string `json:"label"`
			Text  string `json:"text"`
		}{items[i].Label, items[i].Text}); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

func writeLinks(dir string, items []Item, idx []int) error {
	for _, i := range idx {
		it := items[i]
		src, err := filepath.Abs(it.Path)
		if err != nil {
			return err
		}
		class := filepath.Join(dir, it.Label)
		if err := os.MkdirAll(class, 0o755); err != nil {
			return err
		}
		if err := os.Symlink(src, filepath.Join(class, it.Name)); err != nil {
			return err
		}
	}
	return nil
}

// FileItems lists the files of a folder of class folders as items: each
// class's files, in subfolders too, named by their path inside the class
// with "/" turned into "-".
func FileItems(root string) ([]Item, error) {
	classes, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var items []Item
	for _, c := range classes {
		if !c.IsDir() || c.Name()[0] == '.' {
			continue
		}
		base := filepath.Join(root, c.Name())
		err := filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name()[0] == '.' {
				return err
			}
			rel, err := filepath.Rel(base, p)
			if err != nil {
				return err
			}
			items = append(items, Item{Label: c.Name(), Path: p, Name: filepath.ToSlash(rel)})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	for i := range items {
		items[i].Name = flatten(items[i].Name)
	}
	return items, nil
}

func flatten(rel string) string {
	b := []byte(rel)
	for i, c := range b {
		if c == '/' {
			b[i] = '-'
		}
	}
	return string(b)
}

// TextItems turns documents into items.
func TextItems(docs []corpus.Document) []Item {
	items := make([]Item, len(docs))
	for i, d := range docs {
		items[i] = Item{Label: d.Label, Text: d.Text}
	}
	return items
}
