package numtable

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzTable reads any bytes as a numeric CSV or TSV table: the result is an
// error or a rectangular table of finite values with a label per row.
func FuzzTable(f *testing.F) {
	for _, s := range []string{
		"label,a,b\nx,1,2\ny,3.5,-4e3\n",
		"a,label\n1,x\nNaN,y\n",
		"a\tb\tlabel\n1\t2\tx\n",
		"label,a\nx\n",
		"label,a,a\nx,1,2\n",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(strings.ReplaceAll(s, ",", "\t")), true)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, tsv bool) {
		path := filepath.Join(dir, "table.csv")
		if tsv {
			path = filepath.Join(dir, "table.tsv")
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		tab, err := ReadTable(path, "")
		if err != nil {
			return
		}
		if len(tab.Labels) != len(tab.Features) {
			t.Fatalf("%d labels for %d rows", len(tab.Labels), len(tab.Features))
		}
		for i, row := range tab.Features {
			if len(row) != len(tab.Header) {
				t.Fatalf("row %d has %d values for %d columns", i, len(row), len(tab.Header))
			}
			for _, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("row %d holds %g", i, v)
				}
			}
		}
	})
}
