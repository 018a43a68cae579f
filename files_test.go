package textnb_test

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/textnb/textnb"
)

// FileKind tells each kind from the header alone; SaveFile writes what
// Save writes; CheckOutput refuses what SaveFile could not replace.
func TestFileKindSaveFile(t *testing.T) {
	dir := t.TempDir()
	for name, want := range map[string]textnb.Kind{"news-v2": textnb.TextModel, "gaussian-v2": textnb.TableModel, "multilabel-v3": textnb.MultiLabelModel} {
		path := "testdata/models/" + name + ".model"
		if k, err := textnb.FileKind(path); err != nil || k != want {
			t.Errorf("FileKind(%s) = %v, %v; want %v", path, k, err, want)
		}
		c, err := textnb.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		viaSave, viaFile := filepath.Join(dir, name+".save"), filepath.Join(dir, name+".file")
		if err := c.Save(viaSave); err != nil {
			t.Fatal(err)
		}
		var m interface {
			WriteTo(w io.Writer) (int64, error)
		}
		switch c := c.(type) {
		case *textnb.Model:
			m = c.Pipeline()
		case *textnb.MultiLabel:
			m = c.Pipeline()
		default:
			continue // a Table has no exported model to save
		}
		if err := textnb.SaveFile(viaFile, m); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(viaSave)
		b, _ := os.ReadFile(viaFile)
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s: SaveFile wrote %d bytes unlike Save's %d", name, len(b), len(a))
		}
	}
	// The kind is read from the header alone: a damaged body still tells it.
	data, err := os.ReadFile("testdata/models/news-v2.model")
	if err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(dir, "damaged.model")
	if err := os.WriteFile(damaged, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if k, err := textnb.FileKind(damaged); err != nil || k != textnb.TextModel {
		t.Errorf("FileKind of a cut file = %v, %v; want a text model", k, err)
	}
	if _, err := textnb.Open(damaged); !errors.Is(err, textnb.ErrFormat) {
		t.Errorf("Open of a cut file: %v, want ErrFormat", err)
	}
	if _, err := textnb.FileKind("testdata/models/iris.csv"); !errors.Is(err, textnb.ErrFormat) {
		t.Errorf("FileKind of a CSV: %v, want ErrFormat", err)
	}
	if _, err := textnb.FileKind(filepath.Join(dir, "none.model")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("FileKind of a missing file: %v", err)
	}
	if err := textnb.CheckOutput(filepath.Join(dir, "new.model")); err != nil {
		t.Errorf("CheckOutput of a new file: %v", err)
	}
	for _, bad := range []string{dir, filepath.Join(dir, "none", "m.model")} {
		if err := textnb.CheckOutput(bad); !errors.Is(err, textnb.ErrOutput) {
			t.Errorf("CheckOutput(%s) = %v, want ErrOutput", bad, err)
		}
		if err := textnb.SaveFile(bad, bytes.NewBufferString("x")); err == nil {
			t.Errorf("SaveFile(%s) wrote", bad)
		}
	}
}
