// Package journal is the write-ahead log of updates that textnb serve
// learns into a model: every update a client is told succeeded is in the
// journal, synced to disk, before the answer goes out.
//
// A journal file lives beside its model file (PATH.journal) and belongs to
// one version of it, named by the SHA-256 of the model file's bytes (its
// base). It is a header and records:
//
//	header: "TEXTNBJ\n", uint32 version 1, the base's 32 bytes,
//	        CRC-32C of the 44 bytes before it
//	record: uint32 n, uint32 CRC-32C of n's 4 bytes, uint32 CRC-32C of
//	        the payload, n bytes of payload
//	payload: kind (1 learn, 2 unlearn, 3 compacted; +0x80 on the last
//	         update of a batch), uvarint sequence number; learn and unlearn: uvarint count, then count ×
//	         (uvarint length, label, uvarint length, text);
//	         compacted: the 32-byte SHA-256 of the model file it wrote
//
// Integers are little-endian. One record is one request, all its documents
// or none. Updates that arrive together are applied to the model as one
// batch (one refit), and a replay applies the same batches, so that it
// gives the same model even where a Learner's batch is not exactly its
// updates one by one. A record cut short by the end of the file, or whose payload
// fails its checksum with nothing but zeros after it, is a write that a
// crash interrupted, which no client was told succeeded: Open drops it.
// Any other bad record (a damaged length, a bad payload followed by more
// records) is damage, which Open reports (ErrCorrupt) rather than drop
// what follows. The length has a checksum of its own so that a damaged
// one is not mistaken for a record running past the end.
//
// Compaction writes the model with its updates to the model file. It
// first appends a compacted record naming the new file's SHA-256, then
// replaces the model file, then replaces the journal by one based on the
// new file holding only the records that arrived meanwhile. A crash at any
// step leaves a model file and a journal that Open reconciles: a model
// file equal to the base replays every record; one equal to a compacted
// record's target replays the records after it; any other model file
// (trained anew) supersedes the journal, which Open renames aside, never
// deletes.
package journal
