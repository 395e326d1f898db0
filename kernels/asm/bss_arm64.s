//go:build !purego

#include "textflag.h"

// BYTE_STREAM_SPLIT with NEON structure loads and stores, 16 values per
// iteration. Decoding widths 2 and 4 is one ST2/ST4 of the streams' bytes;
// width 8 first zips stream pairs into halfwords, then ST4 interleaves the
// four halfword registers. Encoding reverses it with LD2/LD4, and for width
// 8 an LD4 of halfwords followed by UZP1/UZP2 to split even and odd bytes.
// R0 walks the values, R6.. the streams (stream k starts at k*n).

// func BSSDecode2NEON(dst, src []byte) int
TEXT ·BSSDecode2NEON(SB), NOSPLIT, $0-56
	MOVD dst_base+0(FP), R0
	MOVD dst_len+8(FP), R1
	MOVD src_base+24(FP), R2
	MOVD src_len+32(FP), R3
	CMP  R1, R3
	CSEL LT, R3, R1, R1
	LSR  $1, R1, R1
	LSR  $4, R1, R4
	LSL  $4, R4, R5
	CBZ  R4, BSSDecode2NEON_ret
	MOVD R2, R6
	ADD  R1, R6, R7

BSSDecode2NEON_loop:
	VLD1.P 16(R6), [V0.B16]
	VLD1.P 16(R7), [V1.B16]
	VST2.P [V0.B16, V1.B16], 32(R0)
	SUB  $1, R4, R4
	CBNZ R4, BSSDecode2NEON_loop

BSSDecode2NEON_ret:
	MOVD R5, ret+48(FP)
	RET

// func BSSDecode4NEON(dst, src []byte) int
TEXT ·BSSDecode4NEON(SB), NOSPLIT, $0-56
	MOVD dst_base+0(FP), R0
	MOVD dst_len+8(FP), R1
	MOVD src_base+24(FP), R2
	MOVD src_len+32(FP), R3
	CMP  R1, R3
	CSEL LT, R3, R1, R1
	LSR  $2, R1, R1
	LSR  $4, R1, R4
	LSL  $4, R4, R5
	CBZ  R4, BSSDecode4NEON_ret
	MOVD R2, R6
	ADD  R1, R6, R7
	ADD  R1, R7, R8
	ADD  R1, R8, R9

BSSDecode4NEON_loop:
	VLD1.P 16(R6), [V0.B16]
	VLD1.P 16(R7), [V1.B16]
	VLD1.P 16(R8), [V2.B16]
	VLD1.P 16(R9), [V3.B16]
	VST4.P [V0.B16, V1.B16, V2.B16, V3.B16], 64(R0)
	SUB  $1, R4, R4
	CBNZ R4, BSSDecode4NEON_loop

BSSDecode4NEON_ret:
	MOVD R5, ret+48(FP)
	RET

// func BSSDecode8NEON(dst, src []byte) int
TEXT ·BSSDecode8NEON(SB), NOSPLIT, $0-56
	MOVD dst_base+0(FP), R0
	MOVD dst_len+8(FP), R1
	MOVD src_base+24(FP), R2
	MOVD src_len+32(FP), R3
	CMP  R1, R3
	CSEL LT, R3, R1, R1
	LSR  $3, R1, R1
	LSR  $4, R1, R4
	LSL  $4, R4, R5
	CBZ  R4, BSSDecode8NEON_ret
	MOVD R2, R6
	ADD  R1, R6, R7
	ADD  R1, R7, R8
	ADD  R1, R8, R9
	ADD  R1, R9, R10
	ADD  R1, R10, R11
	ADD  R1, R11, R12
	ADD  R1, R12, R13

BSSDecode8NEON_loop:
	VLD1.P 16(R6), [V0.B16]
	VLD1.P 16(R7), [V1.B16]
	VLD1.P 16(R8), [V2.B16]
	VLD1.P 16(R9), [V3.B16]
	VLD1.P 16(R10), [V4.B16]
	VLD1.P 16(R11), [V5.B16]
	VLD1.P 16(R12), [V6.B16]
	VLD1.P 16(R13), [V7.B16]
	VZIP1 V1.B16, V0.B16, V16.B16
	VZIP1 V3.B16, V2.B16, V17.B16
	VZIP1 V5.B16, V4.B16, V18.B16
	VZIP1 V7.B16, V6.B16, V19.B16
	VZIP2 V1.B16, V0.B16, V20.B16
	VZIP2 V3.B16, V2.B16, V21.B16
	VZIP2 V5.B16, V4.B16, V22.B16
	VZIP2 V7.B16, V6.B16, V23.B16
	VST4.P [V16.H8, V17.H8, V18.H8, V19.H8], 64(R0)
	VST4.P [V20.H8, V21.H8, V22.H8, V23.H8], 64(R0)
	SUB  $1, R4, R4
	CBNZ R4, BSSDecode8NEON_loop

