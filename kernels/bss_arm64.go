//go:build !purego

package kernels

import (
	"github.com/quiverio/quiver/kernels/asm"
	"golang.org/x/sys/cpu"
)

func init() {
	if !cpu.ARM64.HasASIMD {
		return
	}
	use(&bssDecode2, &bssDecode2Impls, "neon", bssAsm(asm.BSSDecode2NEON, 2, bssDecodeTail))
	use(&bssDecode4, &bssDecode4Impls, "neon", bssAsm(asm.BSSDecode4NEON, 4, bssDecodeTail))
	use(&bssDecode8, &bssDecode8Impls, "neon", bssAsm(asm.BSSDecode8NEON, 8, bssDecodeTail))
	use(&bssEncode2, &bssEncode2Impls, "neon", bssAsm(asm.BSSEncode2NEON, 2, bssEncodeTail))
	use(&bssEncode4, &bssEncode4Impls, "neon", bssAsm(asm.BSSEncode4NEON, 4, bssEncodeTail))
	use(&bssEncode8, &bssEncode8Impls, "neon", bssAsm(asm.BSSEncode8NEON, 8, bssEncodeTail))
}
