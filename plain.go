package textnb

import "github.com/textnb/textnb/internal/pipeline"

// PlainField returns s as one field of the tab-separated lines that textnb
// prints: verbatim, or as a Go string literal when it holds a control or
// line-separating character or invalid UTF-8, or starts with a double
// quote. A file or class name then cannot forge a row or a column, and a
// quoted field is told apart from a name that merely looks quoted.
func PlainField(s string) string { return pipeline.Plain(s) }
