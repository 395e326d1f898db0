package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// Dictionary gathers: dst[i] = dict[idx[i]], 16 indices per iteration. The
// indices of an iteration are checked together first (their unsigned
// maximum against len(dict)-1, with AVX2), so no load ever leaves dict; the
// first iteration holding a bad index stops the kernel, and the Go wrapper
// finds and reports it. The loads themselves are scalar: VPGATHERDD and
// VPGATHERDQ measured slower than plain loads on AMD Zen 4 (and Intel's
// gather-data-sampling microcode makes them slower still there), while an
// unrolled scalar loop without per-index bounds checks issues two loads and
// one store per value.

func gather() {
	gatherKernel(4)
	gatherKernel(8)
}

// gatherKernel emits Gather32AVX2 (size 4) or Gather64AVX2.
func gatherKernel(size int) {
	bits := 8 * size
	name := fmt.Sprintf("Gather%dAVX2", bits)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst, dict []uint%d, idx []uint32) int", bits))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets dst[i] = dict[idx[i]] for the first min(len(dst), len(idx))&^15", name),
		"indices, 16 at a time, stopping before the first group of 16 that holds",
		"an index at or past len(dict), and returns how many it gathered.")
	dst := Load(Param("dst").Base(), GP64())
	n := Load(Param("dst").Len(), GP64())
	m := Load(Param("idx").Len(), GP64())
	CMPQ(m, n)
	CMOVQLT(m, n)
	ANDQ(I8(-16), n)
	dict := Load(Param("dict").Base(), GP64())
	lim := Load(Param("dict").Len(), GP64())
	idx := Load(Param("idx").Base(), GP64())
	done := GP64()
	XORQ(done, done)
	Comment("The largest index allowed: len(dict)-1, at most 2^32-1; none if dict is empty.")
	DECQ(lim)
	JS(LabelRef("ret"))
	c := GP64()
	MOVL(U32(0xffffffff), c.As32())
	CMPQ(lim, c)
	CMOVQHI(c, lim)
	limX := XMM()
	MOVQ(lim, limX)
	limY := YMM()
	VPBROADCASTD(limX, limY)

	Label("loop")
	CMPQ(done, n)
	JAE(LabelRef("ret"))
	i0, i1, t := YMM(), YMM(), YMM()
	VMOVDQU(Mem{Base: idx, Index: done, Scale: 4}, i0)
	VMOVDQU(Mem{Base: idx, Index: done, Scale: 4, Disp: 32}, i1)
	VPMAXUD(i0, i1, t)
	VPMAXUD(limY, t, t)
	VPCMPEQD(limY, t, t)
	ok := GP32()
	VPMOVMSKB(t, ok)
	CMPL(ok, U32(0xffffffff))
	JNE(LabelRef("ret"))
	for k := range 16 {
		r, v := GP64(), GP64()
		MOVLQZX(Mem{Base: idx, Index: done, Scale: 4, Disp: 4 * k}, r)
		if size == 4 {
			MOVL(Mem{Base: dict, Index: r, Scale: 4}, v.As32())
			MOVL(v.As32(), Mem{Base: dst, Index: done, Scale: 4, Disp: 4 * k})
		} else {
			MOVQ(Mem{Base: dict, Index: r, Scale: 8}, v)
			MOVQ(v, Mem{Base: dst, Index: done, Scale: 8, Disp: 8 * k})
		}
	}
	ADDQ(Imm(16), done)
	JMP(LabelRef("loop"))

	Label("ret")
	Store(done, ReturnIndex(0))
	VZEROUPPER()
	RET()
}
