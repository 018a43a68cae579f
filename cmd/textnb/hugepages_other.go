//go:build !linux

package main

// adviseHugePages does nothing outside Linux.
func adviseHugePages() (lo, hi uintptr) { return 0, 0 }
