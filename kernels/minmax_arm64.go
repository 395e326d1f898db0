//go:build !purego

package kernels

import (
	"github.com/quiverio/quiver/kernels/asm"
	"golang.org/x/sys/cpu"
)

func init() {
	if cpu.ARM64.HasASIMD {
		use(&minMaxNaN32, &minMaxNaN32Impls, "neon", minMaxNaNAsm(asm.MinMaxNaN32NEON))
		use(&minMaxNaN64, &minMaxNaN64Impls, "neon", minMaxNaNAsm(asm.MinMaxNaN64NEON))
	}
}
