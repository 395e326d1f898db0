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
		use(&countAtLeast16, &countAtLeast16Impls, "avx2", countAtLeastAsm)
	}
}

// levelsToBitmap16Asm is the architecture's levels-to-bitmap kernel called
// directly, so that countAtLeastAsm's stack bitmap does not escape.
func levelsToBitmap16Asm(dst []byte, levels []int16, t int16) (n, valid int) {
	return asm.LevelsToBitmap16AVX2(dst, levels, t)
}
