package colwrite

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkFixedDictInsert times a page's worth of int64 values going
// through the dictionary a mini-batch at a time, from 100 to 200,000
// distinct values in random order (short runs, as prices and timestamps
// come), the dictionary starting empty as a chunk's does.
func BenchmarkFixedDictInsert(b *testing.B) {
	const n = 1 << 18
	for _, distinct := range []int{100, 10_000, 200_000} {
		r := rand.New(rand.NewPCG(uint64(distinct), 2))
		keys := make([]uint64, distinct)
		for i := range keys {
			keys[i] = r.Uint64() >> 20
		}
		vals := make([]uint64, n)
		for i := range vals {
			vals[i] = keys[r.IntN(distinct)]
		}
		out := make([]uint32, miniBatch)
		var d fixedDict[uint64]
		b.Run(fmt.Sprintf("distinct=%d", distinct), func(b *testing.B) {
			b.SetBytes(8 * n)
			b.ReportAllocs()
			for b.Loop() {
				d.reset()
				for i := 0; i < n; i += miniBatch {
					d.insert(vals[i:i+miniBatch], out)
				}
			}
			if len(d.values) > distinct || len(d.values) < distinct/2 {
				b.Fatalf("%d values in the dictionary, want %d", len(d.values), distinct)
			}
		})
	}
}
