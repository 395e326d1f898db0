//go:build !purego

package asm

import "golang.org/x/sys/cpu"

func init() {
	avx2 := cpu.X86.HasAVX && cpu.X86.HasAVX2
	unpack32Impls = append(unpack32Impls, impl[unpack32Func]{"avx2", Unpack32AVX2, avx2})
	unpack64Impls = append(unpack64Impls, impl[unpack64Func]{"avx2", Unpack64AVX2, avx2})
}
