module github.com/textnb/textnb

go 1.26.8

require (
	github.com/RoaringBitmap/roaring/v2 v2.30.0
	github.com/go-ego/gse v0.80.3
	github.com/kljensen/snowball v0.10.0
	golang.org/x/sys v0.30.0
	golang.org/x/text v0.43.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/bits-and-blooms/bitset v1.24.4 // indirect
	github.com/mschoch/smat v0.2.0 // indirect
	github.com/vcaesar/cedar v0.20.2 // indirect
)
