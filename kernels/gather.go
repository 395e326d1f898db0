package kernels

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/quiverio/quiver/internal/arrowmem"
)

// Gather sets dst[i] = dict[idx[i]] for every index: dictionary-encoded
// values of 1, 2, 4, 8, 12, 16 or any other number of bytes (use fixed-size
// byte arrays such as [12]byte for INT96 and [16]byte for decimals).
// 4- and 8-byte values take a dispatched fast path. An index at or past
// len(dict) stops the gather with an error wrapping [ErrOutOfRange] that
// names the index and its position (dst then holds the values before it);
// len(dst) < len(idx) wraps [ErrShortBuffer].
func Gather[T any](dst, dict []T, idx []uint32) error {
	if len(dst) < len(idx) {
		return fmt.Errorf("%w: gather: %d slots for %d indices", ErrShortBuffer, len(dst), len(idx))
	}
	var v T
	var k int
	switch {
	case unsafe.Sizeof(v) == 4 && unsafe.Alignof(v) == 4:
		k = gather32(arrowmem.Cast[uint32](dst), arrowmem.Cast[uint32](dict), idx)
	case unsafe.Sizeof(v) == 8 && unsafe.Alignof(v) == 8:
		k = gather64(arrowmem.Cast[uint64](dst), arrowmem.Cast[uint64](dict), idx)
	default:
		k = gatherGeneric(dst, dict, idx)
	}
	return gatherErr(k, idx, len(dict))
}

// GatherFixed is [Gather] for FIXED_LEN_BYTE_ARRAY values of width bytes
// held back to back in dict and dst. A width below 1 or a dict or dst that
// is not a whole number of values wraps [ErrOutOfRange].
func GatherFixed(dst, dict []byte, width int, idx []uint32) error {
	if width <= 0 || len(dict)%width != 0 || len(dst)%width != 0 {
		return fmt.Errorf("%w: gather: %d and %d bytes are not whole %d-byte values", ErrOutOfRange, len(dict), len(dst), width)
	}
	switch width {
	case 1:
		return Gather(dst, dict, idx)
	case 2:
		return Gather(arrowmem.View[[2]byte](dst), arrowmem.View[[2]byte](dict), idx)
	case 4:
		// Aligned buffers (Arrow's and the pools' always are) take the
		// word gathers, and their assembly.
		if aligned(dst, 4) && aligned(dict, 4) {
			return Gather(arrowmem.View[uint32](dst), arrowmem.View[uint32](dict), idx)
		}
		return Gather(arrowmem.View[[4]byte](dst), arrowmem.View[[4]byte](dict), idx)
	case 8:
		if aligned(dst, 8) && aligned(dict, 8) {
			return Gather(arrowmem.View[uint64](dst), arrowmem.View[uint64](dict), idx)
		}
		return Gather(arrowmem.View[[8]byte](dst), arrowmem.View[[8]byte](dict), idx)
	case 12:
		return Gather(arrowmem.View[[12]byte](dst), arrowmem.View[[12]byte](dict), idx)
	case 16:
		return Gather(arrowmem.View[[16]byte](dst), arrowmem.View[[16]byte](dict), idx)
	}
	if len(dst)/width < len(idx) {
		return fmt.Errorf("%w: gather: %d slots for %d indices", ErrShortBuffer, len(dst)/width, len(idx))
	}
	n := len(dict) / width
	for i, ix := range idx {
		if uint64(ix) >= uint64(n) {
			return gatherErr(i, idx, n)
		}
		copy(dst[i*width:(i+1)*width], dict[int(ix)*width:])
	}
	return nil
}

// aligned reports whether b starts on a multiple of n bytes.
func aligned(b []byte, n uintptr) bool {
	return uintptr(unsafe.Pointer(unsafe.SliceData(b)))%n == 0
}

// gatherErr turns the count of indices gathered into the error, if any.
func gatherErr(k int, idx []uint32, dictLen int) error {
	if k < len(idx) {
		return fmt.Errorf("%w: dictionary index %d at position %d, dictionary has %d values", ErrOutOfRange, idx[k], k, dictLen)
	}
	return nil
}

// Dispatch variables for the 4- and 8-byte gathers; an arch init() may
// replace them once. Each gathers until the first index at or past
// len(dict) and returns how many it gathered; len(dst) >= len(idx).
var (
	gather32 = gatherGeneric[uint32]
	gather64 = gatherGeneric[uint64]
)

// Every implementation of each gather usable on this CPU, portable twin
// first, for tests.
var (
	gather32Impls = []impl[func(dst, dict []uint32, idx []uint32) int]{{"go", gatherGeneric[uint32]}}
	gather64Impls = []impl[func(dst, dict []uint64, idx []uint32) int]{{"go", gatherGeneric[uint64]}}
)

// Sequential reports whether idx counts up by one from idx[0] (an empty or
// one-index idx does), without wrapping past the largest uint32: the
// indices of a dictionary page whose values are all distinct and in the
// order the page's rows hold them, which a writer produces for a column of
// unique values. Such a run gathers as one copy of the dictionary's values
// idx[0] to idx[0]+len(idx)-1. It reads idx in blocks of 8 and stops at the
// first block out of step.
func Sequential(idx []uint32) bool {
	if len(idx) == 0 {
		return true
	}
	base := idx[0]
	if uint64(base)+uint64(len(idx))-1 > math.MaxUint32 {
		return false
	}
	i := 0
	for ; i+8 <= len(idx); i += 8 {
		b := idx[i : i+8 : i+8]
		v := base + uint32(i)
		if (b[0]^v)|(b[1]^(v+1))|(b[2]^(v+2))|(b[3]^(v+3))|(b[4]^(v+4))|(b[5]^(v+5))|(b[6]^(v+6))|(b[7]^(v+7)) != 0 {
			return false
		}
	}
	for ; i < len(idx); i++ {
		if idx[i] != base+uint32(i) {
			return false
		}
	}
	return true
}
