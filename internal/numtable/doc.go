// Package numtable reads numeric data sets: .csv or .tsv tables of numbers
// with a header row and a label column, whole (ReadTable) or a row at a
// time (OpenTable). Files are read and errors reported as package corpus
// reads and reports line files.
package numtable