BSSDecode8NEON_ret:
	MOVD R5, ret+48(FP)
	RET

// func BSSEncode2NEON(dst, src []byte) int
TEXT ·BSSEncode2NEON(SB), NOSPLIT, $0-56
	MOVD dst_base+0(FP), R0
	MOVD dst_len+8(FP), R1
	MOVD src_base+24(FP), R2
	MOVD src_len+32(FP), R3
	CMP  R1, R3
	CSEL LT, R3, R1, R1
	LSR  $1, R1, R1
	LSR  $4, R1, R4
	LSL  $4, R4, R5
	CBZ  R4, BSSEncode2NEON_ret
	MOVD R0, R6
	MOVD R2, R0
	ADD  R1, R6, R7

BSSEncode2NEON_loop:
	VLD2.P 32(R0), [V0.B16, V1.B16]
	VST1.P [V0.B16], 16(R6)
	VST1.P [V1.B16], 16(R7)
	SUB  $1, R4, R4
	CBNZ R4, BSSEncode2NEON_loop

BSSEncode2NEON_ret:
	MOVD R5, ret+48(FP)
	RET

// func BSSEncode4NEON(dst, src []byte) int
TEXT ·BSSEncode4NEON(SB), NOSPLIT, $0-56
	MOVD dst_base+0(FP), R0
	MOVD dst_len+8(FP), R1
	MOVD src_base+24(FP), R2
	MOVD src_len+32(FP), R3
	CMP  R1, R3
	CSEL LT, R3, R1, R1
	LSR  $2, R1, R1
	LSR  $4, R1, R4
	LSL  $4, R4, R5
	CBZ  R4, BSSEncode4NEON_ret
	MOVD R0, R6
	MOVD R2, R0
	ADD  R1, R6, R7
	ADD  R1, R7, R8
	ADD  R1, R8, R9

BSSEncode4NEON_loop:
	VLD4.P 64(R0), [V0.B16, V1.B16, V2.B16, V3.B16]
	VST1.P [V0.B16], 16(R6)
	VST1.P [V1.B16], 16(R7)
	VST1.P [V2.B16], 16(R8)
	VST1.P [V3.B16], 16(R9)
	SUB  $1, R4, R4
	CBNZ R4, BSSEncode4NEON_loop

BSSEncode4NEON_ret:
	MOVD R5, ret+48(FP)
	RET

// func BSSEncode8NEON(dst, src []byte) int
TEXT ·BSSEncode8NEON(SB), NOSPLIT, $0-56
	MOVD dst_base+0(FP), R0
	MOVD dst_len+8(FP), R1
	MOVD src_base+24(FP), R2
	MOVD src_len+32(FP), R3
	CMP  R1, R3
	CSEL LT, R3, R1, R1
	LSR  $3, R1, R1
	LSR  $4, R1, R4
	LSL  $4, R4, R5
	CBZ  R4, BSSEncode8NEON_ret
	MOVD R0, R6
	MOVD R2, R0
	ADD  R1, R6, R7
	ADD  R1, R7, R8
	ADD  R1, R8, R9
	ADD  R1, R9, R10
	ADD  R1, R10, R11
	ADD  R1, R11, R12
	ADD  R1, R12, R13

BSSEncode8NEON_loop:
	VLD4.P 64(R0), [V0.H8, V1.H8, V2.H8, V3.H8]
	VLD4.P 64(R0), [V4.H8, V5.H8, V6.H8, V7.H8]
	VUZP1 V4.B16, V0.B16, V16.B16
	VUZP2 V4.B16, V0.B16, V17.B16
	VUZP1 V5.B16, V1.B16, V18.B16
	VUZP2 V5.B16, V1.B16, V19.B16
	VUZP1 V6.B16, V2.B16, V20.B16
	VUZP2 V6.B16, V2.B16, V21.B16
	VUZP1 V7.B16, V3.B16, V22.B16
	VUZP2 V7.B16, V3.B16, V23.B16
	VST1.P [V16.B16], 16(R6)
	VST1.P [V17.B16], 16(R7)
	VST1.P [V18.B16], 16(R8)
	VST1.P [V19.B16], 16(R9)
	VST1.P [V20.B16], 16(R10)
	VST1.P [V21.B16], 16(R11)
	VST1.P [V22.B16], 16(R12)
	VST1.P [V23.B16], 16(R13)
	SUB  $1, R4, R4
	CBNZ R4, BSSEncode8NEON_loop

BSSEncode8NEON_ret:
	MOVD R5, ret+48(FP)
	RET
