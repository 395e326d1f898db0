//go:build !purego

package kernels

import (
	"github.com/quiverio/quiver/kernels/asm"
	"golang.org/x/sys/cpu"
)

func init() {
	if cpu.ARM64.HasASIMD {
		use(&levelsToBitmap16, &levelsToBitmap16Impls, "neon", levelsAsm(asm.LevelsToBitmap16NEON))
		use(&levelsToBitmap8, &levelsToBitmap8Impls, "neon", levelsAsm(asm.LevelsToBitmap8NEON))
		use(&countAtLeast16, &countAtLeast16Impls, "neon", countAtLeastNEON)
	}
}

// countAtLeastNEON counts through the levels-to-bitmap kernel, chunk by
// chunk into a bitmap on the stack (the kernel does not let it escape),
// finishing the last levels with the portable twin.
func countAtLeastNEON(levels []int16, t int16) int {
	var b [countChunk / 8]byte
	n := 0
	for len(levels) >= 32 {
		k, set := asm.LevelsToBitmap16NEON(b[:], levels, t)
		n, levels = n+set, levels[k:]
	}
	return n + countAtLeastGeneric(levels, t)
}
