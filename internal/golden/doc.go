// Package golden reads testdata/golden/sklearn_nb.json, the scikit-learn
// outputs that the tests of nb and vectorize match to 1e-9, so that every
// test reads the file through one set of types.
package golden
