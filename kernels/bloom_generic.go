package kernels

// bloomBlockWords is the number of 32-bit words in one 256-bit block.
const bloomBlockWords = 8

// bloomSalt holds the spec's eight odd multipliers, one per word of a
// block.
var bloomSalt = [bloomBlockWords]uint32{
	0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
	0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31,
}

// bloomBlock returns the block of words that h maps to; words holds
// n = len(words)/8 blocks, 0 < n < 2^32.
func bloomBlock(words []uint32, h uint64) *[bloomBlockWords]uint32 {
	n := uint64(len(words) / bloomBlockWords)
	i := ((h >> 32) * n) >> 32 * bloomBlockWords
	return (*[bloomBlockWords]uint32)(words[i : i+bloomBlockWords])
}

// bloomInsertGeneric is the portable twin of the block inserts.
func bloomInsertGeneric(words []uint32, hashes []uint64) {
	for _, h := range hashes {
		blk, key := bloomBlock(words, h), uint32(h)
		for i, s := range bloomSalt {
			blk[i] |= 1 << ((key * s) >> 27)
		}
	}
}
