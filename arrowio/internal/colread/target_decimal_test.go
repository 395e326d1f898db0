package colread

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestBigEndianToDecimal checks the FIXED_LEN_BYTE_ARRAY decimal
// conversion against putDecimal, value by value, for every width a
// decimal128 or decimal256 takes from, at lengths that end the word loop
// early and late, with sources cut right after their last value.
func TestBigEndianToDecimal(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, to := range []int{16, 32} {
		for from := 1; from <= to; from++ {
			conv := bigEndianToDecimal(from, to)
			for _, n := range []int{0, 1, 2, 3, 7, 8, 9, 33, 100} {
				src := make([]byte, n*from)
				for i := range src {
					src[i] = byte(r.Uint32())
				}
				got := make([]byte, n*to)
				conv(got, src, n)
				want := make([]byte, n*to)
				for i := range n {
					if err := putDecimal(want[i*to:i*to+to], src[i*from:i*from+from]); err != nil {
						t.Fatal(err)
					}
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("from %d to %d, %d values: %x, want %x", from, to, n, got, want)
				}
			}
		}
	}
}

// BenchmarkBigEndianToDecimal measures the conversion of 4,096 decimals of
// 5 and 8 bytes (precisions 12 and 18) to decimal128, in cache.
func BenchmarkBigEndianToDecimal(b *testing.B) {
	const n = 4096
	for _, from := range []int{5, 8} {
		src := make([]byte, n*from)
		for i := range src {
			src[i] = byte(i * 7)
		}
		dst := make([]byte, 16*n)
		conv := bigEndianToDecimal(from, 16)
		b.Run(map[int]string{5: "from=5", 8: "from=8"}[from], func(b *testing.B) {
			b.SetBytes(16 * n)
			for b.Loop() {
				conv(dst, src, n)
			}
		})
	}
}
