package main

import (
	"encoding/binary"
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// unpack32Tables returns, for widths 1..32 (entry w-1, 32 bytes each), the
// VPSHUFB controls and VPSRLVD counts that unpack one 8-value block into a
// YMM register: lane 0 holds values 0..3 from a window at byte 0, lane 1
// values 4..7 from a window at byte w/2 (4w bits in).
func unpack32Tables() (shufA, shufB, shift []byte) {
	shufA, shufB, shift = make([]byte, 32*32), make([]byte, 32*32), make([]byte, 32*32)
	for w := 1; w <= 32; w++ {
		a, b, sh := shufA[32*(w-1):32*w], shufB[32*(w-1):32*w], shift[32*(w-1):32*w]
		for j := range 8 {
			base := 0
			if j >= 4 {
				base = 4 * w / 8
			}
			p := placeIn(j, w, base)
			e := 4 * (j % 4)
			lane := 16 * (j / 4)
			shuffleElem(a[lane+e:lane+e+4], b[lane+e:lane+e+4], p, w, 4, 16)
			binary.LittleEndian.PutUint32(sh[4*j:], uint32(p.shift))
		}
	}
	return
}

// unpack64Tables returns, for widths 1..64 (entry w-1, 64 bytes each), the
// controls that unpack one 8-value block into two YMM registers: lane m
// (m = 0..3, lanes 0,1 of the first register then of the second) holds
// values 2m and 2m+1 from a window at byte 2m*w/8. Width 63 does not fit
// (values 2 and 3 span 17 bytes) and is left zero; the kernel unpacks it
// with scalar code instead.
func unpack64Tables() (shufA, shufB, shift []byte) {
	shufA, shufB, shift = make([]byte, 64*64), make([]byte, 64*64), make([]byte, 64*64)
	for w := 1; w <= 64; w++ {
		a, b, sh := shufA[64*(w-1):64*w], shufB[64*(w-1):64*w], shift[64*(w-1):64*w]
		if w == 63 {
			continue
		}
		for j := range 8 {
			m := j / 2
			p := placeIn(j, w, 2*m*w/8)
			e := 16*m + 8*(j%2)
			shuffleElem(a[e:e+8], b[e:e+8], p, w, 8, 16)
			binary.LittleEndian.PutUint64(sh[8*j:], uint64(p.shift))
		}
	}
	return
}

// table declares a read-only data section holding data.
func table(name string, data []byte) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for off := 0; off < len(data); off += 8 {
		DATA(off, U64(binary.LittleEndian.Uint64(data[off:])))
	}
	return m
}

// widthMask returns a 64-bit set with bit w set for each width in 1..max for
// which needsExtraByte(w, size) holds (and w is not in skip).
func widthMask(max, size int, skip int) uint64 {
	var m uint64
	for w := 1; w <= max; w++ {
		if w != skip && needsExtraByte(w, size) {
			m |= 1 << w
		}
	}
	return m
}

func unpack() {
	a32, b32, s32 := unpack32Tables()
	unpack32(table("unpack32ShufA", a32), table("unpack32ShufB", b32), table("unpack32Shift", s32))
	a64, b64, s64 := unpack64Tables()
	unpack64(table("unpack64ShufA", a64), table("unpack64ShufB", b64), table("unpack64Shift", s64))
}

// unpackArgs loads the common arguments and returns dst, n (len(dst)), src,
// end (one past the last src byte) and width.
func unpackArgs() (dst, n, src, end, w reg.GPVirtual) {
	dst = Load(Param("dst").Base(), GP64()).(reg.GPVirtual)
	n = Load(Param("dst").Len(), GP64()).(reg.GPVirtual)
	src = Load(Param("src").Base(), GP64()).(reg.GPVirtual)
	end = Load(Param("src").Len(), GP64()).(reg.GPVirtual)
	ADDQ(src, end)
	w = Load(Param("width"), GP64()).(reg.GPVirtual)
	return
}

// loadRow loads row w-1 (rows of 1<<log bytes, the row index already in
// idx) of the table at tab, at byte offset off of the row.
func loadRow(tab Mem, idx reg.Register, off int, y reg.Register) {
	base := GP64()
	LEAQ(tab, base)
	VMOVDQU(Mem{Base: base, Index: idx, Scale: 1, Disp: off}, y)
}

