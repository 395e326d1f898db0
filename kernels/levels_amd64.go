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
		use(&countAtLeast16, &countAtLeast16Impls, "avx2", countAtLeastAVX2)
	}
}

// countAtLeastAVX2 counts through the levels-to-bitmap kernel, chunk by
// chunk into a bitmap on the stack (the kernel does not let it escape),
// finishing the last levels with the portable twin.
func countAtLeastAVX2(levels []int16, t int16) int {
	var b [countChunk / 8]byte
	n := 0
	for len(levels) >= 32 {
		k, set := asm.LevelsToBitmap16AVX2(b[:], levels, t)
		n, levels = n+set, levels[k:]
	}
	return n + countAtLeastGeneric(levels, t)
}
