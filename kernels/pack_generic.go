package kernels

import "encoding/binary"

// Dispatch variables for bit-packing; an architecture's init may replace one
// with an assembly implementation, once. Each is given exactly the bytes the
// packed values occupy.
var (
	pack32 = packGeneric[uint32]
	pack64 = pack64Generic
)

// Every implementation of each pack kernel usable on this CPU, portable twin
// first.
var (
	pack32Impls = []impl[func([]byte, []uint32, uint)]{{"go", packGeneric[uint32]}}
	pack64Impls = []impl[func([]byte, []uint64, uint)]{{"go", pack64Generic}}
)

// packGeneric packs src into dst, which holds exactly
// (len(src)*width+7)/8 bytes, width at most 32.
func packGeneric[T packable](dst []byte, src []T, width uint) {
	if width == 0 {
		return
	}
	n := packBlocks(dst, src, width)
	packTail(dst[uint(n)/8*width:], src[n:], width)
}

// pack64Generic is packGeneric for uint64 values of up to 64 bits.
func pack64Generic(dst []byte, src []uint64, width uint) {
	if width == 0 {
		return
	}
	n := packBlocks64(dst, src, width)
	packTail(dst[uint(n)/8*width:], src[n:], width)
}

// packTail packs values one at a time through a 64-bit accumulator, writing
// only the (len(src)*width+7)/8 bytes they occupy.
func packTail[T packable](dst []byte, src []T, width uint) {
	mask := uint64(1)<<width - 1
	var acc uint64
	nacc := uint(0) // bits pending in acc, always below 8 between values
	o := 0
	for _, x := range src {
		v := uint64(x) & mask
		acc |= v << nacc
		total := nacc + width
		if total >= 64 {
			binary.LittleEndian.PutUint64(dst[o:], acc)
			o += 8
			total -= 64
			acc = v >> (width - total)
		}
		for total >= 8 {
			dst[o] = byte(acc)
			o++
			acc >>= 8
			total -= 8
		}
		nacc = total
	}
	if nacc > 0 {
		dst[o] = byte(acc)
	}
}
