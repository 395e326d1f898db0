//go:build !purego

package kernels

import (
	"github.com/quiverio/quiver/kernels/asm"
	"golang.org/x/sys/cpu"
)

func init() {
	if cpu.ARM64.HasASIMD {
		use(&gather32, &gather32Impls, "neon", gatherAsm(asm.Gather32NEON))
		use(&gather64, &gather64Impls, "neon", gatherAsm(asm.Gather64NEON))
	}
}