// roomFor jumps to label unless at least need bytes remain before end.
func roomFor(src, end, need reg.Register, label string) {
	t := GP64()
	MOVQ(end, t)
	SUBQ(src, t)
	CMPQ(t, need)
	JB(LabelRef(label))
}

func unpack32(shufA, shufB, shift Mem) {
	TEXT("Unpack32AVX2", NOSPLIT, "func(dst []uint32, src []byte, width uint) int")
	Pragma("noescape")
	Doc("Unpack32AVX2 unpacks whole 8-value blocks of width-bit values (LSB",
		"first) from src into dst, as many as fit in len(dst) and can be read",
		"without loading past the end of src (the last block read needs about",
		"16 bytes beyond its start), and returns how many values it wrote, a",
		"multiple of 8. It writes nothing unless 1 <= width <= 32.")
	dst, n, src, end, w := unpackArgs()
	total := GP64()
	MOVQ(n, total)

	idx := GP64()
	LEAQ(Mem{Base: w, Disp: -1}, idx)
	CMPQ(idx, Imm(31))
	JA(LabelRef("none"))
	SHLQ(Imm(5), idx)

	sa, sh := YMM(), YMM()
	loadRow(shufA, idx, 0, sa)
	loadRow(shift, idx, 0, sh)
	mask := YMM()
	c := GP64()
	MOVQ(U32(32), c)
	SUBQ(w, c)
	xc := XMM()
	MOVQ(c, xc)
	VPCMPEQD(mask, mask, mask)
	VPSRLD(xc, mask, mask)
	h := GP64()
	MOVQ(w, h)
	SHRQ(Imm(1), h)

	wide := GP64()
	MOVQ(U64(widthMask(32, 4, 0)), wide)
	BTQ(w, wide)
	JCS(LabelRef("wide"))

	unpack32Loops("narrow", dst, n, src, end, w, h, sa, sh, mask, nil, nil)
	JMP(LabelRef("done"))

	Label("wide")
	Comment("Some values span 5 bytes: a second shuffle fetches the fifth byte.")
	sb, shb := YMM(), YMM()
	loadRow(shufB, idx, 0, sb)
	c32 := GP64()
	MOVQ(U32(32), c32)
	x32 := XMM()
	MOVQ(c32, x32)
	VPBROADCASTD(x32, shb)
	VPSUBD(sh, shb, shb)
	unpack32Loops("wide", dst, n, src, end, w, h, sa, sh, mask, sb, shb)

	Label("done")
	SUBQ(n, total)
	Store(total, ReturnIndex(0))
	VZEROUPPER()
	RET()

	Label("none")
	XORQ(total, total)
	Store(total, ReturnIndex(0))
	RET()
}

// unpack32Loops emits the 32-value loop and then the 8-value loop. sb and shb
// are nil unless some value spans 5 bytes.
func unpack32Loops(p string, dst, n, src, end, w, h reg.GPVirtual, sa, sh, mask, sb, shb reg.VecVirtual) {
	block := func(lo, hi Mem, out Mem) {
		y := YMM()
		VMOVDQU(lo, y.AsX())
		VINSERTI128(Imm(1), hi, y, y)
		var y2 reg.VecVirtual
		if sb != nil {
			y2 = YMM()
			VPSHUFB(sb, y, y2)
			VPSLLVD(shb, y2, y2)
		}
		VPSHUFB(sa, y, y)
		VPSRLVD(sh, y, y)
		if sb != nil {
			VPOR(y2, y, y)
		}
		VPAND(mask, y, y)
		VMOVDQU(y, out)
	}

	Comment("Four blocks (32 values) at a time.")
	wh := GP64()
	LEAQ(Mem{Base: w, Index: h, Scale: 1}, wh)
	need := GP64()
	LEAQ(Mem{Base: wh, Index: w, Scale: 2, Disp: 16}, need) // 3w + w/2 + 16
	Label(p + "_loop32")
	CMPQ(n, Imm(32))
	JB(LabelRef(p + "_tail"))
	roomFor(src, end, need, p+"_tail")
	src2 := GP64()
	LEAQ(Mem{Base: src, Index: w, Scale: 2}, src2)
	block(Mem{Base: src}, Mem{Base: src, Index: h, Scale: 1}, Mem{Base: dst})
	block(Mem{Base: src, Index: w, Scale: 1}, Mem{Base: src, Index: wh, Scale: 1}, Mem{Base: dst, Disp: 32})
	block(Mem{Base: src2}, Mem{Base: src2, Index: h, Scale: 1}, Mem{Base: dst, Disp: 64})
	block(Mem{Base: src2, Index: w, Scale: 1}, Mem{Base: src2, Index: wh, Scale: 1}, Mem{Base: dst, Disp: 96})
	LEAQ(Mem{Base: src, Index: w, Scale: 4}, src)
	ADDQ(Imm(128), dst)
	SUBQ(Imm(32), n)
	JMP(LabelRef(p + "_loop32"))

	Label(p + "_tail")
	Comment("Then single blocks.")
	need1 := GP64()
	LEAQ(Mem{Base: h, Disp: 16}, need1)
	Label(p + "_loop8")
	CMPQ(n, Imm(8))
	JB(LabelRef("done"))
	roomFor(src, end, need1, "done")
	block(Mem{Base: src}, Mem{Base: src, Index: h, Scale: 1}, Mem{Base: dst})
	ADDQ(w, src)
	ADDQ(Imm(32), dst)
	SUBQ(Imm(8), n)
	JMP(LabelRef(p + "_loop8"))
}

