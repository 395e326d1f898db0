//go:build !purego

package asm

import "golang.org/x/sys/cpu"

func init() {
	neon := cpu.ARM64.HasASIMD
	unpack32Impls = append(unpack32Impls, impl[unpack32Func]{"neon", Unpack32NEON, neon})
	unpack64Impls = append(unpack64Impls, impl[unpack64Func]{"neon", Unpack64NEON, neon})
	prefix32Impls = append(prefix32Impls, impl[prefix32Func]{"neon", DeltaPrefixSum32NEON, neon})
	prefix64Impls = append(prefix64Impls, impl[prefix64Func]{"neon", DeltaPrefixSum64NEON, neon})
	levels16Impls = append(levels16Impls, impl[levels16Func]{"neon", LevelsToBitmap16NEON, neon})
	levels8Impls = append(levels8Impls, impl[levels8Func]{"neon", LevelsToBitmap8NEON, neon})
	gather32Impls = append(gather32Impls, impl[gather32Func]{"neon", Gather32NEON, neon})
	gather64Impls = append(gather64Impls, impl[gather64Func]{"neon", Gather64NEON, neon})
	bloomInsertImpls = append(bloomInsertImpls, impl[bloomInsertFunc]{"neon", BloomInsertNEON, neon})
	minMaxNaN32Impls = append(minMaxNaN32Impls, impl[minMaxNaN32Func]{"neon", MinMaxNaN32NEON, neon})
	minMaxNaN64Impls = append(minMaxNaN64Impls, impl[minMaxNaN64Func]{"neon", MinMaxNaN64NEON, neon})
	for w, fns := range map[int][2]bssFunc{
		2: {BSSDecode2NEON, BSSEncode2NEON},
		4: {BSSDecode4NEON, BSSEncode4NEON},
		8: {BSSDecode8NEON, BSSEncode8NEON},
	} {
		bssImpls[w].decode = append(bssImpls[w].decode, impl[bssFunc]{"neon", fns[0], neon})
		bssImpls[w].encode = append(bssImpls[w].encode, impl[bssFunc]{"neon", fns[1], neon})
	}
}
