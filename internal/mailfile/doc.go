// Package mailfile is how package corpus finds mail among its files:
// Detect tells a message or an mbox from plain text by its first bytes,
// and Mbox splits an mbox file into messages, in bounded memory, for
// package mail to decode. NextLine and FieldName read header lines, for
// both packages.
package mailfile
