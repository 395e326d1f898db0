package asm

import (
	"slices"
	"testing"
)

type bloomInsertFunc = func(words []uint32, hashes []uint64)

var bloomInsertImpls []impl[bloomInsertFunc]

// bloomSetBits is the plainest split-block insert: for each hash, block
// ((h>>32)*blocks)>>32 gets bit (key*salt)>>27 of each word set; with no
// whole block nothing is.
func bloomSetBits(words []uint32, hashes []uint64) {
	salt := [8]uint32{0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31}
	blocks := uint64(len(words) / 8)
	if blocks == 0 {
		return
	}
	for _, h := range hashes {
		first := 8 * (((h >> 32) * blocks) >> 32)
		for i, s := range salt {
			words[first+uint64(i)] |= 1 << ((uint32(h) * s) >> 27)
		}
	}
}

// TestBloomInsert inserts random hashes, and the extremes that pick the
// first and the last block, into filters that end at a guard page, so an
// insert that touches a word past the filter faults.
func TestBloomInsert(t *testing.T) {
	forEach(t, bloomInsertImpls, func(t *testing.T, fn bloomInsertFunc) {
		r := newRand()
		for _, blocks := range []int{0, 1, 2, 3, 5, 8, 64, 1000} {
			for _, n := range testLengths() {
				hashes := []uint64{0, ^uint64(0), 0xffffffff << 32}
				for range n {
					hashes = append(hashes, r.Uint64())
				}
				want := make([]uint32, 8*blocks)
				bloomSetBits(want, hashes)
				// A ninth word past whole blocks is never touched: the
				// guard follows it.
				words := guardedUint32(t, 8*blocks+1)
				clear(words)
				fn(words, hashes)
				if !slices.Equal(words[:8*blocks], want) || words[8*blocks] != 0 {
					t.Fatalf("%d blocks, %d hashes: filter differs from the reference", blocks, len(hashes))
				}
			}
		}
	})
}
