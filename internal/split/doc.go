// Package split deals document indices into train and test parts,
// cross-validation folds and samples, for the engine's cross-validation
// and the benchmarks. Every function returns sorted indices and is
// deterministic for a seed (math/rand/v2 PCG); a stratified one keeps each
// class's share of the documents.
package split
