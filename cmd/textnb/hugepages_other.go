//go:build !linux

package main

// adviseHugePages does nothing outside Linux.
func adviseHugePages() {}
