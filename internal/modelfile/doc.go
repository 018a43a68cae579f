// Package modelfile is the container every textnb model file shares, and
// the safe way of writing one.
//
// A model file is Magic, a little-endian uint32 format version, a uint32
// Kind, the kind's payload, and a CRC-32C (Castagnoli) of everything before
// it. Writer streams a file, computing the checksum as the bytes go out;
// Open checks one read whole and returns its payload. What the payload holds
// is the business of the package of each kind: pipeline for text models,
// multilabel for multi-label models, table for table models.
//
// Load refuses what is not a regular file, or does not start with the
// magic, before reading it whole. Save writes to a locked temporary file
// beside the target and renames it into place, so a failed or killed save
// never leaves a half-written model behind.
//
// Errors wrap the sentinels of errors.go; packages pipeline and textnb
// re-export them for users.
package modelfile
