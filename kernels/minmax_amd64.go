//go:build !purego

package kernels

import (
	"github.com/quiverio/quiver/kernels/asm"
	"golang.org/x/sys/cpu"
)

func init() {
	if cpu.X86.HasAVX && cpu.X86.HasAVX2 {
		use(&minMaxNaN32, &minMaxNaN32Impls, "avx2", minMaxNaNAsm(asm.MinMaxNaN32AVX2))
		use(&minMaxNaN64, &minMaxNaN64Impls, "avx2", minMaxNaNAsm(asm.MinMaxNaN64AVX2))
	}
}
