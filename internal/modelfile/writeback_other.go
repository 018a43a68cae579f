//go:build !linux

package modelfile

import "os"

// startWriteback does nothing where the system has no sync_file_range.
func startWriteback(*os.File, int64, int64) {}
