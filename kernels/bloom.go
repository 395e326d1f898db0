package kernels

// BloomInsert inserts every hash of hashes into a split-block bloom filter
// (the Parquet BLOCK algorithm) held in blocks: 256-bit blocks of eight
// 32-bit words, back to back. A hash's upper 32 bits pick the block,
// ((h>>32)*n)>>32 of n = len(blocks)/8, and its lower 32 bits one bit of
// each of the block's words, bit (key*salt[i])>>27 of word i. Words past
// the last whole block are never touched, and with no whole block (or
// 2^32 blocks or more, beyond any filter the spec allows) it does
// nothing. A batch pays for the dispatch: whole pages of hashes on write.
func BloomInsert(blocks []uint32, hashes []uint64) {
	switch blocks = bloomWords(blocks); {
	case blocks == nil:
	case bloomSIMD:
		bloomInsertSIMD(blocks, hashes)
	default:
		bloomInsertGeneric(blocks, hashes)
	}
}

// BloomCheck sets out[i] to whether the filter in blocks (laid out as for
// [BloomInsert]) may hold hashes[i], false meaning it surely does not, and
// returns how many it set true. out must hold at least len(hashes) values
// (a shorter out is a programmer error and panics). With no whole block
// every out[i] is false.
func BloomCheck(blocks []uint32, hashes []uint64, out []bool) int {
	out = out[:len(hashes)]
	switch blocks = bloomWords(blocks); {
	case blocks == nil:
		clear(out)
		return 0
	case bloomSIMD:
		return bloomCheckSIMD(blocks, hashes, out)
	default:
		return bloomCheckGeneric(blocks, hashes, out)
	}
}

// bloomWords returns the whole blocks of words, or nil when there are
// none or more than the 32-bit block index can reach.
func bloomWords(words []uint32) []uint32 {
	n := uint64(len(words) / bloomBlockWords)
	if n == 0 || n >= 1<<32 {
		return nil
	}
	return words[:n*bloomBlockWords]
}

// The arch files (bloom_amd64.go, bloom_arm64.go, bloom_other.go) set
// bloomSIMD when the CPU has what bloomInsertSIMD and bloomCheckSIMD use.
// The entries branch on it and call them directly rather than through a
// function variable as the other kernels do: an indirect call makes the
// compiler move the caller's hashes and out to the heap, and a caller
// checking a few literals wants them on its stack. The Impls lists hold
// every implementation usable on this CPU, for tests and benchmarks,
// the portable twin first.
var (
	bloomInsertImpls = []impl[func([]uint32, []uint64)]{{"go", bloomInsertGeneric}}
	bloomCheckImpls  = []impl[func([]uint32, []uint64, []bool) int]{{"go", bloomCheckGeneric}}
)

// BloomInsertOne inserts one hash into the filter in blocks (laid out as
// for [BloomInsert]), in plain Go: a single hash does not pay for a
// dispatched call. blocks must hold at least one whole block and fewer
// than 2^32; anything else is a programmer error and panics.
func BloomInsertOne(blocks []uint32, h uint64) {
	blk, key := bloomBlock(blocks, h), uint32(h)
	for i, s := range bloomSalt {
		blk[i] |= 1 << ((key * s) >> 27)
	}
}

// BloomCheckOne reports whether the filter in blocks may hold h, false
// meaning it surely does not, in plain Go and stopping at the first
// missing bit. blocks must be as for [BloomInsertOne].
func BloomCheckOne(blocks []uint32, h uint64) bool {
	blk, key := bloomBlock(blocks, h), uint32(h)
	for i, s := range bloomSalt {
		if blk[i]&(1<<((key*s)>>27)) == 0 {
			return false
		}
	}
	return true
}
