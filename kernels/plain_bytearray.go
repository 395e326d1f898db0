package kernels

import (
	"encoding/binary"
	"fmt"
	"slices"
)

// PlainByteArray decodes len(offsets)-1 PLAIN BYTE_ARRAY values (each a
// 4-byte little-endian length and its bytes) from src into Arrow offsets
// and data in one pass. The caller sets offsets[0], where the values begin
// in data; value i lands in data[offsets[i]:offsets[i+1]]. The values never
// take more bytes than src holds, so data needs at most offsets[0]+len(src)
// bytes and can be sized before decoding. Up to 64 bytes of data past the
// last value may be overwritten.
//
// It returns the bytes of data written and of src used. A truncated length
// or value, or values past the range of O, is an error wrapping
// [ErrCorrupt]; a data slice too short for the values wraps
// [ErrShortBuffer], an empty offsets slice or negative offsets[0]
// [ErrOutOfRange].
func PlainByteArray[O Offset](offsets []O, data, src []byte) (dataLen, consumed int, err error) {
	if len(offsets) == 0 || offsets[0] < 0 || int64(offsets[0]) > int64(len(data)) {
		return 0, 0, fmt.Errorf("%w: plain byte array: offsets[0] outside %d data bytes", ErrOutOfRange, len(data))
	}
	base := int(offsets[0])
	// Writing stops at the end of data or of the offsets' range.
	limit := int(min(int64(len(data)), maxOffset[O]()))
	d, pos := base, 0
	out := offsets[1:]
	for i := 0; ; i++ {
		i, d, pos = plainShortValues(out, i, data[:limit], src, d, pos)
		if i == len(out) {
			break
		}
		// Value i is long or near the end of src or data.
		if len(src)-pos < 4 {
			return 0, 0, fmt.Errorf("%w: plain byte array value %d: length truncated at byte %d of %d", ErrCorrupt, i, pos, len(src))
		}
		l := int(binary.LittleEndian.Uint32(src[pos:]))
		pos += 4
		if uint(l) > uint(len(src)-pos) {
			return 0, 0, fmt.Errorf("%w: plain byte array value %d: length %d at byte %d, %d bytes left", ErrCorrupt, i, l, pos-4, len(src)-pos)
		}
		if l > limit-d {
			if int64(d+l) > maxOffset[O]() {
				return 0, 0, fmt.Errorf("%w: plain byte array value %d ends at offset %d", ErrOffsetOverflow, i, d+l)
			}
			return 0, 0, fmt.Errorf("%w: plain byte array value %d needs data up to byte %d, have %d", ErrShortBuffer, i, d+l, len(data))
		}
		copy(data[d:d+l], src[pos:pos+l])
		pos += l
		d += l
		out[i] = O(d)
	}
	return d - base, pos, nil
}

// PlainByteArraySize returns the data bytes of the first n PLAIN
// BYTE_ARRAY values of src: the sum of their lengths, what
// [PlainByteArray] needs for them past offsets[0]. A length or value cut
// off by the end of src is an error wrapping [ErrCorrupt].
func PlainByteArraySize(src []byte, n int) (int, error) {
	size, pos := 0, 0
	for i := range n {
		if len(src)-pos < 4 {
			return 0, fmt.Errorf("%w: plain byte array value %d: length truncated at byte %d of %d", ErrCorrupt, i, pos, len(src))
		}
		l := int(binary.LittleEndian.Uint32(src[pos:]))
		pos += 4
		if uint(l) > uint(len(src)-pos) {
			return 0, fmt.Errorf("%w: plain byte array value %d: length %d at byte %d, %d bytes left", ErrCorrupt, i, l, pos-4, len(src)-pos)
		}
		pos += l
		size += l
	}
	return size, nil
}

