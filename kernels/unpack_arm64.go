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

// unpack32NEON unpacks every whole block with NEON and the last partial
// block (or all of a src too short for the kernel's load window) with the
// portable twin.
func unpack32NEON(dst []uint32, src []byte, width uint) {
	if n := asm.Unpack32NEON(dst, src, width); n < len(dst) {
		unpackGeneric(dst[n:], src[uint(n)/8*width:], width)
	}
}

// unpack64NEON is unpack32NEON for uint64 values.
func unpack64NEON(dst []uint64, src []byte, width uint) {
	if n := asm.Unpack64NEON(dst, src, width); n < len(dst) {
		unpack64Generic(dst[n:], src[uint(n)/8*width:], width)
	}
}
