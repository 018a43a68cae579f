// Package termtab holds terms in memory without pointers, which the garbage
// collector never scans: Packed stores them back to back, and Table interns
// them as dense ids in an open-addressing hash table. The vectorizers number
// words with it and the tokenizer's workers cache their stems in it.
// WrittenSlots, ShiftFor and Mix64 are the building blocks of such tables.
package termtab
