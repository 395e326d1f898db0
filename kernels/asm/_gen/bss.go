package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// BYTE_STREAM_SPLIT moves byte k of value i to stream k at position i: a
// transpose of an n x width byte matrix. The kernels do 32 values per
// iteration: decode interleaves the streams with unpack instructions (bytes,
// then words, then dwords) and puts 128-bit lanes in order with VPERM2I128;
// encode gathers each value's bytes by position with VPSHUFB inside lanes
// and finishes the transpose with VPERMD/VPERMQ, unpacks and lane moves.

func bss() {
	for _, w := range []int{2, 4, 8} {
		bssKernel(w, true)
	}
	for _, w := range []int{2, 4, 8} {
		bssKernel(w, false)
	}
}

// bssKernel emits BSSDecode<w>AVX2 or BSSEncode<w>AVX2.
func bssKernel(width int, decode bool) {
	op, vals, streams := "Encode", "src", "dst"
	if decode {
		op, vals, streams = "Decode", "dst", "src"
	}
	name := fmt.Sprintf("BSS%s%dAVX2", op, width)
	TEXT(name, NOSPLIT, "func(dst, src []byte) int")
	Pragma("noescape")
	if decode {
		Doc(fmt.Sprintf("%s decodes BYTE_STREAM_SPLIT data of %d-byte values: src holds", name, width),
			fmt.Sprintf("%d streams of n = min(len(dst), len(src))/%d bytes, stream k carrying", width, width),
			"byte k of every value, and dst receives the values back to back. It",
			"decodes the first n&^31 values and returns that count.")
	} else {
		Doc(fmt.Sprintf("%s encodes %d-byte values as BYTE_STREAM_SPLIT: src holds", name, width),
			fmt.Sprintf("n = min(len(dst), len(src))/%d values back to back, and stream k of dst", width),
			"(bytes k*n to (k+1)*n) receives byte k of every value. It encodes",
			"the first n&^31 values and returns that count.")
	}
	v := Load(Param(vals).Base(), GP64())
	s := Load(Param(streams).Base(), GP64())
	n := Load(Param("dst").Len(), GP64())
	m := Load(Param("src").Len(), GP64())
	CMPQ(m, n)
	CMOVQLT(m, n)
	shift := map[int]uint64{2: 1, 4: 2, 8: 3}[width]
	SHRQ(Imm(shift), n)
	blocks := GP64()
	MOVQ(n, blocks)
	SHRQ(Imm(5), blocks)
	done := GP64()
	MOVQ(blocks, done)
	SHLQ(Imm(5), done)
	JZ(LabelRef("ret"))

	// Stream k of the current block is at s + k*n: bases s and s + 4n with
	// index registers n, 2n (scale 2) and n3 = 3n.
	n3 := GP64()
	LEAQ(Mem{Base: n, Index: n, Scale: 2}, n3)
	stream := func(k int, base4 reg.Register) Mem {
		base := s
		if k >= 4 {
			base = base4
		}
		switch k % 4 {
		case 0:
			return Mem{Base: base}
		case 1:
			return Mem{Base: base, Index: n, Scale: 1}
		case 2:
			return Mem{Base: base, Index: n, Scale: 2}
		}
		return Mem{Base: base, Index: n3, Scale: 1}
	}
	var ctl, idx reg.VecVirtual
	if !decode {
		ctl = bssEncodeConsts(width)
		if width > 2 {
			idx = bssPermd()
		}
	}
	Label("loop")
	var s4 reg.Register
	if width == 8 {
		s4 = GP64()
		LEAQ(Mem{Base: s, Index: n, Scale: 4}, s4)
	}
	if decode {
		bssDecodeBlock(width, v, func(k int) Mem { return stream(k, s4) })
	} else {
		bssEncodeBlock(width, v, func(k int) Mem { return stream(k, s4) }, ctl, idx)
	}
	ADDQ(U32(32*width), v)
	ADDQ(Imm(32), s)
	DECQ(blocks)
	JNZ(LabelRef("loop"))
	VZEROUPPER()
	Label("ret")
	Store(done, ReturnIndex(0))
	RET()
}

