//go:build !purego

#include "textflag.h"

// The spec's eight odd multipliers, one per word of a block.
DATA bloomSaltNEON<>+0(SB)/4, $0x47b6137b
DATA bloomSaltNEON<>+4(SB)/4, $0x44974d91
DATA bloomSaltNEON<>+8(SB)/4, $0x8824ad5b
DATA bloomSaltNEON<>+12(SB)/4, $0xa2b7289d
DATA bloomSaltNEON<>+16(SB)/4, $0x705495c7
DATA bloomSaltNEON<>+20(SB)/4, $0x2df1424b
DATA bloomSaltNEON<>+24(SB)/4, $0x9efc4947
DATA bloomSaltNEON<>+28(SB)/4, $0x5c6bfb31
GLOBL bloomSaltNEON<>(SB), RODATA|NOPTR, $32

// Registers: R0 words, R1 blocks, R2 hashes, R3 count, R4 index, R5 hash
// then block address; V0, V1 salt; V2 the key in every
// lane; V3, V4 the mask; V5, V6 the block; V7 four ones.
//
// MUL Vd.4S, Vn.4S, Vm.4S is 0x4ea09c00|m<<16|n<<5|d;
// USHL Vd.4S, Vn.4S, Vm.4S is 0x6ea04400|m<<16|n<<5|d.

// BLOOM_MASK builds the mask of the hash in R5 in V3 and V4, and leaves
// the address of its block in R5.
#define BLOOM_MASK \
	VDUP   R5, V2.S4                                     \
	WORD   $0x4ea09c43 /* MUL V3.4S, V2.4S, V0.4S */     \
	WORD   $0x4ea19c44 /* MUL V4.4S, V2.4S, V1.4S */     \
	VUSHR  $27, V3.S4, V3.S4                             \
	VUSHR  $27, V4.S4, V4.S4                             \
	WORD   $0x6ea344e3 /* USHL V3.4S, V7.4S, V3.4S */    \
	WORD   $0x6ea444e4 /* USHL V4.4S, V7.4S, V4.4S */    \
	LSR    $32, R5, R5                                   \
	MUL    R1, R5, R5                                    \
	LSR    $32, R5, R5                                   \
	ADD    R5<<5, R0, R5

// func BloomInsertNEON(words []uint32, hashes []uint64)
TEXT ·BloomInsertNEON(SB), NOSPLIT, $0-48
	MOVD words_base+0(FP), R0
	MOVD words_len+8(FP), R1
	LSR  $3, R1, R1
	MOVD hashes_base+24(FP), R2
	MOVD hashes_len+32(FP), R3
	CBZ  R1, insertDone
	MOVD $bloomSaltNEON<>(SB), R6
	VLD1 (R6), [V0.S4, V1.S4]
	MOVW $1, R6
	VDUP R6, V7.S4
	MOVD $0, R4

insertLoop:
	CMP  R3, R4
	BHS  insertDone
	MOVD (R2)(R4<<3), R5
	BLOOM_MASK
	VLD1 (R5), [V5.S4, V6.S4]
	VORR V3.B16, V5.B16, V5.B16
	VORR V4.B16, V6.B16, V6.B16
	VST1 [V5.S4, V6.S4], (R5)
	ADD  $1, R4, R4
	B    insertLoop

insertDone:
	RET
