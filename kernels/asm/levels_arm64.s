//go:build !purego

#include "textflag.h"

// Levels to validity bitmap with NEON, 32 levels per iteration: bit i is set
// when levels[i] >= t, tested as max(level, t) == level (UMAX; int16 levels
// and t have their sign bit flipped first so that unsigned order is signed
// order), word masks narrowed to bytes with UZP1. One bit per level comes
// from ANDing each mask byte with its bit weight (1, 2, ..., 128) and adding
// neighbours with ADDP three times; CNT and UADDLV count the set bits.

// func LevelsToBitmap16NEON(dst []byte, levels []int16, t int16) (n int, valid int)
TEXT ·LevelsToBitmap16NEON(SB), NOSPLIT, $0-72
	MOVD dst_base+0(FP), R0
	MOVD dst_len+8(FP), R1
	MOVD levels_base+24(FP), R2
	MOVD levels_len+32(FP), R3
	MOVHU t+48(FP), R4
	EOR  $0x8000, R4, R4
	VDUP R4, V31.H8
	MOVD $0x8000, R5
	VDUP R5, V30.H8
	MOVD $0x8040201008040201, R6
	VDUP R6, V29.D2
	LSL  $3, R1, R1
	CMP  R1, R3
	CSEL GT, R1, R3, R3
	AND  $~31, R3, R3
	MOVD R3, n+56(FP)
	MOVD ZR, R10
	LSR  $5, R3, R4
	CBZ  R4, done16

loop16:
	VLD1.P 64(R2), [V0.H8, V1.H8, V2.H8, V3.H8]
	VEOR   V30.B16, V0.B16, V0.B16
	VEOR   V30.B16, V1.B16, V1.B16
	VEOR   V30.B16, V2.B16, V2.B16
	VEOR   V30.B16, V3.B16, V3.B16
	VUMAX  V31.H8, V0.H8, V4.H8
	VUMAX  V31.H8, V1.H8, V5.H8
	VUMAX  V31.H8, V2.H8, V6.H8
	VUMAX  V31.H8, V3.H8, V7.H8
	VCMEQ  V0.H8, V4.H8, V4.H8
	VCMEQ  V1.H8, V5.H8, V5.H8
	VCMEQ  V2.H8, V6.H8, V6.H8
	VCMEQ  V3.H8, V7.H8, V7.H8
	VUZP1  V5.B16, V4.B16, V16.B16
	VUZP1  V7.B16, V6.B16, V17.B16
	VAND    V29.B16, V16.B16, V16.B16
	VAND    V29.B16, V17.B16, V17.B16
	VCNT    V16.B16, V20.B16
	VCNT    V17.B16, V21.B16
	VADD    V21.B16, V20.B16, V20.B16
	VUADDLV V20.B16, V20
	VMOV    V20.H[0], R8
	ADD     R8, R10, R10
	VADDP   V17.B16, V16.B16, V18.B16
	VADDP   V18.B16, V18.B16, V18.B16
	VADDP   V18.B16, V18.B16, V18.B16
	VMOV    V18.S[0], R7
	MOVW    R7, (R0)
	ADD     $4, R0, R0
	SUB     $1, R4, R4
	CBNZ    R4, loop16

done16:
	MOVD R10, valid+64(FP)
	RET

// func LevelsToBitmap8NEON(dst []byte, levels []uint8, t uint8) (n int, valid int)
TEXT ·LevelsToBitmap8NEON(SB), NOSPLIT, $0-72
	MOVD dst_base+0(FP), R0
	MOVD dst_len+8(FP), R1
	MOVD levels_base+24(FP), R2
	MOVD levels_len+32(FP), R3
	MOVBU t+48(FP), R4
	VDUP R4, V31.B16
	MOVD $0x8040201008040201, R6
	VDUP R6, V29.D2
	LSL  $3, R1, R1
	CMP  R1, R3
	CSEL GT, R1, R3, R3
	AND  $~31, R3, R3
	MOVD R3, n+56(FP)
	MOVD ZR, R10
	LSR  $5, R3, R4
	CBZ  R4, done8

loop8:
	VLD1.P 32(R2), [V0.B16, V1.B16]
	VUMAX  V31.B16, V0.B16, V4.B16
	VUMAX  V31.B16, V1.B16, V5.B16
	VCMEQ  V0.B16, V4.B16, V16.B16
	VCMEQ  V1.B16, V5.B16, V17.B16
	VAND    V29.B16, V16.B16, V16.B16
	VAND    V29.B16, V17.B16, V17.B16
	VCNT    V16.B16, V20.B16
	VCNT    V17.B16, V21.B16
	VADD    V21.B16, V20.B16, V20.B16
	VUADDLV V20.B16, V20
	VMOV    V20.H[0], R8
	ADD     R8, R10, R10
	VADDP   V17.B16, V16.B16, V18.B16
	VADDP   V18.B16, V18.B16, V18.B16
	VADDP   V18.B16, V18.B16, V18.B16
	VMOV    V18.S[0], R7
	MOVW    R7, (R0)
	ADD     $4, R0, R0
	SUB     $1, R4, R4
	CBNZ    R4, loop8

done8:
	MOVD R10, valid+64(FP)
	RET
