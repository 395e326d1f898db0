//go:build !purego

package kernels

import (
	"github.com/quiverio/quiver/kernels/asm"
	"golang.org/x/sys/cpu"
)

func init() {
	if cpu.ARM64.HasASIMD {
		use(&deltaPrefixSum32, &deltaPrefixSum32Impls, "neon", prefixAsm(asm.DeltaPrefixSum32NEON))
		use(&deltaPrefixSum64, &deltaPrefixSum64Impls, "neon", prefixAsm(asm.DeltaPrefixSum64NEON))
	}
}
