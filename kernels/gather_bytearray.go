package kernels

import "fmt"

// GatherSlack is how many bytes past its values a [ByteArrayDict] wants in
// the capacity of its data, and how many bytes past the values it writes
// [GatherByteArray] may overwrite: values move as blocks of GatherSlack
// bytes, loaded and stored whole.
const GatherSlack = 32

// ByteArrayDict is a dictionary of byte-array values checked once, so that
// gathering from it checks only the indices. Build it with
// [NewByteArrayDict]; the zero value is an empty dictionary.
type ByteArrayDict struct {
	// offsets holds Len()+1 non-decreasing offsets from 0 or more; value j
	// is data[offsets[j]:offsets[j+1]].
	offsets []int32
	// data holds the values and at least GatherSlack bytes after the last
	// one (their contents do not matter).
	data   []byte
	maxLen int
}

// NewByteArrayDict checks a dictionary of len(offsets)-1 byte-array values,
// value j being data[offsets[j]:offsets[j+1]], and returns it ready for
// [GatherByteArraySize] and [GatherByteArray]. The dictionary keeps
// offsets and data, which must not change while it is used. When data's
// capacity holds fewer than [GatherSlack] bytes past the last value, the
// values are copied into a new slice that does. Offsets that are negative,
// decrease or point past data wrap [ErrOutOfRange].
func NewByteArrayDict(offsets []int32, data []byte) (ByteArrayDict, error) {
	if len(offsets) == 0 {
		return ByteArrayDict{}, nil
	}
	if offsets[0] < 0 {
		return ByteArrayDict{}, fmt.Errorf("%w: dictionary offsets start at %d", ErrOutOfRange, offsets[0])
	}
	prev, longest := offsets[0], int32(0)
	for j, o := range offsets[1:] {
		if o < prev {
			return ByteArrayDict{}, fmt.Errorf("%w: dictionary value %d spans %d..%d", ErrOutOfRange, j, prev, o)
		}
		longest = max(longest, o-prev)
		prev = o
	}
	end := int(prev)
	if end > len(data) {
		return ByteArrayDict{}, fmt.Errorf("%w: dictionary values end at byte %d of %d", ErrOutOfRange, end, len(data))
	}
	if cap(data)-end >= GatherSlack {
		data = data[:end+GatherSlack]
	} else {
		padded := make([]byte, end+GatherSlack)
		copy(padded, data[:end])
		data = padded
	}
	return ByteArrayDict{offsets: offsets, data: data, maxLen: int(longest)}, nil
}

// Len returns the number of values in the dictionary.
func (d *ByteArrayDict) Len() int { return max(len(d.offsets)-1, 0) }

// MaxLen returns the length of the dictionary's longest value, so that a
// caller can bound the bytes a gather of n values writes by n*MaxLen.
func (d *ByteArrayDict) MaxLen() int { return d.maxLen }

// GatherByteArraySize returns the bytes the values dict[idx[i]] take
// together, so that the caller can make room for [GatherByteArray]. An
// index past the dictionary wraps [ErrOutOfRange].
func GatherByteArraySize(dict *ByteArrayDict, idx []uint32) (int, error) {
	n := uint64(dict.Len())
	total := 0
	for i, ix := range idx {
		if uint64(ix) >= n {
			return 0, gatherErr(i, idx, int(n))
		}
		total += int(dict.offsets[ix+1] - dict.offsets[ix])
	}
	return total, nil
}

