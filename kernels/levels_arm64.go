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
		use(&countAtLeast16, &countAtLeast16Impls, "neon", countAtLeastAsm)
	}
}

// levelsToBitmap16Asm is the architecture's levels-to-bitmap kernel called
// directly, so that countAtLeastAsm's stack bitmap does not escape.
func levelsToBitmap16Asm(dst []byte, levels []int16, t int16) (n, valid int) {
	return asm.LevelsToBitmap16NEON(dst, levels, t)
}
