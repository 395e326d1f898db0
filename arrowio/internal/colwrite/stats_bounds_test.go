package colwrite

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestStatsBoundsMatchPairwise checks the prefix-key loops of addOffsets
// and addFixed against adding the values one by one: short values, values
// that share long prefixes (in half the rounds every value starts with one
// of up to 24 bytes, as URLs and keys do), values alike in the 8 bytes a
// key holds, embedded and trailing zero
// bytes, and decimals of every width from 1 to 17 bytes.
func TestStatsBoundsMatchPairwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	value := func(n int) []byte { return testBytes(rng, n) }
	for round := range 400 {
		count := 1 + rng.IntN(40)
		// Byte arrays with offsets, unsigned order.
		var data []byte
		offs := []int32{0}
		var want bytesStats
		var common []byte
		if round%2 == 1 {
			common = value(rng.IntN(25))
		}
		// In a quarter of the rounds values differ only in their first
		// byte after the common prefix, where the bounds part, and in
		// their 9th and 10th, past the 8 of a key.
		var stem []byte
		if round%4 == 3 {
			stem = value(7)
		}
		for range count {
			v := append(bytes.Clone(common), value(rng.IntN(12))...)
			if stem != nil {
				v = append(append(append(bytes.Clone(common), value(1)...), stem...), value(1+rng.IntN(2))...)
			}
			if rng.IntN(3) == 0 && len(data) > 0 { // share a prefix
				v = append(bytes.Clone(data[:min(len(data), rng.IntN(10))]), v...)
			}
			data = append(data, v...)
			offs = append(offs, int32(len(data)))
			want.add(v, orderUnsigned)
		}
		var got bytesStats
		addOffsets(&got, offs, data, orderUnsigned)
		if !bytes.Equal(got.lo, want.lo) || !bytes.Equal(got.hi, want.hi) {
			t.Fatalf("round %d: byte arrays: bounds %x..%x, want %x..%x", round, got.lo, got.hi, want.lo, want.hi)
		}
		// Fixed width, unsigned and decimal order.
		width := 1 + round%17
		fixed := make([]byte, 0, count*width)
		for range count {
			fixed = append(fixed, value(width)...)
		}
		for _, order := range []statOrder{orderUnsigned, orderDecimal} {
			var want, got bytesStats
			for i := 0; i < len(fixed); i += width {
				want.add(fixed[i:i+width], order)
			}
			got.addFixed(fixed, width, order)
			if !bytes.Equal(got.lo, want.lo) || !bytes.Equal(got.hi, want.hi) {
				t.Fatalf("round %d: width %d order %d: bounds %x..%x, want %x..%x", round, width, order, got.lo, got.hi, want.lo, want.hi)
			}
		}
	}
}
