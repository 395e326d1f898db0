package kernels

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
)

// DELTA_BYTE_ARRAY stores, for each value, the length of the prefix it
// shares with the previous value and its remaining suffix: a
// DELTA_BINARY_PACKED int32 stream of prefix lengths, then the suffixes as
// DELTA_LENGTH_BYTE_ARRAY. Decoding takes two calls so that the caller can
// size the data buffer in between: the values' total length is known only
// once the lengths are decoded, and shared prefixes make it larger than the
// page (a few bytes per value can repeat a long prefix), so it has to be
// checked against the caller's own limits before anything is allocated.

// DeltaByteArrayOffsets decodes the two length streams of a
// DELTA_BYTE_ARRAY page holding len(offsets)-1 values at the start of src:
// prefix lengths into prefix (len(prefix) >= len(offsets)-1, caller-owned
// scratch) and the running offsets of the whole values into offsets[1:],
// starting from offsets[0], which the caller sets. It returns the bytes the
// values take in data (offsets[last]-offsets[0]) and where the suffix bytes
// begin in src; pass src[suffixAt:] to [DeltaByteArrayData].
//
// A prefix longer than the previous value (or non-zero for the first), a
// negative length, suffixes adding up to more bytes than src holds or a
// malformed stream is an error wrapping [ErrCorrupt]; values past the range
// of O wrap [ErrOffsetOverflow]; a short prefix slice, an empty offsets slice or a negative
// offsets[0] wraps [ErrOutOfRange].
func DeltaByteArrayOffsets[O Offset](offsets []O, prefix []int32, src []byte) (dataLen, suffixAt int, err error) {
	if len(offsets) == 0 || offsets[0] < 0 || len(prefix) < len(offsets)-1 {
		return 0, 0, fmt.Errorf("%w: delta byte array needs offsets[0] >= 0 and %d prefix slots, have %d", ErrOutOfRange, max(len(offsets)-1, 0), len(prefix))
	}
	n := len(offsets) - 1
	prefix = prefix[:n]
	used, err := DeltaBinaryPackedInt32(prefix, src)
	if err != nil {
		return 0, 0, err
	}
	used2, err := deltaLengths(offsets[1:], src[used:])
	if err != nil {
		return 0, 0, err
	}
	suffixAt = used + used2
	base := int64(offsets[0])
	room := maxOffset[O]() - base            // offset range left
	suffixRoom := int64(len(src) - suffixAt) // suffix bytes left
	acc, prev := base, int64(0)
	for i, p := range prefix {
		s := int64(offsets[i+1])
		if p < 0 || int64(p) > prev {
			return 0, 0, fmt.Errorf("%w: delta byte array value %d: prefix length %d, previous value has %d bytes", ErrCorrupt, i, p, prev)
		}
		if s < 0 || s > suffixRoom {
			return 0, 0, fmt.Errorf("%w: delta byte array value %d: suffix length %d, %d suffix bytes left", ErrCorrupt, i, s, suffixRoom)
		}
		suffixRoom -= s
		l := int64(p) + s
		if l > room {
			return 0, 0, fmt.Errorf("%w: delta byte array value %d: %d bytes past offset %d", ErrOffsetOverflow, i, l, acc)
		}
		room -= l
		acc += l
		offsets[i+1] = O(acc)
		prev = l
	}
	return int(acc - base), suffixAt, nil
}

// DeltaByteArrayData copies the values of a DELTA_BYTE_ARRAY page into
// data[offsets[0]:offsets[len(offsets)-1]], given the offsets and prefix
// lengths [DeltaByteArrayOffsets] produced and the page's suffix bytes, and
// returns the number of suffix bytes used. Each value is the first
// prefix[i] bytes of the previous value followed by its suffix. Bytes of
// data outside the values' range are not touched. Inconsistent arguments
// are an error wrapping [ErrCorrupt] (or [ErrShortBuffer] for a short
// data slice), never a panic.
func DeltaByteArrayData[O Offset](data []byte, offsets []O, prefix []int32, suffixes []byte) (int, error) {
	if len(offsets) == 0 || len(prefix) < len(offsets)-1 {
		return 0, fmt.Errorf("%w: delta byte array: %d prefix slots for %d offsets", ErrOutOfRange, len(prefix), len(offsets))
	}
	end := int64(offsets[len(offsets)-1])
	if offsets[0] < 0 || end > int64(len(data)) {
		return 0, fmt.Errorf("%w: delta byte array: offsets %d..%d outside %d data bytes", ErrShortBuffer, offsets[0], end, len(data))
	}
	if end < int64(offsets[0]) {
		return 0, fmt.Errorf("%w: delta byte array: offsets end at %d, before their start %d", ErrCorrupt, end, offsets[0])
	}
	data = data[:end]
	next := offsets[1:]
	prefix = prefix[:len(next)]
	sp := 0
	prevStart, prevLen := int(offsets[0]), 0
	for i := 0; ; i++ {
		i, sp, prevStart, prevLen = deltaByteArrayShort(data, next, prefix, suffixes, i, sp, prevStart, prevLen)
		if i == len(next) {
			break
		}
		// Value i is long, near the end of data or of the suffixes, or
		// inconsistent.
		start, stop, p := prevStart+prevLen, int(next[i]), int(prefix[i])
		s := stop - start - p
		if p < 0 || p > prevLen || s < 0 || stop > len(data) || s > len(suffixes)-sp {
			return 0, fmt.Errorf("%w: delta byte array value %d: prefix %d, length %d, previous length %d, %d suffix bytes left", ErrCorrupt, i, p, stop-start, prevLen, len(suffixes)-sp)
		}
		copy(data[start:start+p], data[prevStart:prevStart+p])
		copy(data[start+p:stop], suffixes[sp:sp+s])
		sp += s
		prevStart, prevLen = start, stop-start
	}
	return sp, nil
}

