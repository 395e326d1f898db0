package levels

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAddLevelCounts checks the counts against one increment per level,
// at odd lengths, for histograms narrower and wider than the tables, with
// negative and too large levels among the input.
func TestAddCounts(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, size := range []int{1, 2, 4, 15, 16, 40} {
		for _, n := range []int{0, 1, 3, 4, 7, 1023, 1029} {
			lv := make([]int16, n)
			for i := range lv {
				lv[i] = int16(r.IntN(size+3) - 1)
			}
			want := make([]int64, size)
			for _, l := range lv {
				if l >= 0 && int(l) < size {
					want[l]++
				}
			}
			got := make([]int64, size)
			got[0] = 5 // counts are added
			want[0] += 5
			AddCounts(got, lv)
			if !slices.Equal(got, want) {
				t.Fatalf("size %d, %d levels: got %v, want %v", size, n, got, want)
			}
		}
	}
}
