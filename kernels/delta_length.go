package kernels

import (
	"fmt"
	"unsafe"

	"github.com/quiverio/quiver/internal/arrowmem"
)

// DeltaLengthByteArray decodes a DELTA_LENGTH_BYTE_ARRAY section holding
// len(offsets)-1 values (the lengths as a DELTA_BINARY_PACKED int32 stream,
// then the bytes of every value back to back) at the start of src into
// Arrow offsets and data. The caller sets offsets[0], where this page's
// bytes begin in data; the lengths are decoded into offsets[1:] itself and
// turned into running offsets in place, and the bytes are copied once into
// data[offsets[0]:]. They never exceed len(src), so a data slice with
// offsets[0]+len(src) bytes is always large enough; otherwise
// len(data) must reach offsets[len(offsets)-1].
//
// It returns the bytes of data written and the length of the section in
// src. A negative length, lengths adding up to more bytes than src holds or
// than O can address, or a malformed lengths stream is an error wrapping
// [ErrCorrupt]; a short data slice wraps [ErrShortBuffer], and an empty
// offsets slice or a negative offsets[0] [ErrOutOfRange].
func DeltaLengthByteArray[O Offset](offsets []O, data, src []byte) (dataLen, consumed int, err error) {
	if len(offsets) == 0 || offsets[0] < 0 {
		return 0, 0, fmt.Errorf("%w: delta length byte array needs offsets[0] >= 0", ErrOutOfRange)
	}
	used, err := deltaLengths(offsets[1:], src)
	if err != nil {
		return 0, 0, err
	}
	total, err := lengthsToOffsets(offsets, len(src)-used)
	if err != nil {
		return 0, 0, err
	}
	base := int(offsets[0])
	if len(data)-base < total {
		return 0, 0, fmt.Errorf("%w: delta length byte array needs %d data bytes from %d, have %d", ErrShortBuffer, total, base, len(data))
	}
	copy(data[base:base+total], src[used:used+total])
	return total, used + total, nil
}

// deltaLengths decodes the DELTA_BINARY_PACKED int32 stream at the start of
// src into dst and returns the stream's length. For int64 offsets the int32
// values are decoded into the first half of dst's own memory and widened
// from the end backwards, so no value is overwritten before it is read.
func deltaLengths[O Offset](dst []O, src []byte) (int, error) {
	var o O
	if unsafe.Sizeof(o) == 4 {
		return DeltaBinaryPackedInt32(arrowmem.Cast[int32](dst), src)
	}
	narrow := arrowmem.View[int32](arrowmem.Bytes(dst))[:len(dst)]
	used, err := DeltaBinaryPackedInt32(narrow, src)
	if err != nil {
		return 0, err
	}
	for i := len(dst) - 1; i >= 0; i-- {
		dst[i] = O(narrow[i])
	}
	return used, nil
}

// lengthsToOffsets turns the lengths in offsets[1:] into running offsets
// from offsets[0] (at least zero) and returns their total, checking that no
// length is negative and that the total stays within limit bytes and the
// range of O.
func lengthsToOffsets[O Offset](offsets []O, limit int) (int, error) {
	base := int64(offsets[0])
	room := min(int64(limit), maxOffset[O]()-base)
	acc := base
	for i, l := range offsets[1:] {
		if l >= 0 && int64(l) > maxOffset[O]()-acc && int64(l) <= int64(limit)-(acc-base) {
			return 0, fmt.Errorf("%w: byte array length %d of value %d past offset %d", ErrOffsetOverflow, l, i, acc)
		}
		if l < 0 || int64(l) > room {
			return 0, fmt.Errorf("%w: byte array length %d of value %d: negative or past the %d bytes left (page holds %d, offsets reach %d)", ErrCorrupt, l, i, room, limit, maxOffset[O]())
		}
		room -= int64(l)
		acc += int64(l)
		offsets[i+1] = O(acc)
	}
	return int(acc - base), nil
}

// AppendDeltaLengthByteArray appends the DELTA_LENGTH_BYTE_ARRAY encoding of
// the len(offsets)-1 values data[offsets[i]:offsets[i+1]] to dst and
// returns the extended slice. Offsets that decrease or point outside data,
// or a value longer than math.MaxInt32 bytes, are an error wrapping
// [ErrOutOfRange].
func AppendDeltaLengthByteArray[O Offset](dst []byte, offsets []O, data []byte) ([]byte, error) {
	if err := checkOffsets(offsets, len(data)); err != nil {
		return dst, err
	}
	n := max(len(offsets)-1, 0)
	dst = appendLengths(dst, n, func(i int) uint32 { return uint32(offsets[i+1] - offsets[i]) })
	if n > 0 {
		dst = append(dst, data[offsets[0]:offsets[n]]...)
	}
	return dst, nil
}

// appendLengths appends a DELTA_BINARY_PACKED int32 stream of the n values
// length(0..n-1), computed a block at a time into a stack buffer.
func appendLengths(dst []byte, n int, length func(i int) uint32) []byte {
	var buf [deltaBlockSize]uint32
	first := uint32(0)
	if n > 0 {
		first = length(0)
	}
	dst = appendDeltaHeader(dst, n, int64(int32(first)))
	prev := first
	for i := 1; i < n; i += deltaBlockSize {
		blk := buf[:min(deltaBlockSize, n-i)]
		for j := range blk {
			blk[j] = length(i + j)
		}
		dst, prev = appendDeltaBlock(dst, blk, prev)
	}
	return dst
}

// checkOffsets reports offsets that decrease, start below zero, end past
// dataLen or describe a value longer than math.MaxInt32 bytes.
func checkOffsets[O Offset](offsets []O, dataLen int) error {
	if len(offsets) == 0 {
		return nil
	}
	if offsets[0] < 0 || int64(offsets[len(offsets)-1]) > int64(dataLen) {
		return fmt.Errorf("%w: offsets %d..%d outside %d data bytes", ErrOutOfRange, offsets[0], offsets[len(offsets)-1], dataLen)
	}
	for i := 1; i < len(offsets); i++ {
		if l := int64(offsets[i]) - int64(offsets[i-1]); l < 0 || l > 1<<31-1 {
			return fmt.Errorf("%w: value %d has length %d", ErrOutOfRange, i-1, l)
		}
	}
	return nil
}
