package kernels

import (
	"math/rand/v2"
)

// testStrings returns n byte strings of one of several kinds.
func testStrings(r *rand.Rand, n, kind int) [][]byte {
	out := make([][]byte, n)
	var prev []byte
	for i := range out {
		var v []byte
		switch kind {
		case 0: // short random, some empty
			v = randBytes(r, r.IntN(12))
		case 1: // 20 bytes sharing prefixes with the previous value, as in sorted keys
			v = make([]byte, 20)
			keep := 0
			if len(prev) == 20 {
				keep = r.IntN(20)
			}
			copy(v, prev[:keep])
			for j := keep; j < 20; j++ {
				v[j] = byte('a' + r.IntN(26))
			}
		case 2: // long values with long shared prefixes and varied lengths
			keep := 0
			if len(prev) > 0 {
				keep = r.IntN(len(prev) + 1)
			}
			v = append(append([]byte(nil), prev[:keep]...), randBytes(r, r.IntN(40))...)
		case 3: // all empty
			v = []byte{}
		}
		out[i] = v
		prev = v
	}
	return out
}

// testFlatten returns Arrow offsets (starting at base) and data (with base
// leading filler bytes) for vals.
func testFlatten[O Offset](vals [][]byte, base int) ([]O, []byte) {
	offsets := make([]O, len(vals)+1)
	data := make([]byte, base)
	offsets[0] = O(base)
	for i, v := range vals {
		data = append(data, v...)
		offsets[i+1] = O(len(data))
	}
	return offsets, data
}

// testLengthsStream is the reference DELTA_BINARY_PACKED int32 stream of
// the given lengths, written by the independent test writer.
func testLengthsStream(r *rand.Rand, lengths []int) []byte {
	u := make([]uint64, len(lengths))
	for i, l := range lengths {
		u[i] = uint64(l)
	}
	return testDeltaStream(r, u, 32, deltaShape{blockSize: 128, miniBlocks: 4, garbageWidths: true, garbagePadding: true})
}
