package kernels

// CountLevelsAtLeast returns how many of levels are at least t. With t the
// maximum definition level of a column (and levels that never exceed it,
// as the level decoders check), it counts the entries that hold a value.
func CountLevelsAtLeast(levels []int16, t int16) int {
	return countAtLeast16(levels, t)
}

// countAtLeast16 is the dispatch variable of CountLevelsAtLeast; an
// architecture's init may replace it, once.
var countAtLeast16 = countAtLeastGeneric

// countAtLeast16Impls lists every implementation usable on this CPU,
// portable twin first.
var countAtLeast16Impls = []impl[func([]int16, int16) int]{{"go", countAtLeastGeneric}}

// countAtLeastGeneric counts eight levels per step into eight counters,
// without a branch per level.
func countAtLeastGeneric(levels []int16, t int16) int {
	var c [8]int
	for len(levels) >= 8 {
		l := (*[8]int16)(levels)
		for j := range l {
			c[j] += int(bit(l[j] >= t))
		}
		levels = levels[8:]
	}
	n := c[0] + c[1] + c[2] + c[3] + c[4] + c[5] + c[6] + c[7]
	for _, l := range levels {
		n += int(bit(l >= t))
	}
	return n
}

// countChunk is how many levels the assembly count kernels turn into a
// bitmap on the stack at a time.
const countChunk = 2048
