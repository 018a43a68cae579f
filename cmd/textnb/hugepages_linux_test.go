package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

func TestHugeRange(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct{ p, n, lo, hi uintptr }{
		{0, 4 * mb, 0, 4 * mb},
		{mb, 4 * mb, 2 * mb, 4 * mb},
		{mb, 2 * mb, 2 * mb, 2 * mb}, // no whole huge page: empty
		{3 * mb, mb, 4 * mb, 4 * mb},
	} {
		if lo, hi := hugeRange(c.p, c.n); lo != c.lo || hi != c.hi {
			t.Errorf("hugeRange(%#x, %#x) = %#x, %#x, want %#x, %#x", c.p, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

func TestTHPAdvised(t *testing.T) {
	for setting, want := range map[string]bool{
		"always [madvise] never": true,
		"[always] madvise never": false,
		"always madvise [never]": false,
		"":                       false,
	} {
		if got := thpAdvised(setting); got != want {
			t.Errorf("thpAdvised(%q) = %v, want %v", setting, got, want)
		}
	}
}

// TestAdviseHugePages checks that a large allocation made after the advice
// lands in memory that the kernel may back with huge pages.
func TestAdviseHugePages(t *testing.T) {
	if !thpAdvised(readFirstLine("/sys/kernel/mm/transparent_hugepage/enabled")) ||
		readFirstLine("/proc/sys/vm/overcommit_memory") == "2" || strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") {
		t.Skip("transparent huge pages are not in madvise mode here")
	}
	adviseHugePages()
	b := make([]byte, 64<<20)
	// Its middle: its first huge page may be shared with older objects.
	flags, err := vmFlags(uintptr(unsafe.Pointer(&b[len(b)/2])))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("the mapping of a new 64 MiB slice has flags %q, want hg (MADV_HUGEPAGE)", flags)
	}
}

// vmFlags returns the VmFlags line of the mapping that holds address p.
func vmFlags(p uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	inside := false
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			inside = lo <= p && p < hi
			continue
		}
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && inside {
			return strings.TrimSpace(flags), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no mapping holds %#x", p)
}
