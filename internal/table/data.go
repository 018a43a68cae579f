package table

import "github.com/textnb/textnb/internal/numtable"

// Data is a numeric data set: one row per sample, every column except the
// label column a float feature.
type Data struct {
	Header   []string    // feature column names, in file order, label column removed
	Features [][]float64 // Features[i][j] is row i's value for Header[j]
	Labels   []string    // Labels[i] is row i's label
}

// Read reads a .csv or .tsv file with a header row into Data: labelField
// names the label column ("" means "label"). A cell that is not a finite
// number is an error naming the file, line and column.
func Read(path, labelField string) (Data, error) {
	t, err := numtable.ReadTable(path, labelField)
	return Data(t), err
}