// bssDecodeBlock decodes 32 values from the streams at stream(k) to v.
func bssDecodeBlock(width int, v reg.Register, stream func(k int) Mem) {
	a := make([]reg.VecVirtual, width)
	for k := range a {
		a[k] = YMM()
		VMOVDQU(stream(k), a[k])
	}
	// interleave pairs x[2i], x[2i+1] element-wise at the given size: the
	// low halves of each lane, then the high halves.
	// The high halves overwrite x[2i+1], which keeps the number of
	// registers in flight low enough for avo to stay within Y0-Y15.
	interleave := func(x []reg.VecVirtual, lo, hi func(...Op)) []reg.VecVirtual {
		var out []reg.VecVirtual
		for i := 0; i < len(x); i += 2 {
			l := YMM()
			lo(x[i+1], x[i], l)
			hi(x[i+1], x[i], x[i+1])
			out = append(out, l, x[i+1])
		}
		return out
	}
	// After the byte step, register 2p (2p+1) holds stream pair p's
	// elements 0-7 (8-15) in lane 0 and 16-23 (24-31) in lane 1.
	t := interleave(a, VPUNPCKLBW, VPUNPCKHBW)
	var out []reg.VecVirtual // registers whose lane 0 holds consecutive values
	switch width {
	case 2:
		out = t
	case 4:
		// Pair streams (0,1) with (2,3): low/high words of t0,t2 give
		// values 0-3, 4-7; of t1,t3 values 8-11, 12-15.
		out = interleave([]reg.VecVirtual{t[0], t[2], t[1], t[3]}, VPUNPCKLWD, VPUNPCKHWD)
	case 8:
		u := interleave([]reg.VecVirtual{t[0], t[2], t[1], t[3]}, VPUNPCKLWD, VPUNPCKHWD)
		w := interleave([]reg.VecVirtual{t[4], t[6], t[5], t[7]}, VPUNPCKLWD, VPUNPCKHWD)
		// Join bytes 0-3 with bytes 4-7 of each value.
		out = interleave([]reg.VecVirtual{u[0], w[0], u[1], w[1], u[2], w[2], u[3], w[3]}, VPUNPCKLDQ, VPUNPCKHDQ)
	}
	// Lane 0 of out[0..] holds values 0-15 in order, lane 1 values 16-31.
	half := len(out) * 16
	for i := 0; i < len(out); i += 2 {
		lo := YMM()
		VPERM2I128(Imm(0x20), out[i+1], out[i], lo)
		VPERM2I128(Imm(0x31), out[i+1], out[i], out[i])
		VMOVDQU(lo, Mem{Base: v, Disp: 16 * i})
		VMOVDQU(out[i], Mem{Base: v, Disp: half + 16*i})
	}
}

// bssEncodeConsts loads the in-lane byte shuffle that groups the bytes of
// the values in a lane by position.
func bssEncodeConsts(width int) reg.VecVirtual {
	var ctl [32]byte
	per := 16 / width // values per lane
	for lane := range 2 {
		for k := range width {
			for j := range per {
				ctl[16*lane+k*per+j] = byte(j*width + k)
			}
		}
	}
	tab := GLOBL(fmt.Sprintf("bssEncodeShuf%d", width), RODATA|NOPTR)
	for i := 0; i < 32; i += 8 {
		var u uint64
		for b := range 8 {
			u |= uint64(ctl[i+b]) << (8 * b)
		}
		DATA(i, U64(u))
	}
	y := YMM()
	VMOVDQU(tab, y)
	return y
}

