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
	counts := []int{0, 1, 2, 3, 7, 8, 9, 31, 100, 1000}
	for _, blocks := range bloomTestBlocks {
		for _, n := range counts {
			hashes := make([]uint64, n)
			for i := range hashes {
				hashes[i] = r.Uint64()
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
			want := make([]uint32, 8*blocks)
			bloomInsertRef(want, hashes)
			// A word past the last whole block stays untouched.
			for _, in := range bloomInsertImpls {
				got := make([]uint32, 8*blocks+1)
				got[8*blocks] = 0xdeadbeef
				in.fn(got[:8*blocks], hashes)
				if !slices.Equal(got[:8*blocks], want) || got[8*blocks] != 0xdeadbeef {
					t.Fatalf("%s insert: %d blocks, %d hashes: filter differs from the reference", in.name, blocks, n)
				}
			}
			for _, ch := range bloomCheckImpls {
				out := make([]bool, len(probes)+1)
				out[len(probes)] = true
				hits := ch.fn(want, probes, out[:len(probes)])
				wantHits := 0
				for i, h := range probes {
					w := bloomCheckRef(want, h)
					if out[i] != w {
						t.Fatalf("%s check: %d blocks, hash %#x: got %v, want %v", ch.name, blocks, h, out[i], w)
					}
					if w {
						wantHits++
					}
				}
				if hits != wantHits || !out[len(probes)] {
					t.Fatalf("%s check: %d blocks: %d hits, want %d (canary %v)", ch.name, blocks, hits, wantHits, out[len(probes)])
				}
				for i := range n {
					if !out[i] {
						t.Fatalf("%s check: %d blocks: inserted hash %#x reported absent", ch.name, blocks, probes[i])
					}
				}
			}
		}
	}
}

func TestBloomEntries(t *testing.T) {
	hashes := []uint64{1, 2 << 40, 3<<60 | 7}
	// Fewer than eight words is no filter: nothing is set, nothing found.
	short := make([]uint32, 7)
	BloomInsert(short, hashes)
	out := []bool{true, true, true}
	if BloomCheck(short, hashes, out) != 0 || slices.Contains(out, true) || slices.ContainsFunc(short, func(w uint32) bool { return w != 0 }) {
		t.Errorf("a filter of 7 words: %v %v", short, out)
	}
	words := make([]uint32, 16)
	BloomInsert(words, hashes)
	if BloomCheck(words, hashes, out) != 3 || slices.Contains(out, false) {
		t.Errorf("inserted hashes reported absent: %v", out)
	}
	// The caller's buffers stay on its stack: the entries call the
	// kernels directly, not through a function variable.
	if a := testing.AllocsPerRun(100, func() {
		hs := [2]uint64{5, 6 << 33}
		var res [2]bool
		BloomInsert(words, hs[:])
		if BloomCheck(words, hs[:], res[:]) != 2 {
			t.Error("inserted hashes reported absent")
		}
	}); a != 0 {
		t.Errorf("%v allocations per insert and check, want 0", a)
	}
}

// BenchmarkBloom times every implementation inserting and checking a batch
// of hashes (half of the checked ones inserted) against a filter that fits
// in L1 (1 KiB) and ones of 1 and 16 MiB, and single-hash calls: through
// the dispatched implementations (batch=1) and, as impl=one, through
// BloomInsertOne and BloomCheckOne.
func BenchmarkBloom(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	hashes := make([]uint64, 4096)
	for i := range hashes {
		hashes[i] = r.Uint64()
	}
	out := make([]bool, len(hashes))
	for _, size := range []int{1 << 10, 1 << 20, 16 << 20} {
		words := make([]uint32, size/4)
		bloomInsertGeneric(words, hashes[:len(hashes)/2])
		b.Run(fmt.Sprintf("op=insert/size=%d/batch=1/impl=one", size), func(b *testing.B) {
			w := slices.Clone(words)
			b.SetBytes(int64(8 * len(hashes)))
			b.ReportAllocs()
			for b.Loop() {
				for _, h := range hashes {
					BloomInsertOne(w, h)
				}
			}
		})
		b.Run(fmt.Sprintf("op=check/size=%d/batch=1/impl=one", size), func(b *testing.B) {
			b.SetBytes(int64(8 * len(hashes)))
			b.ReportAllocs()
			for b.Loop() {
				for k, h := range hashes {
					out[k] = BloomCheckOne(words, h)
				}
			}
		})
		for _, batch := range []int{1, 8, len(hashes)} {
			for _, in := range bloomInsertImpls {
				b.Run(fmt.Sprintf("op=insert/size=%d/batch=%d/impl=%s", size, batch, in.name), func(b *testing.B) {
					w := slices.Clone(words)
					b.SetBytes(int64(8 * len(hashes)))
					b.ReportAllocs()
					for b.Loop() {
						for k := 0; k < len(hashes); k += batch {
							in.fn(w, hashes[k:k+batch])
						}
					}
				})
			}
			for _, ch := range bloomCheckImpls {
				b.Run(fmt.Sprintf("op=check/size=%d/batch=%d/impl=%s", size, batch, ch.name), func(b *testing.B) {
					b.SetBytes(int64(8 * len(hashes)))
					b.ReportAllocs()
					for b.Loop() {
						for k := 0; k < len(hashes); k += batch {
							ch.fn(words, hashes[k:k+batch], out[k:k+batch])
						}
					}
				})
			}
		}
	}
}
