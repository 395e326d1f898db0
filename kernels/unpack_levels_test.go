package kernels

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/quiverio/quiver/internal/arrowmem"
)

// TestUnpackLevels checks the level unpacker against the generic one for
// the widths levels have, at every length around the table steps, from
// unaligned sources.
func TestUnpackLevels(t *testing.T) {
	r := rand.New(rand.NewPCG(95, 96))
	for w := uint(0); w <= 16; w++ {
		for _, n := range testLengths(t) {
			src := randBytes(r, (n*int(w)+7)/8+1)[1:]
			want := make([]int16, n)
			unpackGeneric(want, src, w)
			got := make([]int16, n+1)
			got[n] = -7
			unpackLevels(got[:n], src, w)
			if !slices.Equal(got[:n], want) || got[n] != -7 {
				t.Fatalf("width %d, n=%d: levels differ", w, n)
			}
		}
	}
}

func BenchmarkUnpackLevels(b *testing.B) {
	r := rand.New(rand.NewPCG(97, 98))
	for _, w := range []uint{1, 2} {
		for _, n := range []int{24, 504} {
			src := randBytes(r, (n*int(w)+7)/8)
			dst := make([]int16, n)
			for _, im := range []impl[func([]int16, []byte, uint)]{{"levels", unpackLevels}, {"generic", unpackGeneric[int16]}} {
				b.Run(fmt.Sprintf("width=%d/n=%d/impl=%s", w, n, im.name), func(b *testing.B) {
					b.SetBytes(int64(2 * n))
					b.ReportAllocs()
					for b.Loop() {
						im.fn(dst, src, w)
					}
					b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "values/s")
				})
			}
		}
	}
}

// TestAnyLaneAtLeast checks the four-lane bound check against a plain
// comparison, for lanes with and without their top bit, at every tail.
func TestAnyLaneAtLeast(t *testing.T) {
	r := rand.New(rand.NewPCG(99, 100))
	for range 20000 {
		s := make([]uint16, r.IntN(11))
		for i := range s {
			switch r.IntN(3) {
			case 0:
				s[i] = uint16(r.Uint32())
			default:
				s[i] = uint16(r.IntN(5))
			}
		}
		bound := uint64(1 + r.IntN(5))
		if r.IntN(4) == 0 {
			bound = uint64(1 + r.IntN(0x8000))
		}
		want := false
		for _, v := range s {
			want = want || uint64(v) >= bound
		}
		if got := anyLaneAtLeast(arrowmem.Bytes(s), bound); got != want {
			t.Fatalf("anyLaneAtLeast(%v, %d) = %v", s, bound, got)
		}
	}
}
