package textfile

import (
	"fmt"
	"unsafe"

	"github.com/textnb/textnb/internal/readfile"
)

// ReadFile returns the text of the file at path, one document, decoded as
// Decode decodes it but without a copy of UTF-8 text: the memory it reads
// the file into becomes the text.
func ReadFile(path string) (string, Encoding, error) {
	raw, err := readfile.ReadFile(path)
	if err != nil {
		return "", 0, fmt.Errorf("corpus: %w", err)
	}
	text, enc := DecodeString(unsafe.String(unsafe.SliceData(raw), len(raw))) // raw is never written again
	return text, enc, nil
}