// AppendPlainByteArray appends the PLAIN encoding of the len(offsets)-1
// values data[offsets[i]:offsets[i+1]] to dst and returns the extended
// slice. Offsets that decrease or point outside data, or a value longer
// than math.MaxInt32 bytes, are an error wrapping [ErrOutOfRange]. Up to
// 64 bytes of dst's capacity past the returned slice may be overwritten.
func AppendPlainByteArray[O Offset](dst []byte, offsets []O, data []byte) ([]byte, error) {
	if err := checkOffsets(offsets, len(data)); err != nil {
		return dst, err
	}
	if len(offsets) < 2 {
		return dst, nil
	}
	size := 4*(len(offsets)-1) + int(offsets[len(offsets)-1]-offsets[0])
	// Values of up to 16 (or 64) bytes are copied as 16 (or 64) bytes
	// whatever their length, the bytes past each value overwritten by the
	// next or left in dst's spare capacity, when both slices have them.
	dst = slices.Grow(dst, size)
	out := dst[len(dst):cap(dst)]
	pos := 0
	for i := 1; i < len(offsets); i++ {
		a, b := int(offsets[i-1]), int(offsets[i])
		binary.LittleEndian.PutUint32(out[pos:], uint32(b-a))
		pos += 4
		switch {
		case b-a <= 16 && a+16 <= len(data) && pos+16 <= len(out):
			*(*[16]byte)(out[pos : pos+16]) = *(*[16]byte)(data[a : a+16])
		case b-a <= 64 && a+64 <= len(data) && pos+64 <= len(out):
			to, from := (*[64]byte)(out[pos:pos+64]), (*[64]byte)(data[a:a+64])
			*(*[16]byte)(to[:16]) = *(*[16]byte)(from[:16])
			*(*[16]byte)(to[16:32]) = *(*[16]byte)(from[16:32])
			*(*[16]byte)(to[32:48]) = *(*[16]byte)(from[32:48])
			*(*[16]byte)(to[48:]) = *(*[16]byte)(from[48:])
		default:
			copy(out[pos:], data[a:b])
		}
		pos += b - a
	}
	return dst[:len(dst)+size], nil
}

// plainShortValues decodes values i, i+1, ... of a PLAIN BYTE_ARRAY page
// while each is at most plainBlockMax bytes long and src holds its length
// and the blocks it moves as (so it cannot be truncated) and data has room
// for them (data ends where the offsets' range does, so it cannot
// overflow). A value moves as fixed blocks whatever its length: 16 bytes
// for values of up to 16, else 64 and then 32 at a time, the bytes past it
// overwritten by the next value or left in data's room.
// It returns the first value it did not decode, and the data and src
// positions after the last one it did. Kept apart from the checks and
// errors of long values so that its loop keeps every slice in registers.
func plainShortValues[O Offset](out []O, i int, data, src []byte, d, pos int) (int, int, int) {
	for ; i < len(out); i++ {
		if len(src)-pos < 4+64 || len(data)-d < 64 {
			break
		}
		s := (*[4 + 64]byte)(src[pos : pos+4+64])
		l := int(binary.LittleEndian.Uint32(s[:]))
		to := (*[64]byte)(data[d : d+64])
		if uint(l) <= 16 { // uint: a length past 2^31 is negative on 32-bit machines
			*(*[16]byte)(to[:16]) = *(*[16]byte)(s[4:20])
		} else {
			if uint(l) > 64 && (uint(l) > plainBlockMax || len(src)-pos-4 < l+32 || len(data)-d < l+32) {
				break
			}
			// 16-byte moves: a [64]byte assignment calls memmove.
			*(*[16]byte)(to[:16]) = *(*[16]byte)(s[4:20])
			*(*[16]byte)(to[16:32]) = *(*[16]byte)(s[20:36])
			*(*[16]byte)(to[32:48]) = *(*[16]byte)(s[36:52])
			*(*[16]byte)(to[48:64]) = *(*[16]byte)(s[52:68])
			for o := 64; o < l; o += 32 {
				from := (*[32]byte)(src[pos+4+o : pos+4+o+32])
				to := (*[32]byte)(data[d+o : d+o+32])
				*(*[16]byte)(to[:16]) = *(*[16]byte)(from[:16])
				*(*[16]byte)(to[16:]) = *(*[16]byte)(from[16:])
			}
		}
		pos += 4 + l
		d += l
		out[i] = O(d)
	}
	return i, d, pos
}

// plainBlockMax is the longest value plainShortValues moves as blocks;
// memmove takes longer ones.
const plainBlockMax = 256

// copyShort copies src[s:s+n] to dst[d:d+n]; d, s and n are at least zero
// and both ranges lie within their slices. Copies of up to 16 bytes with 16
// bytes of room in both slices move two 8-byte words, loaded before either
// is stored, and so may overwrite dst[d+n:d+16].
func copyShort(dst []byte, d int, src []byte, s, n int) {
	if n <= 16 && d+16 <= len(dst) && s+16 <= len(src) {
		a := binary.LittleEndian.Uint64(src[s:])
		b := binary.LittleEndian.Uint64(src[s+8:])
		binary.LittleEndian.PutUint64(dst[d:], a)
		binary.LittleEndian.PutUint64(dst[d+8:], b)
		return
	}
	copy(dst[d:d+n], src[s:s+n])
}
