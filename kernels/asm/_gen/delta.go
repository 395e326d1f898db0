package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// DELTA_BINARY_PACKED prefix sums: v[i] = last + sum(v[0..i]) + (i+1)*minDelta,
// wrapping. Each register is summed inside its 128-bit lanes with shifted
// copies (VPSLLDQ), the low lane's total is added to the high lane, and the
// running total, broadcast from the previous register's last element, is
// added last. Two registers per iteration: the second only waits for the
// first's local total, so the loop-carried chain is one add and one
// broadcast per two registers.

func delta() {
	deltaKernel(4)
	deltaKernel(8)
}

// deltaKernel emits DeltaPrefixSum32AVX2 (size 4) or DeltaPrefixSum64AVX2.
func deltaKernel(size int) {
	bits := 8 * size
	per := 32 / size // values per register
	name := fmt.Sprintf("DeltaPrefixSum%dAVX2", bits)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(v []uint%d, last, minDelta uint%d) int", bits, bits))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s turns the deltas in v (each still missing minDelta) into", name),
		"values continuing from last, wrapping, for the first len(v)&^7 values,",
		"and returns that count; v[count-1] is then the new last value.")
	p := Load(Param("v").Base(), GP64())
	n := Load(Param("v").Len(), GP64())
	ANDQ(I8(-8), n)
	end := GP64()
	LEAQ(Mem{Base: p, Index: n, Scale: uint8(size)}, end)

	carry, md := YMM(), YMM()
	broadcastParam := func(name string, y reg.VecVirtual) {
		x := XMM()
		if size == 4 {
			r := Load(Param(name), GP32())
			MOVD(r, x)
			VPBROADCASTD(x, y)
		} else {
			r := Load(Param(name), GP64())
			MOVQ(r, x)
			VPBROADCASTQ(x, y)
		}
	}
	broadcastParam("last", carry)
	broadcastParam("minDelta", md)
	add := VPADDD
	if size == 8 {
		add = VPADDQ
	}

	// local sums x in place within the register: in-lane scan, then the low
	// lane's total into the high lane.
	local := func(x reg.VecVirtual) {
		t := YMM()
		add(md, x, x)
		for sh := size; sh < 16; sh *= 2 {
			VPSLLDQ(Imm(uint64(sh)), x, t)
			add(t, x, x)
		}
		if size == 4 {
			VPSHUFD(Imm(0xff), x, t)
		} else {
			VPSHUFD(Imm(0xee), x, t)
		}
		VPERM2I128(Imm(0x08), t, t, t)
		add(t, x, x)
	}
	// last element of x, broadcast to all of y.
	var perm reg.VecVirtual
	if size == 4 {
		perm = idx7()
	}
	broadcastLast := func(x, y reg.VecVirtual) {
		if size == 4 {
			VPERMD(x, perm, y)
		} else {
			VPERMQ(Imm(0xff), x, y)
		}
	}

	Comment(fmt.Sprintf("%d values per iteration.", 2*per))
	CMPQ(n, Imm(uint64(2*per)))
	JB(LabelRef("one"))
	lim := GP64() // only formed when at least 64 bytes follow p, so it cannot wrap
	LEAQ(Mem{Base: end, Disp: -64}, lim)
	Label("loop2")
	CMPQ(p, lim)
	JHI(LabelRef("one"))
	x0, x1, t := YMM(), YMM(), YMM()
	VMOVDQU(Mem{Base: p}, x0)
	VMOVDQU(Mem{Base: p, Disp: 32}, x1)
	local(x0)
	local(x1)
	broadcastLast(x0, t)
	add(t, x1, x1)
	add(carry, x0, x0)
	add(carry, x1, x1)
	VMOVDQU(x0, Mem{Base: p})
	VMOVDQU(x1, Mem{Base: p, Disp: 32})
	broadcastLast(x1, carry)
	ADDQ(Imm(64), p)
	JMP(LabelRef("loop2"))

	Label("one")
	Comment(fmt.Sprintf("Then %d at a time.", per))
	Label("loop1")
	CMPQ(p, end)
	JAE(LabelRef("done"))
	x := YMM()
	VMOVDQU(Mem{Base: p}, x)
	local(x)
	add(carry, x, x)
	VMOVDQU(x, Mem{Base: p})
	broadcastLast(x, carry)
	ADDQ(Imm(32), p)
	JMP(LabelRef("loop1"))

	Label("done")
	Store(n, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// deltaIdx7 is the data section idx7 declares on first use.
var deltaIdx7 *Mem

// idx7 loads a VPERMD index that broadcasts element 7.
func idx7() reg.VecVirtual {
	if deltaIdx7 == nil {
		m := GLOBL("deltaIdx7", RODATA|NOPTR)
		for i := 0; i < 32; i += 8 {
			DATA(i, U64(0x0000000700000007))
		}
		deltaIdx7 = &m
	}
	y := YMM()
	VMOVDQU(*deltaIdx7, y)
	return y
}
