//go:build !purego

package asm

import "golang.org/x/sys/cpu"

func init() {
	neon := cpu.ARM64.HasASIMD
	unpack32Impls = append(unpack32Impls, impl[unpack32Func]{"neon", Unpack32NEON, neon})
	unpack64Impls = append(unpack64Impls, impl[unpack64Func]{"neon", Unpack64NEON, neon})
}
