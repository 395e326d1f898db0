//go:build !purego

#include "textflag.h"

// Float bounds with a NaN count for NEON, eight registers an iteration (16
// float64 or 32 float32 values). FMINNM and FMAXNM return the number when
// the other operand is a quiet NaN, but a signalling NaN makes them return
// NaN, which the next number would then replace, losing the bound: so each
// register is first quieted (FMAXNM of itself keeps a number and makes any
// NaN quiet), and with the bounds starting at +Inf and -Inf no NaN ever
// enters them. FMINNM orders -0 below +0 and FMAXNM +0 above -0. FCMEQ of
// a register with itself sets the lanes that are not NaN to all ones;
// subtracting that counts them, and the NaN count is what is left of n.
// Bounds and counts each keep four chains in flight.
//
// Registers: R0 v, R1 n, R2 iterations left, R3 and R4 +Inf and -Inf,
// then the count; V0-V7 the values, then their masks; V16-V23 the values
// quieted; V8-V11 lows, V12-V15 highs, V24-V27 counts.
//
// None of these has a Go mnemonic except SUB, which is encoded as well so
// that one body, given the size bit (0 for 4S, 1<<22 for 2D), serves both
// widths. Each takes register numbers, in Go's operand order:
//
//	FMINNM Vd, Vn, Vm   0x4ea0c400|sz|m<<16|n<<5|d
//	FMAXNM Vd, Vn, Vm   0x4e20c400|sz|m<<16|n<<5|d
//	FCMEQ  Vd, Vn, Vm   0x4e20e400|sz|m<<16|n<<5|d
//	SUB    Vd, Vn, Vm   0x6ea08400|sz|m<<16|n<<5|d
//	FMINNMV Sd, Vn.4S   0x6eb0c800|n<<5|d
//	FMAXNMV Sd, Vn.4S   0x6e30c800|n<<5|d
//	FMINNMP Dd, Vn.2D   0x7ef0c800|n<<5|d
//	FMAXNMP Dd, Vn.2D   0x7e70c800|n<<5|d
#define VFMINNM(sz, m, n, d) WORD $(0x4ea0c400|(sz)|(m)<<16|(n)<<5|(d))
#define VFMAXNM(sz, m, n, d) WORD $(0x4e20c400|(sz)|(m)<<16|(n)<<5|(d))
#define VFCMEQ(sz, m, n, d) WORD $(0x4e20e400|(sz)|(m)<<16|(n)<<5|(d))
#define VSUBN(sz, m, n, d) WORD $(0x6ea08400|(sz)|(m)<<16|(n)<<5|(d))

#define SZ4S 0
#define SZ2D 0x400000

// BOUNDS folds the eight registers V0-V7 into the bounds and counts.
#define BOUNDS(sz) \
	VFMAXNM(sz, 0, 0, 16) \
	VFMAXNM(sz, 1, 1, 17) \
	VFMAXNM(sz, 2, 2, 18) \
	VFMAXNM(sz, 3, 3, 19) \
	VFMAXNM(sz, 4, 4, 20) \
	VFMAXNM(sz, 5, 5, 21) \
	VFMAXNM(sz, 6, 6, 22) \
	VFMAXNM(sz, 7, 7, 23) \
	VFCMEQ(sz, 0, 0, 0) \
	VFCMEQ(sz, 1, 1, 1) \
	VFCMEQ(sz, 2, 2, 2) \
	VFCMEQ(sz, 3, 3, 3) \
	VFCMEQ(sz, 4, 4, 4) \
	VFCMEQ(sz, 5, 5, 5) \
	VFCMEQ(sz, 6, 6, 6) \
	VFCMEQ(sz, 7, 7, 7) \
	VFMINNM(sz, 16, 8, 8) \
	VFMINNM(sz, 17, 9, 9) \
	VFMINNM(sz, 18, 10, 10) \
	VFMINNM(sz, 19, 11, 11) \
	VFMINNM(sz, 20, 8, 8) \
	VFMINNM(sz, 21, 9, 9) \
	VFMINNM(sz, 22, 10, 10) \
	VFMINNM(sz, 23, 11, 11) \
	VFMAXNM(sz, 16, 12, 12) \
	VFMAXNM(sz, 17, 13, 13) \
	VFMAXNM(sz, 18, 14, 14) \
	VFMAXNM(sz, 19, 15, 15) \
	VFMAXNM(sz, 20, 12, 12) \
	VFMAXNM(sz, 21, 13, 13) \
	VFMAXNM(sz, 22, 14, 14) \
	VFMAXNM(sz, 23, 15, 15) \
	VSUBN(sz, 0, 24, 24) \
	VSUBN(sz, 1, 25, 25) \
	VSUBN(sz, 2, 26, 26) \
	VSUBN(sz, 3, 27, 27) \
	VSUBN(sz, 4, 24, 24) \
	VSUBN(sz, 5, 25, 25) \
	VSUBN(sz, 6, 26, 26) \
	VSUBN(sz, 7, 27, 27)

