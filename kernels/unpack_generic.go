package kernels

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
// through the generated straight-line code, the rest value by value.
func unpackGeneric[T packable](dst []T, src []byte, width uint) {
	if width == 0 {
		clear(dst)
		return
	}
	n := unpackBlocks(dst, src, width)
	unpackTail(dst[n:], src[uint(n)/8*width:], width)
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
