package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Float bounds with a NaN count, for column statistics and file metrics:
// one pass of VMINP/VMAXP and an unordered compare per vector. MINPD and
// MAXPD return their second source when either operand is NaN, so with
// the running bound as that source a NaN value leaves the bound as it is
// and no NaN ever enters it (the bounds start at +Inf and -Inf); zeros
// of either sign compare equal and either may stay. The compare sets a
// lane to all ones for NaN, and subtracting it counts one. Four vectors
// an iteration keep two chains of bounds and counts in flight.

func minmax() {
	minMaxNaN(8)
	minMaxNaN(4)
}

// minMaxNaN emits MinMaxNaN64AVX2 (size 8) or MinMaxNaN32AVX2.
func minMaxNaN(size int) {
	bits := 8 * size
	lanes := 32 / size
	block := 4 * lanes
	name := fmt.Sprintf("MinMaxNaN%dAVX2", bits)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(v []float%d) (lo, hi float%d, nans, n int)", bits, bits))
	Pragma("noescape")
	doc := []string{
		fmt.Sprintf("%s takes the first len(v)&^%d values of v, %d at a time, and", name, block-1, block),
		"returns the least and greatest of them that are not NaN (+Inf and -Inf",
		"when there is none; zeros of either sign compare equal), how many are",
		"NaN, and how many it took, n.",
	}
	if size == 4 {
		doc[len(doc)-1] += " Each 32-bit count lane takes a sixteenth"
		doc = append(doc, "of the values: len(v) must be below 2^36.")
	}
	Doc(doc...)
	p := Load(Param("v").Base(), GP64())
	n := Load(Param("v").Len(), GP64())
	ANDQ(I32(-block), n)
	Store(n, ReturnIndex(3))
	end := GP64()
	LEAQ(Mem{Base: p, Index: n, Scale: byte(size)}, end)

	minp, maxp, cmpp, subp, bcast := VMINPD, VMAXPD, VCMPPD, VPSUBQ, VBROADCASTSD
	inf, ninf := U64(0x7ff0000000000000), U64(0xfff0000000000000)
	if size == 4 {
		minp, maxp, cmpp, subp, bcast = VMINPS, VMAXPS, VCMPPS, VPSUBD, VBROADCASTSS
		inf, ninf = U64(0x7f800000), U64(0xff800000)
	}
	lo := []reg.VecVirtual{YMM(), YMM()}
	hi := []reg.VecVirtual{YMM(), YMM()}
	cnt := []reg.VecVirtual{YMM(), YMM()}
	t := GP64()
	x := XMM()
	MOVQ(inf, t)
	MOVQ(t, x)
	bcast(x, lo[0])
	MOVQ(ninf, t)
	MOVQ(t, x)
	bcast(x, hi[0])
	VMOVAPS(lo[0], lo[1])
	VMOVAPS(hi[0], hi[1])
	VPXOR(cnt[0], cnt[0], cnt[0])
	VPXOR(cnt[1], cnt[1], cnt[1])

	Label("loop")
	CMPQ(p, end)
	JAE(LabelRef("reduce"))
	for k := range 4 {
		v, m := YMM(), YMM()
		VMOVUPS(Mem{Base: p, Disp: 32 * k}, v)
		j := k & 1
		minp(lo[j], v, lo[j])
		maxp(hi[j], v, hi[j])
		cmpp(Imm(3), v, v, m) // UNORD_Q: all ones for NaN
		subp(m, cnt[j], cnt[j])
	}
	ADDQ(Imm(128), p)
	JMP(LabelRef("loop"))

	Label("reduce")
	minp(lo[1], lo[0], lo[0])
	maxp(hi[1], hi[0], hi[0])
	if size == 8 {
		VPADDQ(cnt[1], cnt[0], cnt[0])
	} else {
		VPADDD(cnt[1], cnt[0], cnt[0])
	}
	reduceBounds(size, minp, lo[0])
	reduceBounds(size, maxp, hi[0])
	Comment("Sum the count lanes.")
	c := cnt[0]
	h := XMM()
	VEXTRACTI128(Imm(1), c, h)
	if size == 8 {
		VPADDQ(h, c.AsX(), c.AsX())
		VPSHUFD(Imm(0x4e), c.AsX(), h)
		VPADDQ(h, c.AsX(), c.AsX())
	} else {
		Comment("Widen the four 32-bit sums to 64 bits before adding them.")
		VPADDD(h, c.AsX(), c.AsX())
		VPMOVZXDQ(c.AsX(), c)
		VEXTRACTI128(Imm(1), c, h)
		VPADDQ(h, c.AsX(), c.AsX())
		VPSHUFD(Imm(0x4e), c.AsX(), h)
		VPADDQ(h, c.AsX(), c.AsX())
	}
	Comment("Leave the AVX state before the SSE-encoded stores.")
	VZEROUPPER()
	Store(lo[0].AsX(), ReturnIndex(0))
	Store(hi[0].AsX(), ReturnIndex(1))
	nans := GP64()
	MOVQ(c.AsX(), nans)
	Store(nans, ReturnIndex(2))
	RET()
}

// reduceBounds folds the lanes of the bounds in v into its lowest lane
// with op (the min or max of the lane size); no lane holds NaN.
func reduceBounds(size int, op func(ops ...Op), v reg.VecVirtual) {
	h := XMM()
	VEXTRACTF128(Imm(1), v, h)
	op(h, v.AsX(), v.AsX())
	VPSHUFD(Imm(0x4e), v.AsX(), h)
	op(h, v.AsX(), v.AsX())
	if size == 4 {
		VPSHUFD(Imm(0xb1), v.AsX(), h)
		op(h, v.AsX(), v.AsX())
	}
}
