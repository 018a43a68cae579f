// Package compact holds the large-vocabulary form of nb's text models:
// sparse class-feature counts (Counts), fitted without any classes×features
// table into a Linear scoring form of O(classes + features + non-zero
// counts) memory, and a Scorer laid out for fast scoring. It is what
// textnb's model files hold.
//
// Every fit and score here has a reference in package nb or in Dense: the
// dense models and their K×F tables, which the tests compare against to
// rounding.
package compact
