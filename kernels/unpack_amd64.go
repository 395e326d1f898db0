//go:build !purego

package kernels

import (
	"github.com/quiverio/quiver/kernels/asm"
	"golang.org/x/sys/cpu"
)

func init() {
	if cpu.X86.HasAVX && cpu.X86.HasAVX2 {
		use(&unpack32, &unpack32Impls, "avx2", unpack32AVX2)
		use(&unpack64, &unpack64Impls, "avx2", unpack64AVX2)
	}
}

// unpack32AVX2 unpacks every whole block with AVX2 and the last partial
// block (or all of a src too short for the kernel's load window) with the
// portable twin.
func unpack32AVX2(dst []uint32, src []byte, width uint) {
	if n := asm.Unpack32AVX2(dst, src, width); n < len(dst) {
		unpackGeneric(dst[n:], src[uint(n)/8*width:], width)
	}
}

// unpack64AVX2 is unpack32AVX2 for uint64 values.
func unpack64AVX2(dst []uint64, src []byte, width uint) {
	if n := asm.Unpack64AVX2(dst, src, width); n < len(dst) {
		unpack64Generic(dst[n:], src[uint(n)/8*width:], width)
	}
}
