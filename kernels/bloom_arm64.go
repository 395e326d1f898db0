//go:build !purego

package kernels

import (
	"github.com/quiverio/quiver/kernels/asm"
	"golang.org/x/sys/cpu"
)

// bloomSIMD reports whether the NEON block kernels run.
var bloomSIMD = cpu.ARM64.HasASIMD

func init() {
	if bloomSIMD {
		bloomInsertImpls = append(bloomInsertImpls, impl[func([]uint32, []uint64)]{"neon", asm.BloomInsertNEON})
		bloomCheckImpls = append(bloomCheckImpls, impl[func([]uint32, []uint64, []bool) int]{"neon", asm.BloomCheckNEON})
	}
}

func bloomInsertSIMD(words []uint32, hashes []uint64) { asm.BloomInsertNEON(words, hashes) }

func bloomCheckSIMD(words []uint32, hashes []uint64, out []bool) int {
	return asm.BloomCheckNEON(words, hashes, out)
}
