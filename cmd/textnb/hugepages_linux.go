package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// adviseHugePages asks Linux to back the heap with transparent huge pages
// when the kernel leaves that to each program (THP mode "madvise", the
// default of Debian and Ubuntu), which Go's runtime does not do: training's
// large tables otherwise cost a page fault per 4 KiB and miss the TLB on
// most random reads. It returns the range it advised, if any.
//
// The runtime maps heap arenas only as the heap grows, so advice given at
// start would miss them. Instead slices that are never written reserve
// address space for the heap (and a little of the runtime's metadata), take
// the advice and are freed: the heap grows into that range first.
// GODEBUG=disablethp=1 turns this off, as it does the runtime's own use of
// huge pages.
//
// The reserve is made of hugePiece-byte slices, with the collector off so
// that the collection that frees them is the only one. The runtime clears a
// new object that reuses pages it has used before: where a collection freed
// pages at the top of the heap, a reserve in one piece would begin there
// and be cleared whole, all of it resident; in pieces, only those that land
// there are.
func adviseHugePages() (lo, hi uintptr) {
	size, page := hugeReserveSize()
	if size == 0 {
		return 0, 0
	}
	percent := debug.SetGCPercent(-1) // waits for a collection under way
	defer debug.SetGCPercent(percent)
	pieces := make([][]byte, 0, size/hugePiece)
	for range cap(pieces) {
		pieces = append(pieces, make([]byte, hugePiece))
	}
	base, end := ^uintptr(0), uintptr(0)
	for _, b := range pieces {
		p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		base, end = min(base, p), max(end, p+hugePiece)
	}
	lo, hi = hugeRange(base, end-base, page)
	if lo == hi || madvise(lo, hi-lo, syscall.MADV_HUGEPAGE) != nil {
		lo, hi = 0, 0
	}
	pieces = nil
	runtime.GC() // frees the reserve now, so that the heap grows into it
	return lo, hi
}

// hugePiece is the size of the reserve's pieces: large enough that the
// reserve takes few allocations, small enough that clearing one costs
// little.
const hugePiece = 8 << 20

// madvise is syscall.Madvise for a range given by address.
func madvise(p, n uintptr, advice int) error {
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, p, n, uintptr(advice))
	if errno != 0 {
		return errno
	}
	return nil
}

// hugeReserveSize returns the bytes of address space to reserve and the
// huge page size, or 0 where advising huge pages is not wanted or could
// make the reserve fail (a fatal error in Go).
func hugeReserveSize() (size, page uint64) {
	page, _ = strconv.ParseUint(readFirstLine("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"), 10, 64)
	var info syscall.Sysinfo_t
	switch {
	case unsafe.Sizeof(uintptr(0)) < 8, // the reserve would crowd a 32-bit address space
		page == 0,
		!thpAdvised(readFirstLine("/sys/kernel/mm/transparent_hugepage/enabled")),
		readFirstLine("/proc/sys/vm/overcommit_memory") == "2", // the reserve would be charged
		disablesTHP(os.Getenv("GODEBUG")),
		os.Getenv("TEXTNB_MEMPROFILE") != "", // the reserve would swamp the profile
		syscall.Sysinfo(&info) != nil:
		return 0, 0
	}
	size = min(hugeReserve, uint64(info.Totalram)*uint64(info.Unit)/4)
	if size < 4*page || !mappable(2*size) {
		return 0, 0
	}
	return size, page
}

// mappable reports whether n bytes of address space can be mapped now,
// under the process's limits (ulimit -v, -d), by mapping and unmapping
// them: the runtime takes a failed mapping for a fatal error.
func mappable(n uint64) bool {
	m, err := syscall.Mmap(-1, 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return false
	}
	return syscall.Munmap(m) == nil
}

const hugeReserve = 1 << 30

// thpAdvised reports whether a THP "enabled" setting is madvise mode.
func thpAdvised(setting string) bool { return strings.Contains(setting, "[madvise]") }

// disablesTHP reports whether a GODEBUG value turns huge pages off, read
// as the runtime's parsegodebug reads it: fields split at commas, untrimmed;
// the last disablethp with an integer value counts, and any integer but 0
// disables.
func disablesTHP(godebug string) bool {
	off := false
	for f := range strings.SplitSeq(godebug, ",") {
		if v, ok := strings.CutPrefix(f, "disablethp="); ok {
			if n, err := strconv.ParseInt(v, 10, 32); err == nil {
				off = n != 0
			}
		}
	}
	return off
}

// hugeRange returns the whole huge pages of size page within [p, p+n).
func hugeRange(p, n uintptr, page uint64) (lo, hi uintptr) {
	mask := uintptr(page) - 1
	lo = (p + mask) &^ mask
	hi = (p + n) &^ mask
	return lo, max(lo, hi)
}

// readFirstLine returns the first line of a small file, or "" if it cannot
// be read.
func readFirstLine(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(data), "\n")
	return line
}
