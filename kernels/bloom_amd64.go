//go:build !purego

package kernels

import (
	"github.com/quiverio/quiver/kernels/asm"
	"golang.org/x/sys/cpu"
)

func init() {
	if cpu.X86.HasAVX && cpu.X86.HasAVX2 {
		use(&bloomInsert, &bloomInsertImpls, "avx2", asm.BloomInsertAVX2)
		use(&bloomCheck, &bloomCheckImpls, "avx2", asm.BloomCheckAVX2)
	}
}
