//go:build !purego

package asm

// BloomInsertNEON inserts every hash of hashes into the split-block filter
// words (len(words)/8 blocks of eight words). len(words)/8 must be below
// 2^32; with no whole block it does nothing. Two Q registers hold a block;
// MUL and USHL on 4S lanes, which Go's assembler does not name, are
// spelled as WORDs. There is no check kernel: on amd64 a vector check
// measured no faster than the scalar one, which stops at the first
// missing bit.
//
//go:noescape
func BloomInsertNEON(words []uint32, hashes []uint64)
