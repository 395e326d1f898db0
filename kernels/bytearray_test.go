package kernels

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
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
		case 4: // free text: 10 to 70 bytes, as in comment columns
			v = randBytes(r, 10+r.IntN(61))
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

// TestOffsetOverflow checks that byte arrays that fit their input but not
// the int32 offsets they are decoded into report ErrOffsetOverflow (a
// sound file read with too narrow offsets), not corruption.
func TestOffsetOverflow(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	top := int32(math.MaxInt32 - 6)
	// DELTA_BYTE_ARRAY: prefixes 0, 0; suffixes "abcd", "efgh".
	src := append(append(testLengthsStream(r, []int{0, 0}), testLengthsStream(r, []int{4, 4})...), "abcdefgh"...)
	if _, _, err := DeltaByteArrayOffsets([]int32{top, 0, 0}, make([]int32, 2), src); !errors.Is(err, ErrOffsetOverflow) {
		t.Errorf("delta byte array: %v", err)
	}
	if testing.Short() {
		return
	}
	// The others write data: give them 2 GiB of (mostly untouched) data.
	big := make([]byte, math.MaxInt32+16)
	dict := testByteArrayDict(t, [][]byte{[]byte("abcd")})
	if _, err := GatherByteArray([]int32{top, 0, 0}, big, &dict, []uint32{0, 0}); !errors.Is(err, ErrOffsetOverflow) {
		t.Errorf("gather: %v", err)
	}
	srcOff, srcData := testFlatten[int32]([][]byte{[]byte("abcd"), []byte("efgh")}, 0)
	if _, err := CompactByteArray([]int32{top, 0, 0}, big, srcOff, srcData, []byte{0xff}, 0); !errors.Is(err, ErrOffsetOverflow) {
		t.Errorf("compact: %v", err)
	}
}
