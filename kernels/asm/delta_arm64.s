//go:build !purego

#include "textflag.h"

// DELTA_BINARY_PACKED prefix sums with NEON, 8 values (two or four
// registers) per iteration: each register is scanned with EXT-shifted copies
// of itself (zeros shifted in from V31), the first register's total is added
// to the second, and the running total (V30, broadcast from the previous
// group's last element) is added last.

// func DeltaPrefixSum32NEON(v []uint32, last uint32, minDelta uint32) int
TEXT ·DeltaPrefixSum32NEON(SB), NOSPLIT, $0-40
	MOVD  v_base+0(FP), R0
	MOVD  v_len+8(FP), R1
	AND   $~7, R1, R1
	MOVWU last+24(FP), R2
	MOVWU minDelta+28(FP), R3
	VDUP  R2, V30.S4
	VDUP  R3, V29.S4
	VEOR  V31.B16, V31.B16, V31.B16
	LSR   $3, R1, R4
	CBZ   R4, done32

loop32:
	VLD1 (R0), [V0.S4, V1.S4]
	VADD V29.S4, V0.S4, V0.S4
	VADD V29.S4, V1.S4, V1.S4
	VEXT $12, V0.B16, V31.B16, V2.B16
	VEXT $12, V1.B16, V31.B16, V3.B16
	VADD V2.S4, V0.S4, V0.S4
	VADD V3.S4, V1.S4, V1.S4
	VEXT $8, V0.B16, V31.B16, V2.B16
	VEXT $8, V1.B16, V31.B16, V3.B16
	VADD V2.S4, V0.S4, V0.S4
	VADD V3.S4, V1.S4, V1.S4
	VDUP V0.S[3], V2.S4
	VADD V2.S4, V1.S4, V1.S4
	VADD V30.S4, V0.S4, V0.S4
	VADD V30.S4, V1.S4, V1.S4
	VST1.P [V0.S4, V1.S4], 32(R0)
	VDUP V1.S[3], V30.S4
	SUB  $1, R4, R4
	CBNZ R4, loop32

done32:
	MOVD R1, ret+32(FP)
	RET

// func DeltaPrefixSum64NEON(v []uint64, last uint64, minDelta uint64) int
TEXT ·DeltaPrefixSum64NEON(SB), NOSPLIT, $0-48
	MOVD v_base+0(FP), R0
	MOVD v_len+8(FP), R1
	AND  $~7, R1, R1
	MOVD last+24(FP), R2
	MOVD minDelta+32(FP), R3
	VDUP R2, V30.D2
	VDUP R3, V29.D2
	VEOR V31.B16, V31.B16, V31.B16
	LSR  $3, R1, R4
	CBZ  R4, done64

loop64:
	VLD1 (R0), [V0.D2, V1.D2, V2.D2, V3.D2]
	VADD V29.D2, V0.D2, V0.D2
	VADD V29.D2, V1.D2, V1.D2
	VADD V29.D2, V2.D2, V2.D2
	VADD V29.D2, V3.D2, V3.D2
	VEXT $8, V0.B16, V31.B16, V4.B16
	VEXT $8, V1.B16, V31.B16, V5.B16
	VEXT $8, V2.B16, V31.B16, V6.B16
	VEXT $8, V3.B16, V31.B16, V7.B16
	VADD V4.D2, V0.D2, V0.D2
	VADD V5.D2, V1.D2, V1.D2
	VADD V6.D2, V2.D2, V2.D2
	VADD V7.D2, V3.D2, V3.D2
	VDUP V0.D[1], V4.D2
	VADD V4.D2, V1.D2, V1.D2
	VDUP V2.D[1], V6.D2
	VADD V6.D2, V3.D2, V3.D2
	VDUP V1.D[1], V5.D2
	VADD V5.D2, V2.D2, V2.D2
	VADD V5.D2, V3.D2, V3.D2
	VADD V30.D2, V0.D2, V0.D2
	VADD V30.D2, V1.D2, V1.D2
	VADD V30.D2, V2.D2, V2.D2
	VADD V30.D2, V3.D2, V3.D2
	VST1.P [V0.D2, V1.D2, V2.D2, V3.D2], 64(R0)
	VDUP V3.D[1], V30.D2
	SUB  $1, R4, R4
	CBNZ R4, loop64

done64:
	MOVD R1, ret+40(FP)
	RET
