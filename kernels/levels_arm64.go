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
	}
}
