// Package sparse holds the compressed sparse row matrix that package
// vectorize exports as vectorize.CSR, with the operations on it that only
// textnb's own packages use: column selection and remapping, stacking, and
// the integer sorts that build rows.
//
// CSR here and vectorize.CSR have identical fields, so a pointer to one
// converts to a pointer to the other at no cost:
//
//	X := (*sparse.CSR)(m) // m a *vectorize.CSR
//
// Functions that produce a row append to the caller's buffers and allocate
// only while those grow.
package sparse
