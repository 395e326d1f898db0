package levels

import (
	"encoding/binary"
	"math/bits"

	"github.com/quiverio/quiver/internal/arrowmem"
	"github.com/quiverio/quiver/kernels"
)

// Lane masks of four 16-bit levels in a 64-bit word.
const (
	laneLow  = 0x0001_0001_0001_0001
	laneHigh = 0x8000_8000_8000_8000
)

// nonZeroLanes returns the top bit of each 16-bit lane of w that is not
// zero. (lane|0x8000)-1 never borrows from the next lane, and keeps the
// top bit exactly when the lane is at least 1 below it; or-ing w back in
// covers a lane of 0x8000 alone.
func nonZeroLanes(w uint64) uint64 {
	return (((w | laneHigh) - laneLow) | w) & laneHigh
}

// CountRows returns the number of rows whose levels rep holds: its levels
// of 0 or below. Decoded levels are never negative; the walks of an
// [Assembler] take a negative level for a row start too, so the count
// matches the rows they find.
func CountRows(rep []int16) int { return len(rep) - kernels.CountLevelsAtLeast(rep, 1) }

// RowStart returns the index in rep of the repetition level that starts
// row n (counting from 0), and n; when rep starts only k <= n rows it
// returns -1 and k. Whole words of four levels that cannot hold the start
// are counted without a branch per level.
func RowStart(rep []int16, n int) (at, rows int) {
	b := arrowmem.Bytes(rep)
	for len(b) >= 8 {
		z := 4 - bits.OnesCount64(nonZeroLanes(binary.LittleEndian.Uint64(b[:8])))
		if rows+z > n {
			break
		}
		rows += z
		b = b[8:]
	}
	for j := len(rep) - len(b)/2; j < len(rep); j++ {
		if rep[j] == 0 {
			if rows == n {
				return j, rows
			}
			rows++
		}
	}
	return -1, rows
}
