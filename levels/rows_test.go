package levels

import (
	"math/rand/v2"
	"testing"
)

// TestRowStart checks CountRows and RowStart against a plain scan, on
// random levels (all widths, 0x8000-like lanes included) of every length
// up to a few words.
func TestRowStart(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		rep := make([]int16, r.IntN(40))
		for i := range rep {
			switch r.IntN(4) {
			case 0:
				rep[i] = 0
			case 1:
				rep[i] = int16(r.Uint32())
			default:
				rep[i] = int16(r.IntN(3))
			}
		}
		var starts []int
		for i, v := range rep {
			if v == 0 {
				starts = append(starts, i)
			}
		}
		negative := 0
		for _, v := range rep {
			negative += int(b2u(v < 0))
		}
		if got := CountRows(rep); got != len(starts)+negative {
			t.Fatalf("CountRows(%v) = %d, want %d", rep, got, len(starts)+negative)
		}
		for n := range len(starts) + 2 {
			wantAt, wantRows := -1, len(starts)
			if n < len(starts) {
				wantAt, wantRows = starts[n], n
			}
			if at, rows := RowStart(rep, n); at != wantAt || rows != wantRows {
				t.Fatalf("RowStart(%v, %d) = %d, %d; want %d, %d", rep, n, at, rows, wantAt, wantRows)
			}
		}
	}
}

// BenchmarkCountRows counts the rows of levels of lists of about four
// elements.
func BenchmarkCountRows(b *testing.B) {
	rep := make([]int16, 1<<16)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range rep {
		rep[i] = int16(min(r.IntN(4), 1))
	}
	b.SetBytes(int64(2 * len(rep)))
	b.ReportAllocs()
	for b.Loop() {
		CountRows(rep)
	}
	b.ReportMetric(float64(b.N*len(rep))/b.Elapsed().Seconds(), "values/s")
}
