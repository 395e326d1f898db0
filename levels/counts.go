package levels

import "math/bits"

// countTables is how many counting tables AddCounts spreads
// consecutive levels over, so that a run of equal levels does not chain
// each increment on the store of the one before.
const countTables = 4

// countTableSize is the levels a table counts directly: 0 to
// countTableSize-2, the last entry catching every other value.
const countTableSize = 16

// AddCounts adds to h[v] the number of levels of lv equal to v, for
// v from 0 to len(h)-1; levels outside that range are not counted.
func AddCounts(h []int64, lv []int16) {
	if len(h) == 0 {
		return
	}
	if len(h) >= countTableSize {
		for _, l := range lv {
			if l >= 0 && int(l) < len(h) {
				h[l]++
			}
		}
		return
	}
	var t [countTables][countTableSize]int32
	const top = countTableSize - 1
	n := len(lv) &^ (countTables - 1)
	for start := 0; start < n; {
		// Counts of int32 cannot overflow within a block of 1<<30 levels.
		end := min(n, start+1<<30)
		for i := start; i < end; i += countTables {
			q := (*[countTables]int16)(lv[i:])
			t[0][min(uint16(q[0]), top)]++
			t[1][min(uint16(q[1]), top)]++
			t[2][min(uint16(q[2]), top)]++
			t[3][min(uint16(q[3]), top)]++
		}
		for v := range h {
			h[v] += int64(t[0][v]) + int64(t[1][v]) + int64(t[2][v]) + int64(t[3][v])
		}
		t = [countTables][countTableSize]int32{}
		start = end
	}
	for _, l := range lv[n:] {
		if l >= 0 && int(l) < len(h) {
			h[l]++
		}
	}
}

// Width is the bit width of the RLE/bit-packed encoding of levels up to
// max.
func Width(max int16) uint { return uint(bits.Len16(uint16(max))) }