func unpack64(shufA, shufB, shift Mem) {
	TEXT("Unpack64AVX2", NOSPLIT, "func(dst []uint64, src []byte, width uint) int")
	Pragma("noescape")
	Doc("Unpack64AVX2 unpacks whole 8-value blocks of width-bit values (LSB",
		"first) from src into dst, as many as fit in len(dst) and can be read",
		"without loading past the end of src (the last block read needs about",
		"16 bytes beyond its last 3/4, or its full 63 bytes at width 63), and",
		"returns how many values it wrote, a multiple of 8. It writes nothing",
		"unless 1 <= width <= 64.")
	dst, n, src, end, w := unpackArgs()
	total := GP64()
	MOVQ(n, total)

	idx := GP64()
	LEAQ(Mem{Base: w, Disp: -1}, idx)
	CMPQ(idx, Imm(63))
	JA(LabelRef("none"))
	CMPQ(w, Imm(63))
	JE(LabelRef("w63"))
	SHLQ(Imm(6), idx)

	sa0, sa1, sh0, sh1 := YMM(), YMM(), YMM(), YMM()
	loadRow(shufA, idx, 0, sa0)
	loadRow(shufA, idx, 32, sa1)
	loadRow(shift, idx, 0, sh0)
	loadRow(shift, idx, 32, sh1)
	mask := YMM()
	c := GP64()
	MOVQ(U32(64), c)
	SUBQ(w, c)
	xc := XMM()
	MOVQ(c, xc)
	VPCMPEQQ(mask, mask, mask)
	VPSRLQ(xc, mask, mask)
	// Window starts of the four lanes: 0, 2w/8, 4w/8, 6w/8.
	p1, p2, p3 := GP64(), GP64(), GP64()
	MOVQ(w, p1)
	SHRQ(Imm(2), p1)
	MOVQ(w, p2)
	SHRQ(Imm(1), p2)
	LEAQ(Mem{Base: w, Index: w, Scale: 2}, p3)
	SHRQ(Imm(2), p3)

	wide := GP64()
	MOVQ(U64(widthMask(64, 8, 63)), wide)
	BTQ(w, wide)
	JCS(LabelRef("wide"))

	unpack64Loops("narrow", dst, n, src, end, w, p1, p2, p3, [2]reg.VecVirtual{sa0, sa1}, [2]reg.VecVirtual{sh0, sh1}, mask, [2]reg.VecVirtual{}, [2]reg.VecVirtual{})
	JMP(LabelRef("done"))

	Label("wide")
	Comment("Some values span 9 bytes: a second shuffle fetches the ninth byte.")
	sb0, sb1, shb0, shb1 := YMM(), YMM(), YMM(), YMM()
	loadRow(shufB, idx, 0, sb0)
	loadRow(shufB, idx, 32, sb1)
	c64 := GP64()
	MOVQ(U32(64), c64)
	x64 := XMM()
	MOVQ(c64, x64)
	VPBROADCASTQ(x64, shb0)
	VPSUBQ(sh1, shb0, shb1)
	VPSUBQ(sh0, shb0, shb0)
	unpack64Loops("wide", dst, n, src, end, w, p1, p2, p3, [2]reg.VecVirtual{sa0, sa1}, [2]reg.VecVirtual{sh0, sh1}, mask,
		[2]reg.VecVirtual{sb0, sb1}, [2]reg.VecVirtual{shb0, shb1})
	JMP(LabelRef("done"))

	Label("w63")
	unpack64Width63(dst, n, src, end)

	Label("done")
	SUBQ(n, total)
	Store(total, ReturnIndex(0))
	VZEROUPPER()
	RET()

	Label("none")
	XORQ(total, total)
	Store(total, ReturnIndex(0))
	RET()
}