// deltaByteArrayShort copies values i, i+1, ... of a DELTA_BYTE_ARRAY page
// while each is consistent, at most 32 bytes long, at least 32 bytes from
// the end of data, and its suffix's 32-byte window (below) lies within
// suffixes. Value i ends at next[i] and starts where the previous value
// (prevStart, prevLen bytes) ends. It returns the first value it did not
// copy, the suffix bytes used and the last value it copied (or the one it
// was given).
//
// The previous value's four words stay in registers. Word k of a value is
// word k of the previous value for its bytes below the prefix length p and
// the word at suffixes[sp-p+8k:] for the rest (the window starts p bytes
// before the suffix, so the suffix lands at byte p): two loads, a mask from
// dbaMasks and one store per word (the fourth only for values past 24
// bytes; a value of at most 24 bytes never needs the previous one's), and
// no value read back from data just after it was written (a load that
// straddles recent stores stalls). Bytes past a value's end come from later suffixes
// and are overwritten by the values after it; they never pass the end of
// data, which ends at the last value.
func deltaByteArrayShort[O Offset](data []byte, next []O, prefix []int32, suffixes []byte, i, sp, prevStart, prevLen int) (int, int, int, int) {
	if i < 0 || prevStart > len(data)-32 {
		return i, sp, prevStart, prevLen
	}
	pw := (*[32]byte)(data[prevStart : prevStart+32])
	w0, w1 := binary.LittleEndian.Uint64(pw[0:]), binary.LittleEndian.Uint64(pw[8:])
	w2, w3 := binary.LittleEndian.Uint64(pw[16:]), binary.LittleEndian.Uint64(pw[24:])
	start := prevStart + prevLen
	for ; i < len(next); i++ {
		stop, p := int(next[i]), int(prefix[i])
		n := stop - start
		if uint(p) > uint(prevLen) || uint(n) > 32 || p > n || p > sp || start > len(data)-32 || sp-p > len(suffixes)-32 {
			break
		}
		m := (*[25]uint64)(dbaMasks[p&63 : p&63+25])
		sf := (*[32]byte)(suffixes[sp-p : sp-p+32])
		d := (*[32]byte)(data[start : start+32])
		w0 = w0&m[24] | binary.LittleEndian.Uint64(sf[0:])&^m[24]
		w1 = w1&m[16] | binary.LittleEndian.Uint64(sf[8:])&^m[16]
		w2 = w2&m[8] | binary.LittleEndian.Uint64(sf[16:])&^m[8]
		binary.LittleEndian.PutUint64(d[0:], w0)
		binary.LittleEndian.PutUint64(d[8:], w1)
		binary.LittleEndian.PutUint64(d[16:], w2)
		if n > 24 {
			w3 = w3&m[0] | binary.LittleEndian.Uint64(sf[24:])&^m[0]
			binary.LittleEndian.PutUint64(d[24:], w3)
		}
		sp += n - p
		prevLen = n
		start = stop
	}
	return i, sp, start - prevLen, prevLen
}

// dbaMasks[p+24-8k] selects the bytes of word k (bytes 8k to 8k+7) of a
// value that lie below p: none, the low p-8k bytes, or all eight.
// The table runs to 64+25 entries so that indexing it by p&63 needs no
// bounds check.
var dbaMasks = func() (t [64 + 25]uint64) {
	for x := range t {
		below := min(max(x-24, 0), 8)
		t[x] = ^(^uint64(0) << (8 * below))
	}
	return t
}()

