//go:build !purego

package asm

import "golang.org/x/sys/cpu"

func init() {
	avx2 := cpu.X86.HasAVX && cpu.X86.HasAVX2
	unpack32Impls = append(unpack32Impls, impl[unpack32Func]{"avx2", Unpack32AVX2, avx2})
	unpack64Impls = append(unpack64Impls, impl[unpack64Func]{"avx2", Unpack64AVX2, avx2})
	prefix32Impls = append(prefix32Impls, impl[prefix32Func]{"avx2", DeltaPrefixSum32AVX2, avx2})
	prefix64Impls = append(prefix64Impls, impl[prefix64Func]{"avx2", DeltaPrefixSum64AVX2, avx2})
	gather32Impls = append(gather32Impls, impl[gather32Func]{"avx2", Gather32AVX2, avx2})
	gather64Impls = append(gather64Impls, impl[gather64Func]{"avx2", Gather64AVX2, avx2})
	bloomInsertImpls = append(bloomInsertImpls, impl[bloomInsertFunc]{"avx2", BloomInsertAVX2, avx2})
	levels16Impls = append(levels16Impls, impl[levels16Func]{"avx2", LevelsToBitmap16AVX2, avx2 && cpu.X86.HasPOPCNT})
	levels8Impls = append(levels8Impls, impl[levels8Func]{"avx2", LevelsToBitmap8AVX2, avx2 && cpu.X86.HasPOPCNT})
	minMaxNaN32Impls = append(minMaxNaN32Impls, impl[minMaxNaN32Func]{"avx2", MinMaxNaN32AVX2, avx2})
	minMaxNaN64Impls = append(minMaxNaN64Impls, impl[minMaxNaN64Func]{"avx2", MinMaxNaN64AVX2, avx2})
	for w, fns := range map[int][2]bssFunc{
		2: {BSSDecode2AVX2, BSSEncode2AVX2},
		4: {BSSDecode4AVX2, BSSEncode4AVX2},
		8: {BSSDecode8AVX2, BSSEncode8AVX2},
	} {
		bssImpls[w].decode = append(bssImpls[w].decode, impl[bssFunc]{"avx2", fns[0], avx2})
		bssImpls[w].encode = append(bssImpls[w].encode, impl[bssFunc]{"avx2", fns[1], avx2})
	}
}
