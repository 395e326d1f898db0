package main

import (
	"encoding/binary"
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// broadcast32 reports whether a whole 8-value block of width w fits in the
// 16 bytes one VBROADCASTI128 puts in both lanes, so that a single load
// feeds both.
func broadcast32(w int) bool { return w <= 16 }

// broadcast64 reports whether values 0..3 of a width-w block fit in 16 bytes
// from the block start and values 4..7 in 16 bytes from byte 4w/8.
func broadcast64(w int) bool { return w <= 32 }

// unpack32Tables returns, for widths 1..32 (row w-1, 32 bytes each), the
// VPSHUFB controls and VPSRLVD counts that unpack one 8-value block into a
// YMM register: lane 0 holds values 0..3 from a window at byte 0, lane 1
// values 4..7 from a window at byte 0 (broadcast32) or 4w/8.
func unpack32Tables() (shufA, shufB, shift []byte) {
	shufA, shufB, shift = make([]byte, 32*32), make([]byte, 32*32), make([]byte, 32*32)
	for w := 1; w <= 32; w++ {
		a, b, sh := shufA[32*(w-1):32*w], shufB[32*(w-1):32*w], shift[32*(w-1):32*w]
		for j := range 8 {
			base := 0
			if j >= 4 && !broadcast32(w) {
				base = 4 * w / 8
			}
			p := placeIn(j, w, base)
			e := 16*(j/4) + 4*(j%4)
			shuffleElem(a[e:e+4], b[e:e+4], p, w, 4, 16)
			binary.LittleEndian.PutUint32(sh[4*j:], uint32(p.shift))
		}
	}
	return
}

// unpack64Tables returns, for widths 1..64 (row w-1, 64 bytes each), the
// controls that unpack one 8-value block into two YMM registers: lane m
// (m = 0..3: lanes 0,1 of the first register, then of the second) holds
// values 2m and 2m+1. With broadcast64 the first register's lanes both read
// a window at byte 0 and the second's a window at byte 4w/8; otherwise lane
// m reads a window at byte 2m*w/8. Width 63 fits neither (values 2 and 3
// span 17 bytes) and is left zero: the kernel unpacks it with scalar code.
func unpack64Tables() (shufA, shufB, shift []byte) {
	shufA, shufB, shift = make([]byte, 64*64), make([]byte, 64*64), make([]byte, 64*64)
	for w := 1; w <= 64; w++ {
		if w == 63 {
			continue
		}
		a, b, sh := shufA[64*(w-1):64*w], shufB[64*(w-1):64*w], shift[64*(w-1):64*w]
		for j := range 8 {
			m := j / 2
			base := 2 * m * w / 8
			if broadcast64(w) {
				base = 4 * (j / 4) * w / 8
			}
			p := placeIn(j, w, base)
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

// kernel holds the registers every unpack kernel keeps: the next output and
// input addresses and the ends of dst (rounded down to whole blocks) and src.
type kernel struct {
	dst, dstEnd, src, end, w reg.GPVirtual
}

// unpackArgs loads the arguments of a func(dst []T, src []byte, width uint)
// int kernel whose values are size bytes.
func unpackArgs(size int) kernel {
	var k kernel
	k.dst = Load(Param("dst").Base(), GP64()).(reg.GPVirtual)
	n := Load(Param("dst").Len(), GP64())
	ANDQ(I8(-8), n)
	k.dstEnd = GP64()
	LEAQ(Mem{Base: k.dst, Index: n, Scale: uint8(size)}, k.dstEnd)
	k.src = Load(Param("src").Base(), GP64()).(reg.GPVirtual)
	k.end = Load(Param("src").Len(), GP64()).(reg.GPVirtual)
	ADDQ(k.src, k.end)
	k.w = Load(Param("width"), GP64()).(reg.GPVirtual)
	return k
}

// loop emits a loop over groups of unroll blocks: body(i) emits block i of a
// group, reading src at the group start and writing dst + i*out; advance
// moves src past the group. need returns a register holding the src bytes a
// group reads from its start. The loop runs while a whole group fits in dst
// and its loads stay inside src, and falls through to its end label.
func (k kernel) loop(name string, unroll, out int, need func() reg.Register, advance func(), body func(i int)) {
	exit := name + "_end"
	group := unroll * out
	t := GP64()
	MOVQ(k.dstEnd, t)
	SUBQ(k.dst, t)
	CMPQ(t, U32(group))
	JB(LabelRef(exit))
	n := need()
	MOVQ(k.end, t)
	SUBQ(k.src, t)
	CMPQ(t, n)
	JB(LabelRef(exit))
	dLim, sLim := GP64(), GP64()
	LEAQ(Mem{Base: k.dstEnd, Disp: -group}, dLim)
	MOVQ(k.end, sLim)
	SUBQ(n, sLim)
	Label(name)
	for i := range unroll {
		body(i)
	}
	advance()
	ADDQ(U32(group), k.dst)
	CMPQ(k.dst, dLim)
	JHI(LabelRef(exit))
	CMPQ(k.src, sLim)
	JLS(LabelRef(name))
	Label(exit)
}

// constLoops emits the loops of a fixed-width mode whose blocks read
// exactly stride bytes, so no block needs a tail: 4 blocks per iteration,
// then one; then it jumps to done.
func (k kernel) constLoops(name string, stride, out int, body func(src Mem, dst Mem)) {
	for _, u := range []int{4, 1} {
		k.loop(fmt.Sprintf("%s%d", name, u), u, out,
			func() reg.Register { r := GP64(); MOVQ(U32(u*stride), r); return r },
			func() { ADDQ(U32(u*stride), k.src) },
			func(i int) { body(Mem{Base: k.src, Disp: i * stride}, Mem{Base: k.dst, Disp: i * out}) })
	}
	JMP(LabelRef("done"))
}

// tail emits the loop for the blocks the main loop leaves because a load
// window would cross the end of src: each of their 16-byte windows is moved
// back to end at the end of src (body gets lim = end-16 for clamp) and the
// shuffles shifted to match. It needs len(src) >= 16 and stops before a block
// whose bytes are not all in src; then it jumps to done.
func (k kernel) tail(name string, out int, body func(lim reg.Register)) {
	start := Load(Param("src").Base(), GP64())
	t := GP64()
	MOVQ(k.end, t)
	SUBQ(start, t)
	CMPQ(t, Imm(16))
	JB(LabelRef("done"))
	lim := GP64()
	LEAQ(Mem{Base: k.end, Disp: -16}, lim)
	Label(name)
	CMPQ(k.dst, k.dstEnd)
	JAE(LabelRef("done"))
	MOVQ(k.end, t)
	SUBQ(k.src, t)
	CMPQ(t, k.w)
	JB(LabelRef("done"))
	body(lim)
	ADDQ(k.w, k.src)
	ADDQ(U32(out), k.dst)
	JMP(LabelRef(name))
}

// clamp returns the start of the 16-byte window for data at src+off (off nil:
// at src), moved back to lim when it would start past it, and an XMM whose
// low byte holds how far it moved.
func clamp(src, off, lim reg.Register) (reg.GPVirtual, reg.VecVirtual) {
	a, d := GP64(), GP64()
	if off == nil {
		MOVQ(src, a)
	} else {
		LEAQ(Mem{Base: src, Index: off, Scale: 1}, a)
	}
	MOVQ(a, d)
	CMPQ(a, lim)
	CMOVQHI(lim, a)
	SUBQ(a, d)
	x := XMM()
	MOVQ(d, x)
	return a, x
}

// shifted returns sh with its byte shuffles raised by k0 in lane 0 and k1 in
// lane 1 (k1 nil: k0 in both), for windows that clamp moved back. Indices
// with the zeroing bit set keep it, as a move is at most 15.
func (sh shuffle) shifted(k0, k1 reg.VecVirtual) shuffle {
	d := YMM()
	VPBROADCASTB(k0, d)
	if k1 != nil {
		x := XMM()
		VPBROADCASTB(k1, x)
		VINSERTI128(Imm(1), x, d, d)
	}
	a := YMM()
	VPADDB(sh.a, d, a)
	if sh.b != nil {
		b := YMM()
		VPADDB(sh.b, d, b)
		sh.b = b
	}
	sh.a = a
	return sh
}

// shuffle holds the per-width constants of the shuffle modes.
type shuffle struct {
	a, s    reg.VecVirtual // byte shuffle and right shifts
	b, l    reg.VecVirtual // extra-byte shuffle and left shifts; nil unless wide
	mask    reg.VecVirtual
	element int // 4 or 8
}

// apply unpacks the bytes in y (as loaded for this shuffle) in place.
func (sh shuffle) apply(y reg.VecVirtual) {
	srl, sll := VPSRLVD, VPSLLVD
	if sh.element == 8 {
		srl, sll = VPSRLVQ, VPSLLVQ
	}
	var y2 reg.VecVirtual
	if sh.b != nil {
		y2 = YMM()
		VPSHUFB(sh.b, y, y2)
		sll(sh.l, y2, y2)
	}
	VPSHUFB(sh.a, y, y)
	srl(sh.s, y, y)
	if sh.b != nil {
		VPOR(y2, y, y)
	}
	VPAND(sh.mask, y, y)
}

// widen returns sh with the extra-byte shuffle of a wide width added: b is
// loaded from row idx of tab at offset off, and the left shifts are the
// element size minus the right shifts.
func (sh shuffle) widen(tab Mem, idx reg.Register, off int) shuffle {
	sh.b, sh.l = YMM(), YMM()
	loadRow(tab, idx, off, sh.b)
	c := GP64()
	MOVQ(U32(8*sh.element), c)
	x := XMM()
	MOVQ(c, x)
	if sh.element == 8 {
		VPBROADCASTQ(x, sh.l)
		VPSUBQ(sh.s, sh.l, sh.l)
	} else {
		VPBROADCASTD(x, sh.l)
		VPSUBD(sh.s, sh.l, sh.l)
	}
	return sh
}

// loadRow loads 32 bytes at offset off of the row at byte idx of table tab.
func loadRow(tab Mem, idx reg.Register, off int, y reg.Register) {
	base := GP64()
	LEAQ(tab, base)
	VMOVDQU(Mem{Base: base, Index: idx, Scale: 1, Disp: off}, y)
}

// lowBits returns a register with the low w bits of every element set.
func lowBits(w reg.Register, element int) reg.VecVirtual {
	m := YMM()
	c := GP64()
	MOVQ(U32(8*element), c)
	SUBQ(w, c)
	x := XMM()
	MOVQ(c, x)
	if element == 8 {
		VPCMPEQQ(m, m, m)
		VPSRLQ(x, m, m)
	} else {
		VPCMPEQD(m, m, m)
		VPSRLD(x, m, m)
	}
	return m
}

// ret stores the number of values written, (dst - dst_base)/size, and
// returns.
func (k kernel) ret(size int, log uint64) {
	Label("done")
	base := Load(Param("dst").Base(), GP64())
	SUBQ(base, k.dst)
	SHRQ(Imm(log), k.dst)
	Store(k.dst, ReturnIndex(0))
	VZEROUPPER()
	RET()

	Label("none")
	XORQ(k.dst, k.dst)
	Store(k.dst, ReturnIndex(0))
	RET()
}

func unpack32(shufA, shufB, shift Mem) {
	TEXT("Unpack32AVX2", NOSPLIT, "func(dst []uint32, src []byte, width uint) int")
	Pragma("noescape")
	Doc("Unpack32AVX2 unpacks whole 8-value blocks of width-bit values (LSB",
		"first) from src into dst, as many as fit in len(dst) and have their",
		"bytes in src, and returns how many values it wrote, a multiple of 8.",
		"It never reads outside src; when len(src) < 16 it may stop early. It",
		"writes nothing unless 1 <= width <= 32.")
	k := unpackArgs(4)
	w := k.w
	idx := GP64()
	LEAQ(Mem{Base: w, Disp: -1}, idx)
	CMPQ(idx, Imm(31))
	JA(LabelRef("none"))

	Comment("Widths 32, 16 and 8 are a copy or a zero extension.")
	CMPQ(w, Imm(32))
	JE(LabelRef("copy"))
	CMPQ(w, Imm(16))
	JE(LabelRef("zext16"))
	CMPQ(w, Imm(8))
	JE(LabelRef("zext8"))

	SHLQ(Imm(5), idx)
	sh := shuffle{a: YMM(), s: YMM(), element: 4}
	loadRow(shufA, idx, 0, sh.a)
	loadRow(shift, idx, 0, sh.s)
	sh.mask = lowBits(w, 4)
	h := GP64()
	MOVQ(w, h)
	SHRQ(Imm(1), h)
	CMPQ(w, Imm(16))
	JB(LabelRef("bcast"))
	wide := GP64()
	MOVQ(U64(widthMask(32, 4, 0)), wide)
	BTQ(w, wide)
	JCS(LabelRef("wide"))

	Comment("Lane 0 reads values 0..3 from the block start, lane 1 values 4..7 from byte w/2.")
	unpack32Windows(k, "narrow", h, sh)
	Label("wide")
	Comment("Some values span 5 bytes: a second shuffle fetches the fifth byte.")
	unpack32Windows(k, "wide", h, sh.widen(shufB, idx, 0))

	Label("bcast")
	Comment("A block fits in 16 bytes: one broadcast load feeds both lanes.")
	w3 := GP64()
	LEAQ(Mem{Base: w, Index: w, Scale: 2}, w3)
	blockAt := []Mem{{Base: k.src}, {Base: k.src, Index: w, Scale: 1}, {Base: k.src, Index: w, Scale: 2}, {Base: k.src, Index: w3, Scale: 1}}
	k.loop("bcast4", 4, 32,
		func() reg.Register { return groupNeed(4, w, nil) },
		func() { advance(k.src, w, 4) },
		func(i int) {
			y := YMM()
			VBROADCASTI128(blockAt[i], y)
			sh.apply(y)
			VMOVDQU(y, Mem{Base: k.dst, Disp: 32 * i})
		})
	k.tail("bcast_tail", 32, func(lim reg.Register) {
		a, d := clamp(k.src, nil, lim)
		y := YMM()
		VBROADCASTI128(Mem{Base: a}, y)
		sh.shifted(d, nil).apply(y)
		VMOVDQU(y, Mem{Base: k.dst})
	})

	Label("copy")
	k.constLoops("copy", 32, 32, func(src, dst Mem) {
		y := YMM()
		VMOVDQU(src, y)
		VMOVDQU(y, dst)
	})
	Label("zext16")
	k.constLoops("zext16_", 16, 32, func(src, dst Mem) {
		y := YMM()
		VPMOVZXWD(src, y)
		VMOVDQU(y, dst)
	})
	Label("zext8")
	k.constLoops("zext8_", 8, 32, func(src, dst Mem) {
		y := YMM()
		VPMOVZXBD(src, y)
		VMOVDQU(y, dst)
	})
	k.ret(4, 2)
}

// groupNeed returns a register holding the bytes a group of u blocks of w
// bytes reads from its start when each block's last 16-byte window starts at
// byte last of the block (last nil: at the block start): (u-1)*w + last + 16.
func groupNeed(u int, w, last reg.Register) reg.Register {
	r := GP64()
	switch u {
	case 1:
		XORQ(r, r)
	case 2:
		MOVQ(w, r)
	case 4:
		LEAQ(Mem{Base: w, Index: w, Scale: 2}, r)
	default:
		panic("unsupported unroll")
	}
	if last != nil {
		ADDQ(last, r)
	}
	ADDQ(Imm(16), r)
	return r
}

// advance moves src past u blocks of w bytes.
func advance(src, w reg.Register, u int) {
	switch u {
	case 1:
		ADDQ(w, src)
	case 2, 4, 8:
		LEAQ(Mem{Base: src, Index: w, Scale: uint8(u)}, src)
	default:
		panic("unsupported unroll")
	}
}

// unpack32Windows emits the loops of a mode whose lane 1 reads a separate
// window at byte h = w/2 of each block: four blocks per iteration, then the
// tail.
func unpack32Windows(k kernel, p string, h reg.Register, sh shuffle) {
	w := k.w
	wh := GP64()
	LEAQ(Mem{Base: w, Index: h, Scale: 1}, wh)
	block := func(lo, hi, out Mem) {
		y := YMM()
		VMOVDQU(lo, y.AsX())
		VINSERTI128(Imm(1), hi, y, y)
		sh.apply(y)
		VMOVDQU(y, out)
	}
	var src2 reg.GPVirtual
	k.loop(p+"4", 4, 32,
		func() reg.Register { return groupNeed(4, w, h) },
		func() { advance(k.src, w, 4) },
		func(i int) {
			base := k.src
			if i >= 2 {
				if i == 2 {
					src2 = GP64()
					LEAQ(Mem{Base: k.src, Index: w, Scale: 2}, src2)
				}
				base = src2
			}
			if i%2 == 0 {
				block(Mem{Base: base}, Mem{Base: base, Index: h, Scale: 1}, Mem{Base: k.dst, Disp: 32 * i})
			} else {
				block(Mem{Base: base, Index: w, Scale: 1}, Mem{Base: base, Index: wh, Scale: 1}, Mem{Base: k.dst, Disp: 32 * i})
			}
		})
	k.tail(p+"_tail", 32, func(lim reg.Register) {
		a0, d0 := clamp(k.src, nil, lim)
		a1, d1 := clamp(k.src, h, lim)
		y := YMM()
		VMOVDQU(Mem{Base: a0}, y.AsX())
		VINSERTI128(Imm(1), Mem{Base: a1}, y, y)
		sh.shifted(d0, d1).apply(y)
		VMOVDQU(y, Mem{Base: k.dst})
	})
}

func unpack64(shufA, shufB, shift Mem) {
	TEXT("Unpack64AVX2", NOSPLIT, "func(dst []uint64, src []byte, width uint) int")
	Pragma("noescape")
	Doc("Unpack64AVX2 unpacks whole 8-value blocks of width-bit values (LSB",
		"first) from src into dst, as many as fit in len(dst) and have their",
		"bytes in src, and returns how many values it wrote, a multiple of 8.",
		"It never reads outside src; when len(src) < 16 it may stop early. It",
		"writes nothing unless 1 <= width <= 64.")
	k := unpackArgs(8)
	w := k.w
	idx := GP64()
	LEAQ(Mem{Base: w, Disp: -1}, idx)
	CMPQ(idx, Imm(63))
	JA(LabelRef("none"))

	Comment("Widths 64, 32, 16 and 8 are a copy or a zero extension; 63 is scalar.")
	CMPQ(w, Imm(64))
	JE(LabelRef("copy"))
	CMPQ(w, Imm(63))
	JE(LabelRef("w63"))
	CMPQ(w, Imm(32))
	JE(LabelRef("zext32"))
	CMPQ(w, Imm(16))
	JE(LabelRef("zext16"))
	CMPQ(w, Imm(8))
	JE(LabelRef("zext8"))

	SHLQ(Imm(6), idx)
	lo := shuffle{a: YMM(), s: YMM(), element: 8}
	hi := shuffle{a: YMM(), s: YMM(), element: 8}
	loadRow(shufA, idx, 0, lo.a)
	loadRow(shufA, idx, 32, hi.a)
	loadRow(shift, idx, 0, lo.s)
	loadRow(shift, idx, 32, hi.s)
	lo.mask = lowBits(w, 8)
	hi.mask = lo.mask
	// Window starts: 2w/8, 4w/8 and 6w/8.
	p1, p2, p3 := GP64(), GP64(), GP64()
	MOVQ(w, p1)
	SHRQ(Imm(2), p1)
	MOVQ(w, p2)
	SHRQ(Imm(1), p2)
	LEAQ(Mem{Base: w, Index: w, Scale: 2}, p3)
	SHRQ(Imm(2), p3)
	CMPQ(w, Imm(32))
	JB(LabelRef("bcast"))
	wide := GP64()
	MOVQ(U64(widthMask(64, 8, 63)), wide)
	BTQ(w, wide)
	JCS(LabelRef("wide"))

	Comment("Lane m of the block's two registers reads values 2m, 2m+1 from byte 2mw/8.")
	unpack64Windows(k, "narrow", p1, p2, p3, lo, hi)
	Label("wide")
	Comment("Some values span 9 bytes: a second shuffle fetches the ninth byte.")
	unpack64Windows(k, "wide", p1, p2, p3, lo.widen(shufB, idx, 0), hi.widen(shufB, idx, 32))

	Label("bcast")
	Comment("Values 0..3 fit in 16 bytes from the block start, 4..7 from byte w/2:")
	Comment("a broadcast load feeds each register.")
	k.loop("bcast2", 2, 64,
		func() reg.Register { return groupNeed(2, w, p2) },
		func() { advance(k.src, w, 2) },
		func(i int) {
			base := k.src
			if i == 1 {
				base = GP64()
				LEAQ(Mem{Base: k.src, Index: w, Scale: 1}, base)
			}
			y0, y1 := YMM(), YMM()
			VBROADCASTI128(Mem{Base: base}, y0)
			VBROADCASTI128(Mem{Base: base, Index: p2, Scale: 1}, y1)
			lo.apply(y0)
			hi.apply(y1)
			VMOVDQU(y0, Mem{Base: k.dst, Disp: 64 * i})
			VMOVDQU(y1, Mem{Base: k.dst, Disp: 64*i + 32})
		})
	k.tail("bcast_tail", 64, func(lim reg.Register) {
		a0, d0 := clamp(k.src, nil, lim)
		a1, d1 := clamp(k.src, p2, lim)
		y0, y1 := YMM(), YMM()
		VBROADCASTI128(Mem{Base: a0}, y0)
		VBROADCASTI128(Mem{Base: a1}, y1)
		lo.shifted(d0, nil).apply(y0)
		hi.shifted(d1, nil).apply(y1)
		VMOVDQU(y0, Mem{Base: k.dst})
		VMOVDQU(y1, Mem{Base: k.dst, Disp: 32})
	})

	Label("copy")
	k.constLoops("copy", 64, 64, func(src, dst Mem) {
		y0, y1 := YMM(), YMM()
		VMOVDQU(src, y0)
		VMOVDQU(src.Offset(32), y1)
		VMOVDQU(y0, dst)
		VMOVDQU(y1, dst.Offset(32))
	})
	for _, z := range []struct {
		name   string
		stride int
		ext    func(...Op)
	}{{"zext32", 32, VPMOVZXDQ}, {"zext16", 16, VPMOVZXWQ}, {"zext8", 8, VPMOVZXBQ}} {
		Label(z.name)
		k.constLoops(z.name+"_", z.stride, 64, func(src, dst Mem) {
			y0, y1 := YMM(), YMM()
			z.ext(src, y0)
			z.ext(src.Offset(z.stride/2), y1)
			VMOVDQU(y0, dst)
			VMOVDQU(y1, dst.Offset(32))
		})
	}

	Label("w63")
	unpack64Width63(k)
	k.ret(8, 3)
}

// unpack64Windows emits the loops of a mode whose four lanes read separate
// windows at bytes 0, p1, p2 and p3 of each block: two blocks per iteration
// (one for wide widths, whose extra shuffles take the registers a second
// block would need), then the tail.
func unpack64Windows(k kernel, p string, p1, p2, p3 reg.Register, lo, hi shuffle) {
	w := k.w
	half := func(sh shuffle, a, b, out Mem) {
		y := YMM()
		VMOVDQU(a, y.AsX())
		VINSERTI128(Imm(1), b, y, y)
		sh.apply(y)
		VMOVDQU(y, out)
	}
	block := func(base reg.Register, out int) {
		half(lo, Mem{Base: base}, Mem{Base: base, Index: p1, Scale: 1}, Mem{Base: k.dst, Disp: out})
		half(hi, Mem{Base: base, Index: p2, Scale: 1}, Mem{Base: base, Index: p3, Scale: 1}, Mem{Base: k.dst, Disp: out + 32})
	}
	unroll := 2
	if lo.b != nil {
		unroll = 1
	}
	k.loop(fmt.Sprintf("%s%d", p, unroll), unroll, 64,
		func() reg.Register { return groupNeed(unroll, w, p3) },
		func() { advance(k.src, w, unroll) },
		func(i int) {
			base := k.src
			if i == 1 {
				base = GP64()
				LEAQ(Mem{Base: k.src, Index: w, Scale: 1}, base)
			}
			block(base, 64*i)
		})
	k.tail(p+"_tail", 64, func(lim reg.Register) {
		a0, d0 := clamp(k.src, nil, lim)
		a1, d1 := clamp(k.src, p1, lim)
		a2, d2 := clamp(k.src, p2, lim)
		a3, d3 := clamp(k.src, p3, lim)
		for i, win := range [][2]reg.GPVirtual{{a0, a1}, {a2, a3}} {
			sh, dl, dh := lo, d0, d1
			if i == 1 {
				sh, dl, dh = hi, d2, d3
			}
			y := YMM()
			VMOVDQU(Mem{Base: win[0]}, y.AsX())
			VINSERTI128(Imm(1), Mem{Base: win[1]}, y, y)
			sh.shifted(dl, dh).apply(y)
			VMOVDQU(y, Mem{Base: k.dst, Disp: 32 * i})
		}
	})
}

// unpack64Width63 emits scalar code for width 63, where values 2 and 3 of a
// block span 17 bytes: value j of a 63-byte block starts at byte 63j/8 and
// bit (63j)%8 = (8-j)%8, and a double shift (SHRD) joins it with the next
// word.
func unpack64Width63(k kernel) {
	k.constLoops("w63_", 63, 64, func(src, dst Mem) {
		for j := range 8 {
			off, s := 63*j/8, 63*j%8
			lo := GP64()
			MOVQ(src.Offset(off), lo)
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
				MOVQ(src.Offset(off+8), hi)
				SHRQ(Imm(uint64(s)), hi, lo)
				BTRQ(Imm(63), lo)
			}
			MOVQ(lo, dst.Offset(8*j))
		}
	})
}
