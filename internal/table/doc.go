// Package table is naive Bayes over the numeric columns of a table, behind
// textnb.Table, textnb.TrainTable and the table models of the command:
// Gaussian (every column normal within a class) or Categorical (category
// ids, or quantile bins of continuous columns).
//
// Train fits a Table on a Data table (Read); Proba scores a row given in the
// order of Table.Features (Columns maps a header onto that order), writing
// into a slice the caller may reuse. A Table is written with WriteTo and
// read with Load or Decode, in the model file format of package pipeline
// (kind "table model", format version 1); Inspect describes it as a
// pipeline.Info.
//
// Config's zero value is Gaussian NB with scikit-learn's defaults. Errors
// wrap pipeline's sentinels (ErrConfig, ErrNoDocuments, ErrOneClass,
// ErrFormat and those it covers) or this package's ErrColumns and
// ErrOverflow: test them with errors.Is.
package table