// FOLD takes the four chains of bounds into V8 (lows) and V12 (highs).
#define FOLD(sz) \
	VFMINNM(sz, 9, 8, 8) \
	VFMINNM(sz, 11, 10, 10) \
	VFMINNM(sz, 10, 8, 8) \
	VFMAXNM(sz, 13, 12, 12) \
	VFMAXNM(sz, 15, 14, 14) \
	VFMAXNM(sz, 14, 12, 12)

// INIT sets the bounds to +Inf and -Inf, from R3 and R4 broadcast in
// arrangement arr, and the counts to zero.
#define INIT(arr) \
	VDUP R3, V8.arr \
	VDUP R4, V12.arr \
	VMOV V8.B16, V9.B16 \
	VMOV V8.B16, V10.B16 \
	VMOV V8.B16, V11.B16 \
	VMOV V12.B16, V13.B16 \
	VMOV V12.B16, V14.B16 \
	VMOV V12.B16, V15.B16 \
	VEOR V24.B16, V24.B16, V24.B16 \
	VEOR V25.B16, V25.B16, V25.B16 \
	VEOR V26.B16, V26.B16, V26.B16 \
	VEOR V27.B16, V27.B16, V27.B16

// func MinMaxNaN32NEON(v []float32) (lo float32, hi float32, nans int, n int)
TEXT ·MinMaxNaN32NEON(SB), NOSPLIT, $0-48
	MOVD v_base+0(FP), R0
	MOVD v_len+8(FP), R1
	AND  $~31, R1, R1
	MOVD R1, n+40(FP)
	LSR  $5, R1, R2
	MOVW $0x7f800000, R3
	MOVW $0xff800000, R4
	INIT(S4)
	CBZ  R2, reduce32

loop32:
	VLD1.P 64(R0), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R0), [V4.S4, V5.S4, V6.S4, V7.S4]
	BOUNDS(SZ4S)
	SUB    $1, R2, R2
	CBNZ   R2, loop32

reduce32:
	FOLD(SZ4S)
	WORD  $0x6eb0c908 // FMINNMV S8, V8.4S
	WORD  $0x6e30c98c // FMAXNMV S12, V12.4S
	FMOVS F8, lo+24(FP)
	FMOVS F12, hi+28(FP)

	// Each count lane holds at most a quarter of n once the chains are
	// added, below 2^32 for n below 2^34; UADDLV widens the sum.
	VADD    V25.S4, V24.S4, V24.S4
	VADD    V27.S4, V26.S4, V26.S4
	VADD    V26.S4, V24.S4, V24.S4
	VUADDLV V24.S4, V24
	VMOV    V24.D[0], R3
	SUB     R3, R1, R3
	MOVD    R3, nans+32(FP)
	RET

// func MinMaxNaN64NEON(v []float64) (lo float64, hi float64, nans int, n int)
TEXT ·MinMaxNaN64NEON(SB), NOSPLIT, $0-56
	MOVD v_base+0(FP), R0
	MOVD v_len+8(FP), R1
	AND  $~15, R1, R1
	MOVD R1, n+48(FP)
	LSR  $4, R1, R2
	MOVD $0x7ff0000000000000, R3
	MOVD $0xfff0000000000000, R4
	INIT(D2)
	CBZ  R2, reduce64

loop64:
	VLD1.P 64(R0), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1.P 64(R0), [V4.D2, V5.D2, V6.D2, V7.D2]
	BOUNDS(SZ2D)
	SUB    $1, R2, R2
	CBNZ   R2, loop64

reduce64:
	FOLD(SZ2D)
	WORD  $0x7ef0c908 // FMINNMP D8, V8.2D
	WORD  $0x7e70c98c // FMAXNMP D12, V12.2D
	FMOVD F8, lo+24(FP)
	FMOVD F12, hi+32(FP)
	VADD  V25.D2, V24.D2, V24.D2
	VADD  V27.D2, V26.D2, V26.D2
	VADD  V26.D2, V24.D2, V24.D2
	VMOV  V24.D[0], R3
	VMOV  V24.D[1], R4
	ADD   R4, R3, R3
	SUB   R3, R1, R3
	MOVD  R3, nans+40(FP)
	RET
