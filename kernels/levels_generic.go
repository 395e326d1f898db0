package kernels

import (
	"encoding/binary"
	"math/bits"
)

// Dispatch variables for levels-to-bitmap; an architecture's init may replace
// one with an assembly implementation, once. Each returns the null count.
var (
	levelsToBitmap16 = levelsToBitmapGeneric[int16]
	levelsToBitmap8  = levelsToBitmapGeneric[uint8]
)

// Every implementation of each levels-to-bitmap kernel usable on this CPU,
// portable twin first.
var (
	levelsToBitmap16Impls = []impl[func([]byte, uint, []int16, int16) int]{{"go", levelsToBitmapGeneric[int16]}}
	levelsToBitmap8Impls  = []impl[func([]byte, uint, []uint8, uint8) int]{{"go", levelsToBitmapGeneric[uint8]}}
)

// bit returns 1 for true and 0 for false; the compiler makes it a SETcc.
func bit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// levelsToBitmapGeneric writes level >= t bits for every level: single bits
// up to the first byte boundary of dst, then 64 levels to a 64-bit store,
// then whole bytes, then single bits again.
func levelsToBitmapGeneric[T levelType](dst []byte, offset uint, levels []T, t T) int {
	n, valid := len(levels), 0
	for len(levels) > 0 && offset&7 != 0 {
		setBit(dst, offset, levels[0] >= t)
		valid += int(bit(levels[0] >= t))
		levels = levels[1:]
		offset++
	}
	d := dst[offset>>3:]
	for len(levels) >= 64 && len(d) >= 8 {
		l := (*[64]T)(levels)
		var w uint64
		for j := range l {
			w |= bit(l[j] >= t) << j
		}
		binary.LittleEndian.PutUint64(d, w)
		valid += bits.OnesCount64(w)
		levels, d = levels[64:], d[8:]
	}
	for len(levels) >= 8 && len(d) >= 1 {
		l := (*[8]T)(levels)
		var w uint64
		for j := range l {
			w |= bit(l[j] >= t) << j
		}
		d[0] = byte(w)
		valid += bits.OnesCount8(byte(w))
		levels, d = levels[8:], d[1:]
	}
	for j, l := range levels {
		setBit(d, uint(j), l >= t)
		valid += int(bit(l >= t))
	}
	return n - valid
}
