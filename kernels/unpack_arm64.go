//go:build !purego

package kernels

import (
	"github.com/quiverio/quiver/kernels/asm"
	"golang.org/x/sys/cpu"
)

func init() {
	if cpu.ARM64.HasASIMD {
		use(&unpack32, &unpack32Impls, "neon", unpack32NEON)
		use(&unpack64, &unpack64Impls, "neon", unpack64NEON)
	}
}

// unpack32NEON unpacks whole blocks with NEON, those near the end of src
// from a padded copy, and the last partial block with the portable twin.
func unpack32NEON(dst []uint32, src []byte, width uint) {
	n := asm.Unpack32NEON(dst, src, width)
	var pad [2 * padWindow]byte
	dst, src, m := padRest(dst, src, n, width, pad[:])
	n = asm.Unpack32NEON(dst[:m], pad[:], width)
	unpackGeneric(dst[n:], src[uint(n)/8*width:], width)
}

// unpack64NEON is unpack32NEON for uint64 values.
func unpack64NEON(dst []uint64, src []byte, width uint) {
	n := asm.Unpack64NEON(dst, src, width)
	var pad [2 * padWindow]byte
	dst, src, m := padRest(dst, src, n, width, pad[:])
	n = asm.Unpack64NEON(dst[:m], pad[:], width)
	unpack64Generic(dst[n:], src[uint(n)/8*width:], width)
}
