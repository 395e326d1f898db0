//go:build !purego

#include "textflag.h"

// Dictionary gathers for arm64, 16 indices per group. A group is checked
// first: UMAX folds its four vectors of indices into one, whose four lanes
// are compared with len(dict) (as 64-bit values, so dictionaries of 2^32
// entries or more take every index); a group with an index out of range
// ends the kernel before anything of it is written. Then each value is
// loaded through its index and stored.

// GROUP checks the 16 indices at R4 against len(dict) in R3 and branches
// to done when one is at or past it.
#define GROUP \
	VLD1 (R4), [V0.S4, V1.S4, V2.S4, V3.S4] \
	VUMAX V1.S4, V0.S4, V0.S4 \
	VUMAX V3.S4, V2.S4, V2.S4 \
	VUMAX V2.S4, V0.S4, V0.S4 \
	VMOV V0.S[0], R7 \
	VMOV V0.S[1], R8 \
	VMOV V0.S[2], R9 \
	VMOV V0.S[3], R10 \
	CMP R8, R7 \
	CSEL HS, R7, R8, R7 \
	CMP R10, R9 \
	CSEL HS, R9, R10, R9 \
	CMP R9, R7 \
	CSEL HS, R7, R9, R7 \
	CMP R3, R7 \
	BHS done

// Prologue: R0 dst, R2 dict, R3 len(dict), R4 idx, R5 the indices to do
// (min(len(dst), len(idx)) rounded down to 16), R6 the count so far.
#define PROLOGUE \
	MOVD dst_base+0(FP), R0 \
	MOVD dst_len+8(FP), R1 \
	MOVD dict_base+24(FP), R2 \
	MOVD dict_len+32(FP), R3 \
	MOVD idx_base+48(FP), R4 \
	MOVD idx_len+56(FP), R5 \
	CMP R1, R5 \
	CSEL LT, R5, R1, R5 \
	AND $~15, R5, R5 \
	MOVD ZR, R6

// func Gather32NEON(dst []uint32, dict []uint32, idx []uint32) int
TEXT ·Gather32NEON(SB), NOSPLIT, $0-80
	PROLOGUE
loop:
	CMP R5, R6
	BGE done
	GROUP
	MOVWU 0(R4), R7
	MOVWU (R2)(R7<<2), R8
	MOVW R8, 0(R0)
	MOVWU 4(R4), R7
	MOVWU (R2)(R7<<2), R8
	MOVW R8, 4(R0)
	MOVWU 8(R4), R7
	MOVWU (R2)(R7<<2), R8
	MOVW R8, 8(R0)
	MOVWU 12(R4), R7
	MOVWU (R2)(R7<<2), R8
	MOVW R8, 12(R0)
	MOVWU 16(R4), R7
	MOVWU (R2)(R7<<2), R8
	MOVW R8, 16(R0)
	MOVWU 20(R4), R7
	MOVWU (R2)(R7<<2), R8
	MOVW R8, 20(R0)
	MOVWU 24(R4), R7
	MOVWU (R2)(R7<<2), R8
	MOVW R8, 24(R0)
	MOVWU 28(R4), R7
	MOVWU (R2)(R7<<2), R8
	MOVW R8, 28(R0)
	MOVWU 32(R4), R7
	MOVWU (R2)(R7<<2), R8
	MOVW R8, 32(R0)
	MOVWU 36(R4), R7
	MOVWU (R2)(R7<<2), R8
	MOVW R8, 36(R0)
	MOVWU 40(R4), R7
	MOVWU (R2)(R7<<2), R8
	MOVW R8, 40(R0)
	MOVWU 44(R4), R7
	MOVWU (R2)(R7<<2), R8
	MOVW R8, 44(R0)
	MOVWU 48(R4), R7
	MOVWU (R2)(R7<<2), R8
	MOVW R8, 48(R0)
	MOVWU 52(R4), R7
	MOVWU (R2)(R7<<2), R8
	MOVW R8, 52(R0)
	MOVWU 56(R4), R7
	MOVWU (R2)(R7<<2), R8
	MOVW R8, 56(R0)
	MOVWU 60(R4), R7
	MOVWU (R2)(R7<<2), R8
	MOVW R8, 60(R0)
	ADD $64, R4, R4
	ADD $64, R0, R0
	ADD $16, R6, R6
	B loop
done:
	MOVD R6, ret+72(FP)
	RET

// func Gather64NEON(dst []uint64, dict []uint64, idx []uint32) int
TEXT ·Gather64NEON(SB), NOSPLIT, $0-80
	PROLOGUE
loop:
	CMP R5, R6
	BGE done
	GROUP
	MOVWU 0(R4), R7
	MOVD (R2)(R7<<3), R8
	MOVD R8, 0(R0)
	MOVWU 4(R4), R7
	MOVD (R2)(R7<<3), R8
	MOVD R8, 8(R0)
	MOVWU 8(R4), R7
	MOVD (R2)(R7<<3), R8
	MOVD R8, 16(R0)
	MOVWU 12(R4), R7
	MOVD (R2)(R7<<3), R8
	MOVD R8, 24(R0)
	MOVWU 16(R4), R7
	MOVD (R2)(R7<<3), R8
	MOVD R8, 32(R0)
	MOVWU 20(R4), R7
	MOVD (R2)(R7<<3), R8
	MOVD R8, 40(R0)
	MOVWU 24(R4), R7
	MOVD (R2)(R7<<3), R8
	MOVD R8, 48(R0)
	MOVWU 28(R4), R7
	MOVD (R2)(R7<<3), R8
	MOVD R8, 56(R0)
	MOVWU 32(R4), R7
	MOVD (R2)(R7<<3), R8
	MOVD R8, 64(R0)
	MOVWU 36(R4), R7
	MOVD (R2)(R7<<3), R8
	MOVD R8, 72(R0)
	MOVWU 40(R4), R7
	MOVD (R2)(R7<<3), R8
	MOVD R8, 80(R0)
	MOVWU 44(R4), R7
	MOVD (R2)(R7<<3), R8
	MOVD R8, 88(R0)
	MOVWU 48(R4), R7
	MOVD (R2)(R7<<3), R8
	MOVD R8, 96(R0)
	MOVWU 52(R4), R7
	MOVD (R2)(R7<<3), R8
	MOVD R8, 104(R0)
	MOVWU 56(R4), R7
	MOVD (R2)(R7<<3), R8
	MOVD R8, 112(R0)
	MOVWU 60(R4), R7
	MOVD (R2)(R7<<3), R8
	MOVD R8, 120(R0)
	ADD $64, R4, R4
	ADD $128, R0, R0
	ADD $16, R6, R6
	B loop
done:
	MOVD R6, ret+72(FP)
	RET
