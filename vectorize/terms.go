package vectorize

import "github.com/textnb/textnb/internal/termtab"

// Terms are kept without pointers: packedTerms back to back, termTable
// interning them as dense ids.
type (
	packedTerms = termtab.Packed
	termTable   = termtab.Table
)