// unpack64Loops emits the 16-value loop (8 for wide widths, where the extra
// shuffles use the registers a second block would need) and then the
// 8-value loop.
func unpack64Loops(p string, dst, n, src, end, w, p1, p2, p3 reg.GPVirtual, sa, sh [2]reg.VecVirtual, mask reg.VecVirtual, sb, shb [2]reg.VecVirtual) {
	half := func(k int, lo, hi Mem, out Mem) {
		y := YMM()
		VMOVDQU(lo, y.AsX())
		VINSERTI128(Imm(1), hi, y, y)
		var y2 reg.VecVirtual
		if sb[k] != nil {
			y2 = YMM()
			VPSHUFB(sb[k], y, y2)
			VPSLLVQ(shb[k], y2, y2)
		}
		VPSHUFB(sa[k], y, y)
		VPSRLVQ(sh[k], y, y)
		if sb[k] != nil {
			VPOR(y2, y, y)
		}
		VPAND(mask, y, y)
		VMOVDQU(y, out)
	}
	block := func(base reg.Register, out int) {
		half(0, Mem{Base: base}, Mem{Base: base, Index: p1, Scale: 1}, Mem{Base: dst, Disp: out})
		half(1, Mem{Base: base, Index: p2, Scale: 1}, Mem{Base: base, Index: p3, Scale: 1}, Mem{Base: dst, Disp: out + 32})
	}

	if sb[0] == nil {
		Comment("Two blocks (16 values) at a time.")
		need := GP64()
		LEAQ(Mem{Base: w, Index: p3, Scale: 1, Disp: 16}, need)
		Label(p + "_loop16")
		CMPQ(n, Imm(16))
		JB(LabelRef(p + "_tail"))
		roomFor(src, end, need, p+"_tail")
		src2 := GP64()
		LEAQ(Mem{Base: src, Index: w, Scale: 1}, src2)
		block(src, 0)
		block(src2, 64)
		LEAQ(Mem{Base: src, Index: w, Scale: 2}, src)
		ADDQ(Imm(128), dst)
		SUBQ(Imm(16), n)
		JMP(LabelRef(p + "_loop16"))
		Label(p + "_tail")
	}

	Comment("Single blocks.")
	need1 := GP64()
	LEAQ(Mem{Base: p3, Disp: 16}, need1)
	Label(p + "_loop8")
	CMPQ(n, Imm(8))
	JB(LabelRef("done"))
	roomFor(src, end, need1, "done")
	block(src, 0)
	ADDQ(w, src)
	ADDQ(Imm(64), dst)
	SUBQ(Imm(8), n)
	JMP(LabelRef(p + "_loop8"))
}

// unpack64Width63 emits scalar code for width 63, where two values of a lane
// pair span 17 bytes: value j of a 63-byte block starts at byte 63j/8 and bit
// (63j)%8 = (8-j)%8, and a double shift (SHRD) joins it with the next word.
func unpack64Width63(dst, n, src, end reg.GPVirtual) {
	need := GP64()
	MOVQ(U32(63), need)
	Label("w63_loop")
	CMPQ(n, Imm(8))
	JB(LabelRef("done"))
	roomFor(src, end, need, "done")
	for j := range 8 {
		off, s := 63*j/8, 63*j%8
		lo := GP64()
		MOVQ(Mem{Base: src, Disp: off}, lo)
		switch {
		case s == 0:
			BTRQ(Imm(63), lo)
		case s+63 == 64:
			SHRQ(Imm(uint64(s)), lo)
		default:
			if off+16 > 63 {
				panic(fmt.Sprintf("width 63: value %d reads past its block", j))
			}
			hi := GP64()
			MOVQ(Mem{Base: src, Disp: off + 8}, hi)
			SHRQ(Imm(uint64(s)), hi, lo)
			BTRQ(Imm(63), lo)
		}
		MOVQ(lo, Mem{Base: dst, Disp: 8 * j})
	}
	ADDQ(Imm(63), src)
	ADDQ(Imm(64), dst)
	SUBQ(Imm(8), n)
	JMP(LabelRef("w63_loop"))
}
