//go:build !purego

package kernels

import (
	"github.com/quiverio/quiver/kernels/asm"
	"golang.org/x/sys/cpu"
)

func init() {
	if !cpu.X86.HasAVX || !cpu.X86.HasAVX2 {
		return
	}
	use(&bssDecode2, &bssDecode2Impls, "avx2", bssAsm(asm.BSSDecode2AVX2, 2, bssDecodeTail))
	use(&bssDecode4, &bssDecode4Impls, "avx2", bssAsm(asm.BSSDecode4AVX2, 4, bssDecodeTail))
	use(&bssDecode8, &bssDecode8Impls, "avx2", bssAsm(asm.BSSDecode8AVX2, 8, bssDecodeTail))
	use(&bssEncode2, &bssEncode2Impls, "avx2", bssAsm(asm.BSSEncode2AVX2, 2, bssEncodeTail))
	use(&bssEncode4, &bssEncode4Impls, "avx2", bssAsm(asm.BSSEncode4AVX2, 4, bssEncodeTail))
	use(&bssEncode8, &bssEncode8Impls, "avx2", bssAsm(asm.BSSEncode8AVX2, 8, bssEncodeTail))
}
