package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Levels to validity bitmap: bit i is set when levels[i] >= t. The
// comparison is max(level, t) == level (signed words, unsigned bytes), which
// needs no t-1 and so no special case at the type's minimum; VPMOVMSKB
// gathers one bit per level (word masks are first packed to bytes, with
// VPERMQ undoing the in-lane interleave of VPACKSSWB), 32 levels to a 32-bit
// store, and POPCNT counts the valid ones.

func levels() {
	levelsKernel(2)
	levelsKernel(1)
}

// levelsKernel emits LevelsToBitmap16AVX2 (size 2, int16 levels) or
// LevelsToBitmap8AVX2 (size 1, uint8 levels).
func levelsKernel(size int) {
	typ := map[int]string{1: "uint8", 2: "int16"}[size]
	name := fmt.Sprintf("LevelsToBitmap%dAVX2", 8*size)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst []byte, levels []%s, t %s) (n, valid int)", typ, typ))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets bit i of dst (LSB first) when levels[i] >= t, for the", name),
		"first n = min(len(levels), 8*len(dst))&^31 levels, writing n/8 whole bytes,",
		"and returns n and how many of those bits it set.")
	dst := Load(Param("dst").Base(), GP64())
	room := Load(Param("dst").Len(), GP64())
	SHLQ(Imm(3), room)
	lv := Load(Param("levels").Base(), GP64())
	n := Load(Param("levels").Len(), GP64())
	CMPQ(room, n)
	CMOVQLT(room, n)
	ANDQ(I8(-32), n)
	valid := GP64()
	XORQ(valid, valid)
	tv := YMM()
	x := XMM()
	if size == 2 {
		t := Load(Param("t"), GP32())
		MOVD(t, x)
		VPBROADCASTW(x, tv)
	} else {
		t := Load(Param("t"), GP32())
		MOVD(t, x)
		VPBROADCASTB(x, tv)
	}
	i := GP64()
	XORQ(i, i)
	Label("loop")
	CMPQ(i, n)
	JAE(LabelRef("done"))
	// ge returns the 0xff../0 mask of level >= t for the register at m.
	ge := func(m Mem) reg.VecVirtual {
		a, c := YMM(), YMM()
		VMOVDQU(m, a)
		if size == 2 {
			VPMAXSW(tv, a, c)
			VPCMPEQW(a, c, c)
		} else {
			VPMAXUB(tv, a, c)
			VPCMPEQB(a, c, c)
		}
		return c
	}
	var mask reg.VecVirtual
	if size == 2 {
		a := ge(Mem{Base: lv, Index: i, Scale: 2})
		b := ge(Mem{Base: lv, Index: i, Scale: 2, Disp: 32})
		VPACKSSWB(b, a, a)
		VPERMQ(Imm(0xd8), a, a)
		mask = a
	} else {
		mask = ge(Mem{Base: lv, Index: i, Scale: 1})
	}
	bitsReg, cnt := GP32(), GP32()
	VPMOVMSKB(mask, bitsReg)
	byteIdx := GP64()
	MOVQ(i, byteIdx)
	SHRQ(Imm(3), byteIdx)
	MOVL(bitsReg, Mem{Base: dst, Index: byteIdx, Scale: 1})
	POPCNTL(bitsReg, cnt)
	ADDQ(cnt.As64(), valid)
	ADDQ(Imm(32), i)
	JMP(LabelRef("loop"))

	Label("done")
	Store(n, ReturnIndex(0))
	Store(valid, ReturnIndex(1))
	VZEROUPPER()
	RET()
}
