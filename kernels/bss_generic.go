package kernels

import "encoding/binary"

// The portable byte-stream-split routines work on eight values at a time:
// eight bytes from each stream make one little-endian word per stream, and
// shifts and masks transpose those words into whole values.

// Masks selecting alternate bytes, byte pairs and byte quads of a word.
const (
	bssMask8  = 0x00ff00ff00ff00ff
	bssMask16 = 0x0000ffff0000ffff
	bssMask32 = 0x00000000ffffffff
)

// bssLoad reads the little-endian word at s[i:i+8].
func bssLoad(s []byte, i int) uint64 { return binary.LittleEndian.Uint64((*[8]byte)(s[i:])[:]) }

// bssStore writes v as the little-endian word at s[i:i+8].
func bssStore(s []byte, i int, v uint64) { binary.LittleEndian.PutUint64((*[8]byte)(s[i:])[:], v) }

// bssSwap exchanges the s-bit fields of a and b selected by mask (in b) and
// mask<<s (in a): one step of a byte-matrix transpose.
func bssSwap(a, b uint64, s uint, mask uint64) (uint64, uint64) {
	t := (a>>s ^ b) & mask
	return a ^ t<<s, b ^ t
}

// bss8Generic converts between values (eight bytes each, back to back) and
// eight byte streams, in the direction decode says. The two directions are
// the same 8x8 byte-matrix transpose (an involution) with loads and stores
// swapped; one loop keeps the transpose inlined and its words in registers.
func bss8Generic(values, streams []byte, decode bool) {
	n := len(values) / 8
	streams = streams[:8*n]
	i := 0
	for ; i+8 <= n; i += 8 {
		v := (*[64]byte)(values[8*i:])
		s := streams[i:]
		var a0, a1, a2, a3, a4, a5, a6, a7 uint64
		if decode {
			a0, a1, a2, a3 = bssLoad(s, 0), bssLoad(s, n), bssLoad(s, 2*n), bssLoad(s, 3*n)
			a4, a5, a6, a7 = bssLoad(s, 4*n), bssLoad(s, 5*n), bssLoad(s, 6*n), bssLoad(s, 7*n)
		} else {
			a0, a1 = binary.LittleEndian.Uint64(v[0:8]), binary.LittleEndian.Uint64(v[8:16])
			a2, a3 = binary.LittleEndian.Uint64(v[16:24]), binary.LittleEndian.Uint64(v[24:32])
			a4, a5 = binary.LittleEndian.Uint64(v[32:40]), binary.LittleEndian.Uint64(v[40:48])
			a6, a7 = binary.LittleEndian.Uint64(v[48:56]), binary.LittleEndian.Uint64(v[56:64])
		}
		a0, a1 = bssSwap(a0, a1, 8, bssMask8)
		a2, a3 = bssSwap(a2, a3, 8, bssMask8)
		a4, a5 = bssSwap(a4, a5, 8, bssMask8)
		a6, a7 = bssSwap(a6, a7, 8, bssMask8)
		a0, a2 = bssSwap(a0, a2, 16, bssMask16)
		a1, a3 = bssSwap(a1, a3, 16, bssMask16)
		a4, a6 = bssSwap(a4, a6, 16, bssMask16)
		a5, a7 = bssSwap(a5, a7, 16, bssMask16)
		a0, a4 = bssSwap(a0, a4, 32, bssMask32)
		a1, a5 = bssSwap(a1, a5, 32, bssMask32)
		a2, a6 = bssSwap(a2, a6, 32, bssMask32)
		a3, a7 = bssSwap(a3, a7, 32, bssMask32)
		if decode {
			binary.LittleEndian.PutUint64(v[0:8], a0)
			binary.LittleEndian.PutUint64(v[8:16], a1)
			binary.LittleEndian.PutUint64(v[16:24], a2)
			binary.LittleEndian.PutUint64(v[24:32], a3)
			binary.LittleEndian.PutUint64(v[32:40], a4)
			binary.LittleEndian.PutUint64(v[40:48], a5)
			binary.LittleEndian.PutUint64(v[48:56], a6)
			binary.LittleEndian.PutUint64(v[56:64], a7)
		} else {
			bssStore(s, 0, a0)
			bssStore(s, n, a1)
			bssStore(s, 2*n, a2)
			bssStore(s, 3*n, a3)
			bssStore(s, 4*n, a4)
			bssStore(s, 5*n, a5)
			bssStore(s, 6*n, a6)
			bssStore(s, 7*n, a7)
		}
	}
	if decode {
		bssDecodeTail(values, streams, 8, i)
	} else {
		bssEncodeTail(streams, values, 8, i)
	}
}

func bssDecode8Generic(dst, src []byte) { bss8Generic(dst, src, true) }

func bssEncode8Generic(dst, src []byte) { bss8Generic(src, dst, false) }

// For width 4 the words of four streams form two 4x4 byte matrices side by
// side (values i..i+3 in the low halves, i+4..i+7 in the high halves); two
// swap steps transpose both, and a 32-bit swap pairs neighbouring values.

