package kernels

import "fmt"

// GatherSlack is how many bytes past its values a [ByteArrayDict] wants in
// the capacity of its data, and how many bytes past the values it writes
// [GatherByteArrayData] may overwrite: values of up to GatherSlack bytes
// move as fixed-size blocks, loaded and stored whole.
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
	data []byte
}

// NewByteArrayDict checks a dictionary of len(offsets)-1 byte-array values,
// value j being data[offsets[j]:offsets[j+1]], and returns it ready for
// [GatherByteArrayOffsets] and [GatherByteArrayData]. The dictionary keeps
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
	prev := offsets[0]
	for j, o := range offsets[1:] {
		if o < prev {
			return ByteArrayDict{}, fmt.Errorf("%w: dictionary value %d spans %d..%d", ErrOutOfRange, j, prev, o)
		}
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
	return ByteArrayDict{offsets: offsets, data: data}, nil
}

// Len returns the number of values in the dictionary.
func (d *ByteArrayDict) Len() int { return max(len(d.offsets)-1, 0) }

// GatherByteArrayOffsets is the first pass of gathering the values
// dict[idx[i]] into Arrow offsets and data: from offsets[0], the offset
// where the first value will start, it sets offsets[1:len(idx)+1] to where
// each value ends and returns the bytes the values take together, which
// the caller makes room for before [GatherByteArrayData] copies them. An
// index past the dictionary wraps [ErrOutOfRange]; fewer than len(idx)+1
// offsets or a negative offsets[0], [ErrShortBuffer]; values that end past
// the range of O, [ErrOffsetOverflow].
func GatherByteArrayOffsets[O Offset](offsets []O, dict *ByteArrayDict, idx []uint32) (int, error) {
	if len(offsets) < len(idx)+1 || offsets[0] < 0 {
		return 0, fmt.Errorf("%w: gather: %d offsets for %d values, or a negative first offset", ErrShortBuffer, len(offsets), len(idx))
	}
	base := int64(offsets[0])
	k, end := gatherOffsets(offsets[1:len(idx)+1], dict.offsets, idx, base)
	if k < len(idx) {
		return 0, gatherErr(k, idx, dict.Len())
	}
	if end > maxOffset[O]() {
		return 0, fmt.Errorf("%w: gather: %d values end at offset %d", ErrOffsetOverflow, len(idx), end)
	}
	return int(end - base), nil
}

// gatherOffsets sets out[i] to d plus the lengths of the values dict[idx[0]]
// to dict[idx[i]] until an index falls outside the dictionary, and returns
// how many it set and the last end. Its sums cannot overflow an int64: each
// length is below 2^31 and there are fewer than 2^32 of them.
func gatherOffsets[O Offset](out []O, dictOffsets []int32, idx []uint32, d int64) (int, int64) {
	n := uint64(max(len(dictOffsets)-1, 0))
	out = out[:len(idx)]
	for i, ix := range idx {
		if uint64(ix) >= n {
			return i, d
		}
		d += int64(dictOffsets[ix+1] - dictOffsets[ix])
		out[i] = O(d)
	}
	return len(idx), d
}

// GatherByteArrayData is the second pass of the gather
// [GatherByteArrayOffsets] starts: it copies the values dict[idx[i]] back
// to back into data from byte at and returns the bytes written. Bytes of
// data up to [GatherSlack] past the last value may be overwritten, so
// making data that much longer than the values need lets every value of
// up to GatherSlack bytes move as whole blocks; the last ones are copied
// exactly otherwise. An index past the dictionary wraps [ErrOutOfRange];
// values that do not fit data, [ErrShortBuffer].
func GatherByteArrayData(data []byte, at int, dict *ByteArrayDict, idx []uint32) (int, error) {
	if at < 0 || at > len(data) {
		return 0, fmt.Errorf("%w: gather: data from byte %d of %d", ErrShortBuffer, at, len(data))
	}
	n := dict.Len()
	d := at
	for i := 0; i < len(idx); {
		k, e := gatherBlocks(data, d, dict.offsets, dict.data, idx[i:])
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
			return 0, fmt.Errorf("%w: gather: value %d needs data up to byte %d, have %d", ErrShortBuffer, i, d+e2-s, len(data))
		}
		d += copy(data[d:], dict.data[s:e2])
		i++
	}
	return d - at, nil
}

// gatherBlocks copies the values dict[idx[i]] to data from byte d as
// GatherSlack-byte blocks while each fits one and data holds a block past
// d, and returns how many it copied and where the last one ends. src holds
// GatherSlack bytes past every value, so a block load never leaves it.
func gatherBlocks(data []byte, d int, dictOffsets []int32, src []byte, idx []uint32) (int, int) {
	n := uint64(max(len(dictOffsets)-1, 0))
	for i, ix := range idx {
		if uint64(ix) >= n || len(data)-d < GatherSlack {
			return i, d
		}
		s := int(dictOffsets[ix])
		l := int(dictOffsets[ix+1]) - s
		if l > GatherSlack {
			return i, d
		}
		b := (*[GatherSlack]byte)(src[s : s+GatherSlack])
		w := (*[GatherSlack]byte)(data[d : d+GatherSlack])
		*(*[16]byte)(w[:16]) = *(*[16]byte)(b[:16])
		*(*[16]byte)(w[16:]) = *(*[16]byte)(b[16:])
		d += l
	}
	return len(idx), d
}
