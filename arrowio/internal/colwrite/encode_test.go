package colwrite

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/quiverio/quiver/kernels"
)

// indexPatterns returns index sequences that exercise the run choices:
// runs at the start, middle and end, runs that need values lent to a
// partial group, width 0, and random indices.
func indexPatterns(rng *rand.Rand) [][]uint32 {
	rep := func(v uint32, n int) []uint32 {
		s := make([]uint32, n)
		for i := range s {
			s[i] = v
		}
		return s
	}
	cat := func(parts ...[]uint32) []uint32 {
		var s []uint32
		for _, p := range parts {
			s = append(s, p...)
		}
		return s
	}
	pats := [][]uint32{
		nil, {0}, rep(0, 1000), rep(5, 9), {1, 2, 3},
		cat([]uint32{1, 2, 3}, rep(7, 100), []uint32{4, 5}),
		cat(rep(3, 20), []uint32{1}, rep(3, 20)),
		cat([]uint32{9, 8, 7, 6, 5}, rep(1, 12), rep(2, 3), rep(1000, 500)),
	}
	for _, n := range []int{1, 7, 8, 9, 63, 64, 65, 1000, 5000} {
		s := make([]uint32, n)
		for i := range s {
			if rng.IntN(4) == 0 && i > 0 {
				s[i] = s[i-1]
				continue
			}
			s[i] = rng.Uint32N(uint32(1) << rng.IntN(20))
		}
		runs := make([]uint32, 0, n)
		for len(runs) < n {
			runs = append(runs, rep(rng.Uint32N(40), 1+rng.IntN(30))...)
		}
		pats = append(pats, s, runs[:n])
	}
	return pats
}

func TestAppendIndicesRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for k, idx := range indexPatterns(rng) {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			enc, err := appendIndices([]byte{0xaa}, idx)
			if err != nil {
				t.Fatal(err)
			}
			if enc[0] != 0xaa {
				t.Fatal("appendIndices overwrote dst")
			}
			var hi uint32
			for _, v := range idx {
				hi = max(hi, v)
			}
			width := uint(enc[1])
			if width != uint(bitsLen(hi)) {
				t.Fatalf("bit width %d for largest index %d", width, hi)
			}
			var d kernels.RLEDecoder
			d.Reset(enc[2:], width)
			got := make([]uint32, len(idx))
			if n, err := d.DecodeUint32(got); err != nil || n != len(idx) {
				t.Fatalf("decoded %d of %d: %v", n, len(idx), err)
			}
			for i := range idx {
				if got[i] != idx[i] {
					t.Fatalf("index %d: %d, want %d", i, got[i], idx[i])
				}
			}
			// The greedy choice costs little against the kernels' planning
			// encoder: within 6% on random indices (with some repeats),
			// and within 60% on short runs of narrow indices, where
			// planning pays most (both as arrow-go's greedy encoder).
			var e kernels.RLEEncoder
			if err := e.Reset(nil, width); err != nil {
				t.Fatal(err)
			}
			if err := e.PutUint32(idx); err != nil {
				t.Fatal(err)
			}
			if planned := len(e.Flush()); len(enc)-2 > planned+planned*3/5+8 || (k >= 8 && k%2 == 0 && len(idx) >= 1000 && len(enc)-2 > planned+planned*6/100+4) {
				t.Errorf("%d bytes, the planning encoder writes %d", len(enc)-2, planned)
			}
		})
	}
}

// bitsLen returns the bits needed for v.
func bitsLen(v uint32) int {
	n := 0
	for v > 0 {
		n++
		v >>= 1
	}
	return n
}

func TestDefBitmapRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 7, 8, 9, 31, 32, 33, 100, 1000, 4099} {
		for _, p := range []float64{0, 0.02, 0.5, 0.98, 1} {
			src := make([]byte, n/8+2)
			off := rng.IntN(8)
			for i := range n {
				bitutil.SetBitTo(src, off+i, rng.Float64() >= p)
			}
			var d defBitmap
			// Add in uneven pieces, as mini-batches do.
			for at := 0; at < n; {
				k := min(n-at, 1+rng.IntN(300))
				if err := d.add(src, off+at, k); err != nil {
					t.Fatal(err)
				}
				at += k
			}
			enc := d.appendRLE(nil)
			var dec kernels.RLEDecoder
			dec.Reset(enc, 1)
			got := make([]byte, n/8+1)
			if _, err := dec.DecodeBitmap(got, 0, n); err != nil {
				t.Fatalf("n=%d p=%v: %v", n, p, err)
			}
			for i := range n {
				if bitutil.BitIsSet(got, i) != bitutil.BitIsSet(src, off+i) {
					t.Fatalf("n=%d p=%v: level %d differs", n, p, i)
				}
			}
			if p == 0 && n >= 64 && len(enc) > 8 {
				t.Errorf("n=%d without nulls: %d bytes, want a few RLE runs", n, len(enc))
			}
			d.reset()
			if d.n != 0 || (len(d.bits) > 0 && d.bits[0] != 0) {
				t.Fatal("reset left levels behind")
			}
		}
	}
}

func BenchmarkAppendIndices(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, card := range []uint32{8, 1 << 10, 1 << 18} {
		b.Run(fmt.Sprintf("card=%d", card), func(b *testing.B) {
			idx := make([]uint32, 1<<16)
			for i := range idx {
				idx[i] = rng.Uint32N(card)
			}
			dst := make([]byte, 0, 4*len(idx)+16)
			b.SetBytes(int64(4 * len(idx)))
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if dst, err = appendIndices(dst[:0], idx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(idx))/b.Elapsed().Seconds(), "values/s")
		})
	}
}
