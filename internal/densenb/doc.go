// Package densenb implements the naive Bayes models over dense numeric
// rows behind textnb.Table: Gaussian (continuous columns, normal within a
// class) and Categorical (category ids, as internal/discretize bins
// continuous columns). They follow package nb's conventions (scikit-learn's
// formulas, tested against its outputs in testdata/golden to 1e-9;
// unsmoothed class priors; ties to the first class; Prepare after setting
// fitted fields directly) and return its errors.
//
// The zero value of every setting means its default: Gaussian's
// VarSmoothing DefaultVarSmoothing (1e-9; math.SmallestNonzeroFloat64
// means practically none) and Categorical's Alpha DefaultCategoricalAlpha
// (1; a positive Alpha below nb.MinAlpha is raised to it).
package densenb
