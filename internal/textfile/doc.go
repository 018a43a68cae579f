// Package textfile reads text files as textnb's readers see them: it decodes
// bytes (UTF-8, else GB18030 for mostly Han text, else Latin-1, and UTF-16
// after a byte order mark), reads lines of any length, opens CSV and TSV
// files with their header, and locates malformed input in a ParseError.
// Package corpus builds on it and exports what users need.
package textfile
