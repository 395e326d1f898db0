package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// Split-block bloom filters (the Parquet BLOCK algorithm): a hash's upper
// 32 bits pick a 256-bit block, ((h>>32)*blocks)>>32, and its lower 32 bits
// one bit in each of the block's eight words, bit (key*salt[i])>>27 of word
// i. One YMM register holds a whole block, so inserting a hash costs one
// broadcast, one VPMULLD, one VPSRLD and one VPSLLVD to build its mask,
// then a VPOR and a store. There is no check kernel: a VPTEST version
// measured no faster than the scalar check, which for the absent values
// that pruning looks for stops at the first missing bit (pageindex's
// Bloom.Check records the numbers).

// bloomSalt is the spec's eight odd multipliers, one per word of a block.
var bloomSalt = [8]uint32{
	0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
	0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31,
}

func bloom() {
	salt := GLOBL("bloomSalt", RODATA|NOPTR)
	for i, s := range bloomSalt {
		DATA(4*i, U32(s))
	}
	bloomInsert(salt)
}

// bloomInsert emits BloomInsertAVX2.
func bloomInsert(salt Mem) {
	TEXT("BloomInsertAVX2", NOSPLIT, "func(words []uint32, hashes []uint64)")
	Pragma("noescape")
	Doc("BloomInsertAVX2 inserts every hash of hashes into the split-block filter",
		"words (len(words)/8 blocks of eight words). len(words)/8 must be below",
		"2^32; with no whole block it does nothing.")
	words := Load(Param("words").Base(), GP64())
	blocks := Load(Param("words").Len(), GP64())
	SHRQ(Imm(3), blocks)
	hashes := Load(Param("hashes").Base(), GP64())
	n := Load(Param("hashes").Len(), GP64())
	i := GP64()
	XORQ(i, i)
	TESTQ(blocks, blocks)
	JZ(LabelRef("ret"))

	saltY, one := YMM(), YMM()
	VMOVDQU(salt, saltY)
	Comment("one = eight 32-bit ones: all-ones shifted right by 31.")
	VPCMPEQD(one, one, one)
	VPSRLD(Imm(31), one, one)

	Label("loop")
	CMPQ(i, n)
	JAE(LabelRef("ret"))
	h := GP64()
	MOVQ(Mem{Base: hashes, Index: i, Scale: 8}, h)
	mask := YMM()
	kx := XMM()
	MOVQ(h, kx)
	VPBROADCASTD(kx, mask)
	VPMULLD(saltY, mask, mask)
	VPSRLD(Imm(27), mask, mask)
	VPSLLVD(mask, one, mask)
	Comment("The block's byte offset: ((h>>32)*blocks)>>32 blocks of 32 bytes.")
	SHRQ(Imm(32), h)
	IMULQ(blocks, h)
	SHRQ(Imm(32), h)
	SHLQ(Imm(5), h)
	blk := YMM()
	VMOVDQU(Mem{Base: words, Index: h, Scale: 1}, blk)
	VPOR(mask, blk, blk)
	VMOVDQU(blk, Mem{Base: words, Index: h, Scale: 1})
	INCQ(i)
	JMP(LabelRef("loop"))

	Label("ret")
	VZEROUPPER()
	RET()
}
