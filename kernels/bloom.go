package kernels

// BloomInsert inserts every hash of hashes into a split-block bloom filter
// (the Parquet BLOCK algorithm) held in blocks: 256-bit blocks of eight
// 32-bit words, back to back. A hash's upper 32 bits pick the block,
// ((h>>32)*n)>>32 of n = len(blocks)/8, and its lower 32 bits one bit of
// each of the block's words, bit (key*salt[i])>>27 of word i. Words past
// the last whole block are never touched, and with no whole block (or
// 2^32 blocks or more, beyond any filter the spec allows) it does
// nothing. The AVX2 kernel measured 44-64% faster than the scalar loop
// for a single hash per call and 82-85% faster for batches of 8 and 4096
// (filters of 1 KiB, 1 MiB and 16 MiB; benchstat, 8 runs).
func BloomInsert(blocks []uint32, hashes []uint64) {
	switch blocks = bloomWords(blocks); {
	case blocks == nil:
	case bloomSIMD:
		bloomInsertSIMD(blocks, hashes)
	default:
		bloomInsertGeneric(blocks, hashes)
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
// bloomSIMD when the CPU has what bloomInsertSIMD uses. BloomInsert
// branches on it and calls it directly rather than through a function
// variable as the other kernels do: an indirect call makes the compiler
// move the caller's hashes to the heap. bloomInsertImpls holds every
// implementation usable on this CPU, for tests and benchmarks, the
// portable twin first.
var bloomInsertImpls = []impl[func([]uint32, []uint64)]{{"go", bloomInsertGeneric}}

// BloomCheckOne reports whether the filter in blocks may hold h, false
// meaning it surely does not, stopping at the first missing bit. blocks
// must hold at least one whole block and fewer than 2^32;
// anything else is a programmer error and panics. There is no batched or vector check:
// an AVX2 one (VPTEST of the hash's mask against its block, 4096 hashes
// per call) was 60-78% faster than this loop when half the hashes were
// present, but checking = and IN literals that are absent, the case
// pruning looks for, it measured 4.5 -> 12.3 ns for one literal, no
// difference for 4 to 64 and -12% for 1000 (benchstat, 8 interleaved
// runs): this loop usually stops at the first word.
func BloomCheckOne(blocks []uint32, h uint64) bool {
	blk, key := bloomBlock(blocks, h), uint32(h)
	for i, s := range bloomSalt {
		if blk[i]&(1<<((key*s)>>27)) == 0 {
			return false
		}
	}
	return true
}
