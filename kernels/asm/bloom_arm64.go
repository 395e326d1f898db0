//go:build !purego

package asm

// BloomInsertNEON inserts every hash of hashes into the split-block filter
// words (len(words)/8 blocks of eight words). len(words)/8 must be below
// 2^32; with no whole block it does nothing. Two Q registers hold a block;
// MUL and USHL on 4S lanes, which Go's assembler does not name, are
// spelled as WORDs.
//
//go:noescape
func BloomInsertNEON(words []uint32, hashes []uint64)

// BloomCheckNEON sets out[i] to whether the split-block filter words
// (len(words)/8 blocks of eight words) may hold hashes[i], for the first
// min(len(hashes), len(out)) hashes, and returns how many it set true.
// len(words)/8 must be below 2^32; with no whole block every out[i] is
// left alone and it returns 0.
//
//go:noescape
func BloomCheckNEON(words []uint32, hashes []uint64, out []bool) int
