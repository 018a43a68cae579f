package shard

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/textnb/textnb/internal/check"
	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/nb"
)

// A dense table of class sums is written, after denseSumsMagic, little
// endian: uint32 classes, uint32 features, a byte 1 if binary, the
// float64 threshold and class counts, then each class's sums, as a byte 0
// and its features' float64 sums, or, when fewer than two thirds of them
// are non-zero, a byte 1, a uint32 n, the n increasing uint32 features and
// their n float64 sums. Unlike gob it is written and read a class at a
// time, with no copy of the whole table.

// denseClassSparse reports whether class k's sums are written sparse,
// with the number n of its non-zero sums.
func denseClassSparse(d *nb.Counts, k int) (sparse bool, n int) {
	for _, v := range d.FeatureCount[k*d.Features : (k+1)*d.Features] {
		if v != 0 {
			n++
		}
	}
	return 12*n < 8*d.Features, n
}

func appendDenseHeader(b []byte, d *nb.Counts) []byte {
	b = append(b, denseSumsMagic...)
	b = binary.LittleEndian.AppendUint32(b, uint32(d.Classes))
	b = binary.LittleEndian.AppendUint32(b, uint32(d.Features))
	var bin byte
	if d.Binary {
		bin = 1
	}
	b = append(b, bin)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(d.Threshold))
	for _, v := range d.ClassCount {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// appendDenseClass appends class k's sums.
func appendDenseClass(b []byte, d *nb.Counts, k int) []byte {
	row := d.FeatureCount[k*d.Features : (k+1)*d.Features]
	sparse, n := denseClassSparse(d, k)
	if !sparse {
		b = append(b, 0)
		for _, v := range row {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		return b
	}
	b = append(b, 1)
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	for j, v := range row {
		if v != 0 {
			b = binary.LittleEndian.AppendUint32(b, uint32(j))
		}
	}
	for _, v := range row {
		if v != 0 {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b
}

var errDense = errors.New("dense class sums")

// readDense reads a dense table after its magic.
func readDense(r io.Reader) (*nb.Counts, error) {
	head := make([]byte, len(denseSumsMagic)+4+4+1+8)
	if _, err := io.ReadFull(r, head); err != nil {
		return nil, fmt.Errorf("%w: header: %v", errDense, err)
	}
	h := head[len(denseSumsMagic):]
	classes, features := int(binary.LittleEndian.Uint32(h)), int(binary.LittleEndian.Uint32(h[4:]))
	if classes < 1 || classes > compact.MaxClasses || features > denseCells/classes {
		return nil, fmt.Errorf("%w: %d classes × %d features", errDense, classes, features)
	}
	if h[8] > 1 {
		return nil, fmt.Errorf("%w: binary flag %d", errDense, h[8])
	}
	d := &nb.Counts{Classes: classes, Features: features, Binary: h[8] == 1,
		Threshold: math.Float64frombits(binary.LittleEndian.Uint64(h[9:]))}
	if math.IsNaN(d.Threshold) {
		return nil, fmt.Errorf("%w: threshold NaN", errDense)
	}
	var err error
	if d.ClassCount, err = readFloats(r, make([]float64, classes)); err != nil {
		return nil, err
	}
	if err := check.Weights("class count", d.ClassCount); err != nil {
		return nil, err
	}
	d.FeatureCount = make([]float64, classes*features)
	var idx []int32
	var val []float64
	for k := range classes {
		row := d.FeatureCount[k*features : (k+1)*features]
		var mode [1]byte
		if _, err := io.ReadFull(r, mode[:]); err != nil {
			return nil, fmt.Errorf("%w: class %d: %v", errDense, k, err)
		}
		switch mode[0] {
		case 0:
			if _, err := readFloats(r, row); err != nil {
				return nil, err
			}
		case 1:
			var cnt [4]byte
			if _, err := io.ReadFull(r, cnt[:]); err != nil {
				return nil, fmt.Errorf("%w: class %d: %v", errDense, k, err)
			}
			n := int(binary.LittleEndian.Uint32(cnt[:]))
			if n > features {
				return nil, fmt.Errorf("%w: class %d: %d sums of %d features", errDense, k, n, features)
			}
			if idx, err = readInts(r, idx[:0], n); err != nil {
				return nil, err
			}
			if val, err = readFloats(r, append(val[:0], make([]float64, n)...)); err != nil {
				return nil, err
			}
			for p, j := range idx {
				if j < 0 || int(j) >= features || p > 0 && j <= idx[p-1] {
					return nil, fmt.Errorf("%w: class %d: feature %d out of order or ≥ %d", errDense, k, j, features)
				}
				row[j] = val[p]
			}
		default:
			return nil, fmt.Errorf("%w: class %d: mode %d", errDense, k, mode[0])
		}
		if err := check.Weights("feature count", row); err != nil {
			return nil, err
		}
	}
	if n, _ := r.Read(make([]byte, 1)); n != 0 {
		return nil, fmt.Errorf("%w: data after the sums", errDense)
	}
	return d, nil
}

// readFloats fills dst with little-endian float64s from r.
func readFloats(r io.Reader, dst []float64) ([]float64, error) {
	var buf [8 << 10]byte
	for p := 0; p < len(dst); {
		n := min(len(dst)-p, len(buf)/8)
		if _, err := io.ReadFull(r, buf[:8*n]); err != nil {
			return nil, fmt.Errorf("%w: %v", errDense, err)
		}
		for i := range n {
			dst[p+i] = math.Float64frombits(binary.LittleEndian.Uint64(buf[8*i:]))
		}
		p += n
	}
	return dst, nil
}

// readInts appends n little-endian uint32s from r to dst.
func readInts(r io.Reader, dst []int32, n int) ([]int32, error) {
	var buf [4 << 10]byte
	for n > 0 {
		m := min(n, len(buf)/4)
		if _, err := io.ReadFull(r, buf[:4*m]); err != nil {
			return nil, fmt.Errorf("%w: %v", errDense, err)
		}
		for i := range m {
			dst = append(dst, int32(binary.LittleEndian.Uint32(buf[4*i:])))
		}
		n -= m
	}
	return dst, nil
}
