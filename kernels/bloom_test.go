package kernels

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// bloomInsertRef sets the bits of each hash one at a time, straight from
// the spec's description.
func bloomInsertRef(words []uint32, hashes []uint64) {
	n := uint64(len(words) / 8)
	for _, h := range hashes {
		b := ((h >> 32) * n) >> 32
		for i := range 8 {
			words[b*8+uint64(i)] |= 1 << ((uint32(h) * bloomSalt[i]) >> 27)
		}
	}
}

// bloomCheckRef tests the bits of a hash one at a time.
func bloomCheckRef(words []uint32, h uint64) bool {
	n := uint64(len(words) / 8)
	b := ((h >> 32) * n) >> 32
	for i := range 8 {
		if words[b*8+uint64(i)]&(1<<((uint32(h)*bloomSalt[i])>>27)) == 0 {
			return false
		}
	}
	return true
}

// bloomTestBlocks are the filter sizes the tests try, in blocks: the
// smallest filter of one block, small powers of two, and a few that are
// not powers of two (the kernels do not need one).
var bloomTestBlocks = []int{1, 2, 3, 4, 7, 8, 64, 1000, 1 << 12}

func TestBloomImpls(t *testing.T) {
	r := rand.New(rand.NewPCG(0xb100, 0xf11e))
	for _, blocks := range bloomTestBlocks {
		for _, n := range []int{0, 1, 2, 3, 7, 8, 9, 31, 100, 1000} {
			hashes := make([]uint64, n)
			for i := range hashes {
				hashes[i] = r.Uint64()
			}
			want := make([]uint32, 8*blocks)
			bloomInsertRef(want, hashes)
			for _, in := range bloomInsertImpls {
				// A word past the last whole block stays untouched.
				got := make([]uint32, 8*blocks+1)
				got[8*blocks] = 0xdeadbeef
				in.fn(got[:8*blocks], hashes)
				if !slices.Equal(got[:8*blocks], want) || got[8*blocks] != 0xdeadbeef {
					t.Fatalf("%s insert: %d blocks, %d hashes: filter differs from the reference", in.name, blocks, n)
				}
			}
			// Probes: the inserted hashes, random ones, and ones that share
			// an inserted hash's block but not its key.
			probes := slices.Clone(hashes)
			for range 2*n + 16 {
				probes = append(probes, r.Uint64())
			}
			for _, h := range hashes {
				probes = append(probes, h^uint64(r.Uint32()|1))
			}
			for i, h := range probes {
				if got, w := BloomCheckOne(want, h), bloomCheckRef(want, h); got != w || (i < n && !got) {
					t.Fatalf("check: %d blocks, hash %#x: got %v, want %v", blocks, h, got, w)
				}
			}
		}
	}
}

func TestBloomInsertEntry(t *testing.T) {
	hashes := []uint64{1, 2 << 40, 3<<60 | 7}
	// Fewer than eight words is no filter: nothing is set.
	short := make([]uint32, 7)
	BloomInsert(short, hashes)
	if slices.ContainsFunc(short, func(w uint32) bool { return w != 0 }) {
		t.Errorf("a filter of 7 words was written: %v", short)
	}
	// Words past the last whole block are left alone.
	words := make([]uint32, 17)
	BloomInsert(words, hashes)
	want := make([]uint32, 16)
	bloomInsertRef(want, hashes)
	if !slices.Equal(words[:16], want) || words[16] != 0 {
		t.Errorf("filter of 17 words: %v, want %v and a zero", words, want)
	}
	// The caller's hashes stay on its stack: the entry calls the kernel
	// directly, not through a function variable.
	if a := testing.AllocsPerRun(100, func() {
		hs := [2]uint64{5, 6 << 33}
		BloomInsert(words, hs[:])
	}); a != 0 {
		t.Errorf("%v allocations per insert, want 0", a)
	}
}

// BenchmarkBloomInsert times every implementation inserting 4096 hashes
// into a filter that fits in L1 (1 KiB) and ones of 1 and 16 MiB, in
// batches of 1, 8 and 4096.
func BenchmarkBloomInsert(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	hashes := make([]uint64, 4096)
	for i := range hashes {
		hashes[i] = r.Uint64()
	}
	for _, size := range []int{1 << 10, 1 << 20, 16 << 20} {
		words := make([]uint32, size/4)
		for _, batch := range []int{1, 8, len(hashes)} {
			for _, in := range bloomInsertImpls {
				b.Run(fmt.Sprintf("size=%d/batch=%d/impl=%s", size, batch, in.name), func(b *testing.B) {
					b.SetBytes(int64(8 * len(hashes)))
					b.ReportAllocs()
					for b.Loop() {
						for k := 0; k < len(hashes); k += batch {
							in.fn(words, hashes[k:k+batch])
						}
					}
				})
			}
		}
	}
}
