package kernels

import "encoding/binary"

//go:generate go run unpack_gen.go

// packable is the set of value types the bit-packing kernels read and write.
// The generated block functions are generic over it for widths up to 32, so
// each destination type gets its own compiled copy without copied source.
type packable interface {
	uint8 | uint16 | int16 | uint32 | uint64
}

// Dispatch variables for bit-unpacking; an architecture's init may replace
// one with an assembly implementation, once. Each sees exactly the bytes its
// values occupy.
var (
	unpack8  = unpackGeneric[uint8]
	unpack16 = unpackGeneric[uint16]
	unpack32 = unpackGeneric[uint32]
	unpack64 = unpack64Generic
)

// Every implementation of each unpack kernel usable on this CPU, portable
// twin first, so that tests and benchmarks can run them side by side.
var (
	unpack8Impls  = []impl[func([]uint8, []byte, uint)]{{"go", unpackGeneric[uint8]}}
	unpack16Impls = []impl[func([]uint16, []byte, uint)]{{"go", unpackGeneric[uint16]}}
	unpack32Impls = []impl[func([]uint32, []byte, uint)]{{"go", unpackGeneric[uint32]}}
	unpack64Impls = []impl[func([]uint64, []byte, uint)]{{"go", unpack64Generic}}
)

// unpackGeneric unpacks len(dst) values of width bits (at most 32) from src,
// which holds at least (len(dst)*width+7)/8 bytes: whole blocks of 32 values
// through the generated straight-line code, then whole groups of 8
// (unpackGroups), the last few value by value.
func unpackGeneric[T packable](dst []T, src []byte, width uint) {
	if width == 0 {
		clear(dst)
		return
	}
	n := unpackBlocks(dst, src, width)
	n += unpackGroups(dst[n:], src[uint(n)/8*width:], width)
	unpackTail(dst[n:], src[uint(n)/8*width:], width)
}

// unpackGroups unpacks the whole groups of 8 values at the front of dst
// (each group is width bytes of src, width at most 32) with one unaligned
// load per value, and returns how many values it wrote. It serves the
// short bit-packed runs of RLE-hybrid data (levels, small dictionaries),
// which are too short for unpackBlocks' 32-value blocks.
func unpackGroups[T packable](dst []T, src []byte, width uint) int {
	n := len(dst) &^ 7
	mask := uint64(1)<<width - 1
	var pad [40]byte
	for g := 0; g < n; g += 8 {
		s := src[uint(g)/8*width:]
		// Value j's 64-bit load starts at byte j*width/8 <= 28 (the
		// mask, a no-op, lets the compiler drop the bounds checks).
		var p *[40]byte
		if len(s) >= len(pad) {
			p = (*[40]byte)(s)
		} else {
			copy(pad[:], s[:width])
			p = &pad
		}
		d := (*[8]T)(dst[g:])
		d[0] = T(binary.LittleEndian.Uint64(p[0:]) & mask)
		d[1] = T(binary.LittleEndian.Uint64(p[(width>>3)&31:]) >> (width & 7) & mask)
		d[2] = T(binary.LittleEndian.Uint64(p[(2*width>>3)&31:]) >> (2 * width & 7) & mask)
		d[3] = T(binary.LittleEndian.Uint64(p[(3*width>>3)&31:]) >> (3 * width & 7) & mask)
		d[4] = T(binary.LittleEndian.Uint64(p[(4*width>>3)&31:]) >> (4 * width & 7) & mask)
		d[5] = T(binary.LittleEndian.Uint64(p[(5*width>>3)&31:]) >> (5 * width & 7) & mask)
		d[6] = T(binary.LittleEndian.Uint64(p[(6*width>>3)&31:]) >> (6 * width & 7) & mask)
		d[7] = T(binary.LittleEndian.Uint64(p[(7*width>>3)&31:]) >> (7 * width & 7) & mask)
	}
	return n
}

// unpack64Generic is unpackGeneric for uint64 values of up to 64 bits.
func unpack64Generic(dst []uint64, src []byte, width uint) {
	if width == 0 {
		clear(dst)
		return
	}
	n := unpackBlocks64(dst, src, width)
	unpackTail(dst[n:], src[uint(n)/8*width:], width)
}

// unpackTail unpacks values one at a time, reading only the bytes each value
// touches, so it is safe at the very end of src.
func unpackTail[T packable](dst []T, src []byte, width uint) {
	mask := uint64(1)<<width - 1 // all ones when width is 64
	bit := uint(0)
	for i := range dst {
		at, shift := bit>>3, bit&7
		end := (bit + width + 7) >> 3
		var v uint64
		for k := at; k < end && k < at+8; k++ {
			v |= uint64(src[k]) << (8 * (k - at))
		}
		v >>= shift
		if end-at > 8 {
			v |= uint64(src[at+8]) << (64 - shift)
		}
		dst[i] = T(v & mask)
		bit += width
	}
}
