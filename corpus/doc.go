// Package corpus reads labeled and unlabeled text documents and splits them
// into train/test sets and folds.
//
// # Formats
//
// What a path is chooses the format:
//
//   - A directory with one subfolder per class: every regular file in a class
//     folder (nested folders included) is one document labeled with the class
//     folder's name. Hidden entries (".x") are skipped, symlinks to regular
//     files are followed, and files directly in the root are an error unless
//     Options.Unlabeled is set.
//   - A .tsv file: label<TAB>text per line, or a header line naming the label
//     and text columns (any other columns are ignored).
//   - A .csv file (RFC 4180): a header naming the label and text columns is
//     required; quoted fields may span lines.
//   - A .jsonl (or .ndjson) file: one JSON object per line with string fields
//     "label" and "text" (or the names set in Options).
//   - A .txt file: a single document, only when reading unlabeled.
//   - Mail (Options.Input, InputAuto by default): a file of a folder that
//     is an RFC 5322 message (.eml, or detected by its header block, as
//     internal/mailfile.Detect tells) is one document, the text mail.Decode renders of it; an
//     mbox file (.mbox, or starting with a "From " line) is one document per
//     message, named path:N (path alone for a file of one message); a
//     Maildir's cur and new folders are read and its tmp skipped. An .eml or
//     .mbox file may also be read alone, unlabeled. An mbox larger than
//     64 MiB is streamed, a message at a time. Plain text, 20 Newsgroups
//     posts with their From: and Subject: lines included, reads as text;
//     InputText reads every file as text, InputMail every file as mail.
//
// Options.Format reads a file of any extension as a line file of that
// format, and [WalkReader] reads a stream, such as standard input, in one:
// FormatLines is one unlabeled document per line, blank lines included.
// Options.IDField and Options.Fields ask for a row's id and further fields
// by name (Document.ID and Document.Fields), taken from the same split of a
// TSV line or CSV record, and the same scan of a JSON object, as its text.
//
// Blank lines in line files are skipped. Line numbers in errors and in
// Document.Source count every physical line, header included; a CSV record
// spanning lines is numbered by its first line.
//
// # Encodings
//
// Files (and each line of a line file, or each CSV field) are decoded as
// UTF-8 (a byte order mark is stripped), else GB18030 when that decodes
// cleanly into mostly Han text, else Latin-1, which never fails. A file
// that starts with a UTF-16 byte order mark is UTF-16: a folder's file is
// decoded whole, a line file is transcoded as it is read. [Stats] counts
// the [Encoding] of each document.
//
// Lines may be of any length: a line longer than the read buffer is
// gathered in memory of its own, at most twice its size while it is read,
// and nothing of it is kept for the next.
//
// # Streaming
//
// [Walk] reads and decodes files on Options.Workers goroutines ahead of
// the callback, but calls it sequentially in a deterministic order (class
// folders sorted, files sorted by name, line files in line order). The
// read-ahead is bounded, so memory stays proportional to the number of
// workers, not to the corpus. [Walk] also reports a [Stats] summary: how many
// documents were empty, which encodings were seen, and whether labels were
// ignored because an unlabeled read met a labeled file.
//
// # Errors
//
// A malformed line or record is a [*ParseError] naming the file and line;
// errors wrap the sentinel errors below, for use with errors.Is.
package corpus
