//go:build !purego

package kernels

import (
	"github.com/quiverio/quiver/kernels/asm"
	"golang.org/x/sys/cpu"
)

func init() {
	if cpu.X86.HasAVX && cpu.X86.HasAVX2 {
		use(&deltaPrefixSum32, &deltaPrefixSum32Impls, "avx2", prefixAsm(asm.DeltaPrefixSum32AVX2))
		use(&deltaPrefixSum64, &deltaPrefixSum64Impls, "avx2", prefixAsm(asm.DeltaPrefixSum64AVX2))
	}
}