// GatherByteArray gathers the values dict[idx[i]] into Arrow offsets and
// data in one pass: from offsets[0], where the first value starts in data,
// it copies the values back to back, sets offsets[1:len(idx)+1] to where
// each ends and returns the bytes written. Bytes of data up to
// [GatherSlack] past the last value may be overwritten, so making data
// that much longer than the values need lets values move as whole blocks;
// the last ones are copied exactly otherwise. An index past the dictionary wraps [ErrOutOfRange]; fewer than
// len(idx)+1 offsets, offsets[0] outside data or values that do not fit
// data, [ErrShortBuffer]; values that end past the range of O,
// [ErrOffsetOverflow].
func GatherByteArray[O Offset](offsets []O, data []byte, dict *ByteArrayDict, idx []uint32) (int, error) {
	if len(offsets) < len(idx)+1 || offsets[0] < 0 || int64(offsets[0]) > int64(len(data)) {
		return 0, fmt.Errorf("%w: gather: %d offsets for %d values, or offsets[0] outside %d data bytes", ErrShortBuffer, len(offsets), len(idx), len(data))
	}
	base := int(offsets[0])
	// No offset past the range of O is stored: data ends where it does.
	data = data[:min(int64(len(data)), maxOffset[O]())]
	out := offsets[1 : len(idx)+1]
	n := dict.Len()
	d := base
	i := 0
	for dict.maxLen <= 16 && i < len(idx) {
		// Every value fits a 16-byte block: as many values at a time as
		// data has room for at the longest, with no room to check per
		// value, while that is more than a few.
		m := min(len(idx)-i, (len(data)-d-GatherSlack)/max(dict.maxLen, 1))
		if m < min(len(idx)-i, 16) {
			break
		}
		k, e := gatherShort(out[i:i+m], data, d, dict.offsets, dict.data, idx[i:i+m])
		if k < m {
			return 0, gatherErr(i+k, idx, n)
		}
		i, d = i+m, e
	}
	for i < len(idx) {
		k, e := gatherBlocks(out[i:], data, d, dict.offsets, dict.data, idx[i:])
		i, d = i+k, e
		if i == len(idx) {
			break
		}
		// The value at i is past the dictionary, longer than a block or
		// too close to the end of data for one.
		ix := idx[i]
		if uint64(ix) >= uint64(n) {
			return 0, gatherErr(i, idx, n)
		}
		s, e2 := int(dict.offsets[ix]), int(dict.offsets[ix+1])
		if e2-s > len(data)-d {
			if int64(d+e2-s) > maxOffset[O]() {
				return 0, fmt.Errorf("%w: gather: value %d ends at offset %d", ErrOffsetOverflow, i, d+e2-s)
			}
			return 0, fmt.Errorf("%w: gather: value %d needs data up to byte %d, have %d", ErrShortBuffer, i, d+e2-s, len(data))
		}
		d += copy(data[d:], dict.data[s:e2])
		out[i] = O(d)
		i++
	}
	return d - base, nil
}

// gatherBlocks copies the values dict[idx[i]] to data from byte d as
// GatherSlack-byte blocks, as many as each value needs up to
// gatherBlockMax bytes, while data holds the blocks past d, setting out[i]
// to where each ends, and returns how many it copied and where the last
// one ends. src holds GatherSlack bytes past every value, so a block load
// never leaves it; data ends within the range of O.
func gatherBlocks[O Offset](out []O, data []byte, d int, dictOffsets []int32, src []byte, idx []uint32) (int, int) {
	n := uint64(max(len(dictOffsets)-1, 0))
	out = out[:len(idx)]
	for i, ix := range idx {
		if uint64(ix) >= n {
			return i, d
		}
		s := int(dictOffsets[ix])
		l := int(dictOffsets[ix+1]) - s
		if l > gatherBlockMax || len(data)-d < l+GatherSlack {
			return i, d
		}
		b := (*[GatherSlack]byte)(src[s : s+GatherSlack])
		w := (*[GatherSlack]byte)(data[d : d+GatherSlack])
		*(*[16]byte)(w[:16]) = *(*[16]byte)(b[:16])
		*(*[16]byte)(w[16:]) = *(*[16]byte)(b[16:])
		for o := GatherSlack; o < l; o += GatherSlack {
			b := (*[GatherSlack]byte)(src[s+o : s+o+GatherSlack])
			w := (*[GatherSlack]byte)(data[d+o : d+o+GatherSlack])
			*(*[16]byte)(w[:16]) = *(*[16]byte)(b[:16])
			*(*[16]byte)(w[16:]) = *(*[16]byte)(b[16:])
		}
		d += l
		out[i] = O(d)
	}
	return len(idx), d
}

// gatherShort is gatherBlocks for dictionaries whose values are at most
// 16 bytes long, when data holds the longest value at every index plus
// GatherSlack bytes past d: each value moves as one 16-byte block. It
// stops at the first index past the dictionary.
func gatherShort[O Offset](out []O, data []byte, d int, dictOffsets []int32, src []byte, idx []uint32) (int, int) {
	out = out[:len(idx)]
	for i, ix := range idx {
		j := int(ix) + 1
		if j >= len(dictOffsets) {
			return i, d
		}
		s, e := int(dictOffsets[j-1]), int(dictOffsets[j])
		*(*[16]byte)(data[d : d+16]) = *(*[16]byte)(src[s : s+16])
		d += e - s
		out[i] = O(d)
	}
	return len(idx), d
}

// gatherBlockMax is the longest value gatherBlocks copies as blocks;
// memmove takes longer ones.
const gatherBlockMax = 8 * GatherSlack
