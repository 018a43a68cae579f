package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

func TestHugeRange(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct{ p, n, lo, hi uintptr }{
		{0, 4 * mb, 0, 4 * mb},
		{mb, 4 * mb, 2 * mb, 4 * mb},
		{mb, 2 * mb, 2 * mb, 2 * mb}, // no whole huge page: empty
		{3 * mb, mb, 4 * mb, 4 * mb},
	} {
		if lo, hi := hugeRange(c.p, c.n, 2*mb); lo != c.lo || hi != c.hi {
			t.Errorf("hugeRange(%#x, %#x) = %#x, %#x, want %#x, %#x", c.p, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

func TestTHPSettings(t *testing.T) {
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
	for godebug, want := range map[string]bool{
		"":                            false,
		"disablethp=1":                true,
		"disablethp=2":                true,
		"gctrace=1, disablethp=1":     false, // the runtime does not trim " disablethp"
		"disablethp=1,disablethp=x":   true,  // nor take a value that is not an integer
		"disablethp=+0":               false,
		"disablethp=1,disablethp=0":   false,
		"disablethp=0,disablethp=01":  true,
		"madvdontneed=1,disablethp=0": false,
	} {
		if got := disablesTHP(godebug); got != want {
			t.Errorf("disablesTHP(%q) = %v, want %v", godebug, got, want)
		}
	}
}

// TestAdviseHugePages checks that the reserve's range is marked for huge
// pages where the kernel leaves them to the program.
func TestAdviseHugePages(t *testing.T) {
	size, _ := hugeReserveSize()
	lo, hi := adviseHugePages()
	if size == 0 {
		if lo != hi {
			t.Fatalf("advised [%#x, %#x) where huge pages are not wanted", lo, hi)
		}
		t.Skip("transparent huge pages are not in madvise mode here, or the reserve would not fit")
	}
	if hi-lo < uintptr(size)/2 {
		t.Fatalf("advised [%#x, %#x), under half the %d-byte reserve", lo, hi, size)
	}
	for _, p := range []uintptr{lo, hi - 1} {
		flags, err := vmFlags(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(" "+flags+" ", " hg ") {
			t.Errorf("the mapping at %#x has flags %q, want hg (MADV_HUGEPAGE)", p, flags)
		}
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

// TestHugeReserveNotCleared checks that the reserve stays out of memory
// when pages a collection freed lie at the top of the heap: the runtime
// clears a new object that begins in such pages, and a reserve made in one
// piece would then be resident whole. It runs in a process of its own, as
// textnb makes the reserve once, first.
func TestHugeReserveNotCleared(t *testing.T) {
	if size, _ := hugeReserveSize(); size == 0 {
		t.Skip("transparent huge pages are not in madvise mode here, or the reserve would not fit")
	}
	if os.Getenv("TEXTNB_TEST_RESERVE") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHugeReserveNotCleared$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "TEXTNB_TEST_RESERVE=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	top := make([]byte, 16<<20) // beyond any hole, so at the top of the heap
	top[0] = 1
	top = nil
	runtime.GC()
	before := residentBytes(t)
	adviseHugePages()
	if grew := residentBytes(t) - before; grew > 64<<20 {
		t.Errorf("making the reserve added %d MiB resident, want the reserve left untouched", grew>>20)
	}
}

// residentBytes returns the process's resident memory.
func residentBytes(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Fatal(err)
	}
	var size, resident int64
	if _, err := fmt.Sscan(string(data), &size, &resident); err != nil {
		t.Fatal(err)
	}
	return resident * int64(os.Getpagesize())
}