func bssDecode4Generic(dst, src []byte) {
	n := len(dst) / 4
	s0, s1, s2, s3 := src[:n], src[n:2*n], src[2*n:3*n], src[3*n:4*n]
	i := 0
	for ; i+8 <= n; i += 8 {
		d := (*[32]byte)(dst[4*i:])
		a0, a1 := bssLoad(s0, i), bssLoad(s1, i)
		a2, a3 := bssLoad(s2, i), bssLoad(s3, i)
		a0, a1 = bssSwap(a0, a1, 8, bssMask8)
		a2, a3 = bssSwap(a2, a3, 8, bssMask8)
		a0, a2 = bssSwap(a0, a2, 16, bssMask16)
		a1, a3 = bssSwap(a1, a3, 16, bssMask16)
		a0, a1 = bssSwap(a0, a1, 32, bssMask32)
		a2, a3 = bssSwap(a2, a3, 32, bssMask32)
		binary.LittleEndian.PutUint64(d[0:8], a0)
		binary.LittleEndian.PutUint64(d[8:16], a2)
		binary.LittleEndian.PutUint64(d[16:24], a1)
		binary.LittleEndian.PutUint64(d[24:32], a3)
	}
	bssDecodeTail(dst, src, 4, i)
}

func bssEncode4Generic(dst, src []byte) {
	n := len(src) / 4
	s0, s1, s2, s3 := dst[:n], dst[n:2*n], dst[2*n:3*n], dst[3*n:4*n]
	i := 0
	for ; i+8 <= n; i += 8 {
		v := (*[32]byte)(src[4*i:])
		a0, a2 := binary.LittleEndian.Uint64(v[0:8]), binary.LittleEndian.Uint64(v[8:16])
		a1, a3 := binary.LittleEndian.Uint64(v[16:24]), binary.LittleEndian.Uint64(v[24:32])
		a0, a1 = bssSwap(a0, a1, 32, bssMask32)
		a2, a3 = bssSwap(a2, a3, 32, bssMask32)
		a0, a2 = bssSwap(a0, a2, 16, bssMask16)
		a1, a3 = bssSwap(a1, a3, 16, bssMask16)
		a0, a1 = bssSwap(a0, a1, 8, bssMask8)
		a2, a3 = bssSwap(a2, a3, 8, bssMask8)
		bssStore(s0, i, a0)
		bssStore(s1, i, a1)
		bssStore(s2, i, a2)
		bssStore(s3, i, a3)
	}
	bssEncodeTail(dst, src, 4, i)
}

// bssSpread moves the four low bytes of x to the even bytes of the result.
func bssSpread(x uint64) uint64 {
	x &= bssMask32
	x = (x | x<<16) & bssMask16
	return (x | x<<8) & bssMask8
}

// bssGather moves the even bytes of x to the four low bytes of the result.
func bssGather(x uint64) uint64 {
	x &= bssMask8
	x = (x | x>>8) & bssMask16
	return (x | x>>16) & bssMask32
}

func bssDecode2Generic(dst, src []byte) {
	n := len(dst) / 2
	s0, s1 := src[:n], src[n:2*n]
	i := 0
	for ; i+8 <= n; i += 8 {
		d := (*[16]byte)(dst[2*i:])
		a0, a1 := bssLoad(s0, i), bssLoad(s1, i)
		binary.LittleEndian.PutUint64(d[0:8], bssSpread(a0)|bssSpread(a1)<<8)
		binary.LittleEndian.PutUint64(d[8:16], bssSpread(a0>>32)|bssSpread(a1>>32)<<8)
	}
	bssDecodeTail(dst, src, 2, i)
}

func bssEncode2Generic(dst, src []byte) {
	n := len(src) / 2
	s0, s1 := dst[:n], dst[n:2*n]
	i := 0
	for ; i+8 <= n; i += 8 {
		v := (*[16]byte)(src[2*i:])
		lo, hi := binary.LittleEndian.Uint64(v[0:8]), binary.LittleEndian.Uint64(v[8:16])
		bssStore(s0, i, bssGather(lo)|bssGather(hi)<<32)
		bssStore(s1, i, bssGather(lo>>8)|bssGather(hi>>8)<<32)
	}
	bssEncodeTail(dst, src, 2, i)
}

// bssDecodeTail decodes values from..len(dst)/width one byte at a time.
func bssDecodeTail(dst, src []byte, width, from int) {
	n := len(dst) / width
	for k := range width {
		s := src[k*n : (k+1)*n]
		for i := from; i < n; i++ {
			dst[i*width+k] = s[i]
		}
	}
}

// bssEncodeTail encodes values from..len(src)/width one byte at a time.
func bssEncodeTail(dst, src []byte, width, from int) {
	n := len(src) / width
	for k := range width {
		s := dst[k*n : (k+1)*n]
		for i := from; i < n; i++ {
			s[i] = src[i*width+k]
		}
	}
}

// bssDecodeWidth decodes values of any width.
func bssDecodeWidth(dst, src []byte, width int) { bssDecodeTail(dst, src, width, 0) }

// bssEncodeWidth encodes values of any width.
func bssEncodeWidth(dst, src []byte, width int) { bssEncodeTail(dst, src, width, 0) }