// DeltaByteArrayFixed decodes a DELTA_BYTE_ARRAY page of
// FIXED_LEN_BYTE_ARRAY values, width bytes each, into dst (len(dst)/width
// values, back to back), using scratch (at least 2*len(dst)/width slots,
// caller-owned) for the lengths, and returns the bytes of src used. Every
// value must come out exactly width bytes long; anything else is an error
// wrapping [ErrCorrupt], as are malformed streams. A width below 1, a dst
// that is not a whole number of values or a short scratch slice wraps
// [ErrOutOfRange].
func DeltaByteArrayFixed(dst []byte, width int, scratch []int32, src []byte) (int, error) {
	if width <= 0 || len(dst)%width != 0 || len(scratch)/2 < len(dst)/width {
		return 0, fmt.Errorf("%w: delta byte array: %d bytes of %d-byte values with %d scratch slots", ErrOutOfRange, len(dst), width, len(scratch))
	}
	n := len(dst) / width
	prefix, suffix := scratch[:n], scratch[n:2*n]
	used, err := DeltaBinaryPackedInt32(prefix, src)
	if err != nil {
		return 0, err
	}
	used2, err := DeltaBinaryPackedInt32(suffix, src[used:])
	if err != nil {
		return 0, err
	}
	suffixes := src[used+used2:]
	sp := 0
	for i, p := range prefix {
		s := suffix[i]
		if p < 0 || s < 0 || int64(p)+int64(s) != int64(width) || (i == 0 && p != 0) || int(s) > len(suffixes)-sp {
			return 0, fmt.Errorf("%w: delta byte array value %d: prefix %d + suffix %d is not the fixed width %d, or past the %d suffix bytes left", ErrCorrupt, i, p, s, width, len(suffixes)-sp)
		}
		start := i * width
		copyShort(dst, start, dst, max(start-width, 0), int(p))
		copyShort(dst, start+int(p), suffixes, sp, int(s))
		sp += int(s)
	}
	return used + used2 + sp, nil
}

// AppendDeltaByteArray appends the DELTA_BYTE_ARRAY encoding of the
// len(offsets)-1 values data[offsets[i]:offsets[i+1]] to dst and returns
// the extended slice. shared is the caller's scratch for the values'
// shared-prefix lengths: it is grown when shorter than the value count and
// returned for the next call. Offsets that decrease or point outside data,
// or a value longer than math.MaxInt32 bytes, are an error wrapping
// [ErrOutOfRange].
func AppendDeltaByteArray[O Offset](dst []byte, offsets []O, data []byte, shared []uint32) ([]byte, []uint32, error) {
	if err := checkOffsets(offsets, len(data)); err != nil {
		return dst, shared, err
	}
	n := max(len(offsets)-1, 0)
	dst, shared = appendDeltaByteArray(dst, n, func(i int) []byte { return data[offsets[i]:offsets[i+1]] }, shared)
	return dst, shared, nil
}

// AppendDeltaByteArrayFixed appends the DELTA_BYTE_ARRAY encoding of the
// FIXED_LEN_BYTE_ARRAY values in data, width bytes each, to dst, with
// shared as in [AppendDeltaByteArray]. A width below 1 or above
// math.MaxInt32, or data that is not a whole number of values, is an error
// wrapping [ErrOutOfRange].
func AppendDeltaByteArrayFixed(dst []byte, data []byte, width int, shared []uint32) ([]byte, []uint32, error) {
	if width <= 0 || width > 1<<31-1 || len(data)%width != 0 {
		return dst, shared, fmt.Errorf("%w: delta byte array: %d bytes of %d-byte values", ErrOutOfRange, len(data), width)
	}
	dst, shared = appendDeltaByteArray(dst, len(data)/width, func(i int) []byte { return data[i*width : (i+1)*width] }, shared)
	return dst, shared, nil
}

// appendDeltaByteArray appends the encoding of the n values value(0..n-1).
// The shared prefixes are found once, into shared, then each section takes
// its own pass over them.
func appendDeltaByteArray(dst []byte, n int, value func(i int) []byte, shared []uint32) ([]byte, []uint32) {
	shared = slices.Grow(shared[:0], n)[:n]
	var prev []byte
	suffixBytes := 0
	for i := range shared {
		v := value(i)
		p := commonPrefix(prev, v)
		shared[i] = uint32(p)
		suffixBytes += len(v) - p
		prev = v
	}
	dst = appendLengths(dst, n, func(i int) uint32 { return shared[i] })
	dst = appendLengths(dst, n, func(i int) uint32 { return uint32(len(value(i))) - shared[i] })
	dst = slices.Grow(dst, suffixBytes)
	for i, p := range shared {
		dst = append(dst, value(i)[p:]...)
	}
	return dst, shared
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && bytes.Equal(a[i:i+8], b[i:i+8]) {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}
