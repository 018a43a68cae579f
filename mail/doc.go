// Package mail turns raw e-mail into document text: the stage before
// tokenizing when a corpus holds mail (RFC 5322 messages, mbox files,
// Maildirs) rather than plain text.
//
// [Decode] parses one message and renders it as text that the tokenizer
// reads like any document: the Subject (counted as a title), the From and
// To lines, the text of the text/plain parts and the visible text of the
// HTML parts, then a line of feature tokens. Bodies are decoded from base64
// and quoted-printable and from their charset; headers from RFC 2047
// encoded words. Multipart bodies nest to Config.MaxDepth; attachments are
// counted by type and file name, never read.
//
// Feature tokens start with [Marker], a Latin letter (U+01C2) that the
// tokenizer keeps inside a word and that Decode removes from everything
// else it renders, so no word of a message can produce one. Their values
// are lowercased ASCII letters and digits, anything else an underscore
// (bob@example.com is bob_example_com), so each is one word whatever the
// tokenizer's settings. The groups
// (see [Features]) are switchable; Config's zero value renders them all.
//
// Package corpus reads mail as documents: it tells a message or an mbox
// file from plain text by its first bytes, strictly (a header block alone,
// such as a 20 Newsgroups post's From: and Subject:, is not enough without
// a Received field, a Message-ID with a Date, or a leading mbox "From "
// line), and splits an mbox file into messages of at most
// Config.MaxMessage bytes (internal/mailfile), then decodes each here.
//
// Decoding never fails: a damaged message (a missing boundary, invalid
// base64, an unknown charset, an endless header line) gives what can be
// read of it, and Message.Damaged says so.
package mail
