package colwrite

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCompactMatchesBitByBit checks compact against taking the valid
// values one by one, at every bit offset and many lengths, with bitmaps
// dense (whole bytes valid) and sparse.
func TestCompactMatchesBitByBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	var dst []int64
	for round := range 2000 {
		n, off := rng.IntN(100), rng.IntN(16)
		src := make([]int64, n)
		for i := range src {
			src[i] = rng.Int64()
		}
		valid := make([]byte, (off+n+7)/8)
		dense := round%2 == 0
		for b := range off + n {
			if dense && rng.IntN(30) != 0 || !dense && rng.IntN(2) == 0 {
				valid[b>>3] |= 1 << (b & 7)
			}
		}
		var want []int64
		for i, v := range src {
			if b := off + i; valid[b>>3]>>(b&7)&1 != 0 {
				want = append(want, v)
			}
		}
		dst = compact(dst, src, valid, off)
		if !slices.Equal(dst, want) {
			t.Fatalf("round %d (n %d, off %d): %v, want %v", round, n, off, dst, want)
		}
	}
}
