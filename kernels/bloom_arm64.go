//go:build !purego

package kernels

import (
	"github.com/quiverio/quiver/kernels/asm"
	"golang.org/x/sys/cpu"
)

// bloomSIMD reports whether the NEON block insert runs.
var bloomSIMD = cpu.ARM64.HasASIMD

func init() {
	if bloomSIMD {
		bloomInsertImpls = append(bloomInsertImpls, impl[func([]uint32, []uint64)]{"neon", asm.BloomInsertNEON})
	}
}

func bloomInsertSIMD(words []uint32, hashes []uint64) { asm.BloomInsertNEON(words, hashes) }
