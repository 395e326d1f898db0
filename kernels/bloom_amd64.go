//go:build !purego

package kernels

import (
	"github.com/quiverio/quiver/kernels/asm"
	"golang.org/x/sys/cpu"
)

// bloomSIMD reports whether the AVX2 block insert runs.
var bloomSIMD = cpu.X86.HasAVX && cpu.X86.HasAVX2

func init() {
	if bloomSIMD {
		bloomInsertImpls = append(bloomInsertImpls, impl[func([]uint32, []uint64)]{"avx2", asm.BloomInsertAVX2})
	}
}

func bloomInsertSIMD(words []uint32, hashes []uint64) { asm.BloomInsertAVX2(words, hashes) }
