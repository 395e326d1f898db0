package colwrite

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchValues returns n values like the bench strings dataset's: URLs of
// a few hosts, long user agents, and short codes, as offsets and data.
func benchValues(kind string, n int) ([]int32, []byte) {
	rng := rand.New(rand.NewPCG(1, 2))
	offs := []int32{0}
	var data []byte
	for i := range n {
		switch kind {
		case "url":
			data = fmt.Appendf(data, "https://host-%d.example.com/path/%d/x?id=%d", rng.IntN(40), rng.IntN(100), rng.IntN(1_000_000))
		case "agent":
			data = fmt.Appendf(data, "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:%d.0) Gecko/20100101 QuiverBench/%d.%d (words here)", 100+rng.IntN(24), i%7, rng.IntN(3))
		case "code":
			data = append(data, byte('A'+rng.IntN(8)), byte('A'+rng.IntN(26)))
		}
		offs = append(offs, int32(len(data)))
	}
	return offs, data
}

var benchN = 1 << 20

func BenchmarkScanUnsigned(b *testing.B) {
	for _, kind := range []string{"url", "agent", "code"} {
		offs, data := benchValues(kind, benchN)
		for _, plain := range []bool{false, true} {
			b.Run(fmt.Sprintf("values=%s/plain=%v", kind, plain), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				var dst []byte
				for b.Loop() {
					for i := 0; i+1 < len(offs); i += miniBatch {
						dst, _ = scanUnsigned(dst[:0], plain, offs[i:min(i+miniBatch+1, len(offs))], data)
					}
				}
			})
		}
		b.Run(fmt.Sprintf("values=%s/copy", kind), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			dst := make([]byte, 0, len(data))
			for b.Loop() {
				for i := 0; i+1 < len(offs); i += miniBatch {
					o := offs[i:min(i+miniBatch+1, len(offs))]
					dst = append(dst[:0], data[o[0]:o[len(o)-1]]...)
				}
			}
		})
	}
}
