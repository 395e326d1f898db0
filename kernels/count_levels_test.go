package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestCountLevelsAtLeast(t *testing.T) {
	r := rand.New(rand.NewPCG(91, 92))
	for _, im := range countAtLeast16Impls {
		t.Run(im.name, func(t *testing.T) {
			for _, n := range append(testLengths(t), countChunk-1, countChunk, countChunk+1, 3*countChunk+33) {
				levels := make([]int16, n+1)
				for i := range levels {
					switch r.IntN(8) {
					case 0:
						levels[i] = int16(r.Uint32()) // any value, negative ones too
					default:
						levels[i] = int16(r.IntN(4))
					}
				}
				levels = levels[1:] // unaligned
				for _, th := range []int16{-32768, -1, 0, 1, 3, 4, 32767} {
					want := 0
					for _, l := range levels {
						if l >= th {
							want++
						}
					}
					if got := im.fn(levels, th); got != want {
						t.Fatalf("n=%d, t=%d: %d, want %d", n, th, got, want)
					}
				}
			}
			levels := make([]int16, 5000)
			if a := testing.AllocsPerRun(10, func() { im.fn(levels, 1) }); a != 0 {
				t.Fatalf("%v allocations", a)
			}
		})
	}
	if got := CountLevelsAtLeast([]int16{0, 1, 2, 3}, 2); got != 2 {
		t.Fatalf("CountLevelsAtLeast: %d", got)
	}
}

func BenchmarkCountLevelsAtLeast(b *testing.B) {
	levels := make([]int16, 4096)
	r := rand.New(rand.NewPCG(93, 94))
	for i := range levels {
		levels[i] = int16(r.IntN(4))
	}
	for _, im := range countAtLeast16Impls {
		b.Run(fmt.Sprintf("impl=%s", im.name), func(b *testing.B) {
			b.SetBytes(int64(2 * len(levels)))
			b.ReportAllocs()
			for b.Loop() {
				im.fn(levels, 3)
			}
			b.ReportMetric(float64(b.N*len(levels))/b.Elapsed().Seconds(), "values/s")
		})
	}
}
