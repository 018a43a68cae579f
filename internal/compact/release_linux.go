package compact

import (
	"os"
	"syscall"
	"unsafe"
)

// releasePages hands the whole memory pages inside v back to the system
// (madvise MADV_DONTNEED), which reads them as zero from then on. It is for
// a large buffer whose values are no longer needed but which stays
// referenced a while, so that its memory can go to what is built from it.
func releasePages(v []float64) {
	if len(v) == 0 {
		return
	}
	page := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(unsafe.SliceData(v)))
	end := start + uintptr(len(v))*unsafe.Sizeof(v[0])
	lo, hi := (start+page-1)&^(page-1), end&^(page-1)
	if lo >= hi {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(v)), lo-start)), hi-lo)
	_ = syscall.Madvise(b, syscall.MADV_DONTNEED) // only advice: on failure the memory stays
}
