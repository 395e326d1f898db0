//go:build !purego

package kernels

import (
	"github.com/quiverio/quiver/kernels/asm"
	"golang.org/x/sys/cpu"
)

func init() {
	if cpu.ARM64.HasASIMD {
		use(&bloomInsert, &bloomInsertImpls, "neon", asm.BloomInsertNEON)
		use(&bloomCheck, &bloomCheckImpls, "neon", asm.BloomCheckNEON)
	}
}
