//go:build !purego

package kernels

import (
	"github.com/quiverio/quiver/kernels/asm"
	"golang.org/x/sys/cpu"
)

func init() {
	if cpu.X86.HasAVX && cpu.X86.HasAVX2 {
		use(&gather32, &gather32Impls, "avx2", gatherAsm(asm.Gather32AVX2))
		use(&gather64, &gather64Impls, "avx2", gatherAsm(asm.Gather64AVX2))
	}
}