// bssEncodeBlock encodes 32 values at v into the streams at stream(k).
// ctl is the in-lane byte shuffle, idx the lane-interleaving VPERMD index.
func bssEncodeBlock(width int, v reg.Register, stream func(k int) Mem, ctl, idx reg.VecVirtual) {
	switch width {
	case 2:
		// Each lane becomes [stream 0 x8 | stream 1 x8]; VPERMQ 0xd8 puts
		// both stream-0 qwords in lane 0 and both stream-1 qwords in lane 1.
		r := make([]reg.VecVirtual, 2)
		for i := range r {
			r[i] = YMM()
			VMOVDQU(Mem{Base: v, Disp: 32 * i}, r[i])
			VPSHUFB(ctl, r[i], r[i])
			VPERMQ(Imm(0xd8), r[i], r[i])
		}
		s0, s1 := YMM(), YMM()
		VPERM2I128(Imm(0x20), r[1], r[0], s0)
		VPERM2I128(Imm(0x31), r[1], r[0], s1)
		VMOVDQU(s0, stream(0))
		VMOVDQU(s1, stream(1))
	case 4:
		// Each register (8 values) becomes qword k = stream k's 8 bytes.
		r := make([]reg.VecVirtual, 4)
		for i := range r {
			r[i] = YMM()
			VMOVDQU(Mem{Base: v, Disp: 32 * i}, r[i])
			VPSHUFB(ctl, r[i], r[i])
			VPERMD(r[i], idx, r[i])
		}
		bssQwordTranspose(r, stream, 0)
	case 8:
		// Group g (8 values) loads as [v0 v1 | v4 v5] and [v2 v3 | v6 v7];
		// after the shuffle word k of a lane is byte k of its two values,
		// and interleaving words joins four values per stream.
		e0 := make([]reg.VecVirtual, 4)
		e1 := make([]reg.VecVirtual, 4)
		for g := range 4 {
			base := 64 * g
			r0, r1 := YMM(), YMM()
			VMOVDQU(Mem{Base: v, Disp: base}, r0.AsX())
			VINSERTI128(Imm(1), Mem{Base: v, Disp: base + 32}, r0, r0)
			VMOVDQU(Mem{Base: v, Disp: base + 16}, r1.AsX())
			VINSERTI128(Imm(1), Mem{Base: v, Disp: base + 48}, r1, r1)
			VPSHUFB(ctl, r0, r0)
			VPSHUFB(ctl, r1, r1)
			e0[g], e1[g] = YMM(), r1
			VPUNPCKLWD(r1, r0, e0[g])
			VPUNPCKHWD(r1, r0, r1)
			VPERMD(e0[g], idx, e0[g])
			VPERMD(e1[g], idx, e1[g])
		}
		bssQwordTranspose(e0, stream, 0)
		bssQwordTranspose(e1, stream, 4)
	}
}

// bssPermd returns the VPERMD index that interleaves the dwords of the two
// lanes: 0, 4, 1, 5, 2, 6, 3, 7.
func bssPermd() reg.VecVirtual {
	if bssPermdTab == nil {
		tab := GLOBL("bssPermd", RODATA|NOPTR)
		for i, d := range []uint64{0x0000000400000000, 0x0000000500000001, 0x0000000600000002, 0x0000000700000003} {
			DATA(8*i, U64(d))
		}
		bssPermdTab = &tab
	}
	y := YMM()
	VMOVDQU(*bssPermdTab, y)
	return y
}

// bssPermdTab is the data section bssPermd declares on first use.
var bssPermdTab *Mem

// bssQwordTranspose stores streams first..first+3 from four registers whose
// qword k holds 8 bytes of stream first+k, register i covering values
// 8i..8i+7.
func bssQwordTranspose(r []reg.VecVirtual, stream func(k int) Mem, first int) {
	x := []reg.VecVirtual{YMM(), r[1], YMM(), r[3]}
	VPUNPCKLQDQ(r[1], r[0], x[0]) // streams 0 | 2 of values 0-15
	VPUNPCKHQDQ(r[1], r[0], x[1]) // streams 1 | 3
	VPUNPCKLQDQ(r[3], r[2], x[2]) // streams 0 | 2 of values 16-31
	VPUNPCKHQDQ(r[3], r[2], x[3])
	for k := range 2 {
		y := YMM()
		VPERM2I128(Imm(0x20), x[2+k], x[k], y)
		VPERM2I128(Imm(0x31), x[2+k], x[k], x[k])
		VMOVDQU(y, stream(first+k))
		VMOVDQU(x[k], stream(first+k+2))
	}
}
