//go:build !purego

package kernels

import (
	"github.com/quiverio/quiver/kernels/asm"
	"golang.org/x/sys/cpu"
)

func init() {
	if cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasPOPCNT {
		use(&levelsToBitmap16, &levelsToBitmap16Impls, "avx2", levelsAsm(asm.LevelsToBitmap16AVX2))
		use(&levelsToBitmap8, &levelsToBitmap8Impls, "avx2", levelsAsm(asm.LevelsToBitmap8AVX2))
	}
}
