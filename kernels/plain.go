package kernels

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/quiverio/quiver/internal/arrowmem"
)

// Word is the set of types PLAIN stores as 4- or 8-byte little-endian words:
// INT32 and FLOAT (and UINT_32 annotations), INT64 and DOUBLE (and UINT_64).
type Word interface {
	~int32 | ~uint32 | ~float32 | ~int64 | ~uint64 | ~float64
}

// Narrow is the set of types INT32 columns annotated INT(8/16, signed or
// not) decode into.
type Narrow interface {
	~int8 | ~uint8 | ~int16 | ~uint16
}

// hostLittleEndian reports whether memory holds words least significant
// byte first, in which case PLAIN words are a straight copy.
var hostLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// PlainDecode decodes len(dst) PLAIN values from src into dst and returns
// the bytes used: INT32 into []int32 (or []uint32 for UINT_32), INT64 into
// []int64 (or []uint64), FLOAT into []float32, DOUBLE into []float64. On
// little-endian hosts this is one copy. Too few bytes in src is an error
// wrapping [ErrCorrupt].
func PlainDecode[T Word](dst []T, src []byte) (int, error) {
	size := int(unsafe.Sizeof(T(0)))
	need, err := plainNeed(len(dst), size, len(src))
	if err != nil {
		return 0, err
	}
	raw := arrowmem.Bytes(dst)
	copy(raw, src[:need])
	if !hostLittleEndian {
		swapBytes(raw, size)
	}
	return need, nil
}

// PlainDecodeInt32To decodes len(dst) PLAIN INT32 values from src into the
// narrower dst, keeping each value's low bits as the INT(8/16) logical
// types require, and returns the bytes used. Too few bytes in src is an
// error wrapping [ErrCorrupt]. (UINT_32 is [PlainDecode] into []uint32.)
func PlainDecodeInt32To[T Narrow](dst []T, src []byte) (int, error) {
	need, err := plainNeed(len(dst), 4, len(src))
	if err != nil {
		return 0, err
	}
	src = src[:need]
	for i := range dst {
		dst[i] = T(binary.LittleEndian.Uint32(src[4*i:]))
	}
	return need, nil
}

// PlainFixedLenByteArray copies PLAIN FIXED_LEN_BYTE_ARRAY values of width
// bytes (INT96 values are width 12) from src into dst, len(dst)/width of
// them, and returns the bytes used. A width below 1 or a dst that is not a
// whole number of values wraps [ErrOutOfRange]; too few bytes in src
// [ErrCorrupt].
func PlainFixedLenByteArray(dst, src []byte, width int) (int, error) {
	if width <= 0 || len(dst)%width != 0 {
		return 0, fmt.Errorf("%w: plain: %d bytes are not whole %d-byte values", ErrOutOfRange, len(dst), width)
	}
	need, err := plainNeed(len(dst)/width, width, len(src))
	if err != nil {
		return 0, err
	}
	return copy(dst, src[:need]), nil
}

// PlainBoolean copies n PLAIN BOOLEAN values (bit-packed, least significant
// bit first, as Arrow bitmaps are) from src into bits [offset, offset+n) of
// the bitmap dst, leaving its other bits alone, and returns the bytes used,
// (n+7)/8. Too few bytes in src is an error wrapping [ErrCorrupt]; a dst too
// small for the bits, [ErrShortBuffer].
func PlainBoolean(dst []byte, offset, n int, src []byte) (int, error) {
	if n < 0 || (n+7)/8 > len(src) {
		return 0, fmt.Errorf("%w: plain: %d booleans need %d bytes, have %d", ErrCorrupt, n, (max(n, 0)+7)/8, len(src))
	}
	if err := CopyBits(dst, offset, src, 0, n); err != nil {
		return 0, err
	}
	return (n + 7) / 8, nil
}

// AppendPlain appends the PLAIN encoding of src (little-endian words) to
// dst and returns the extended slice.
func AppendPlain[T Word](dst []byte, src []T) []byte {
	size := int(unsafe.Sizeof(T(0)))
	start := len(dst)
	dst = append(dst, arrowmem.Bytes(src)...)
	if !hostLittleEndian {
		swapBytes(dst[start:], size)
	}
	return dst
}

// AppendPlainInt32From appends the PLAIN INT32 encoding of narrow values
// (sign- or zero-extended as their type says) to dst.
func AppendPlainInt32From[T Narrow](dst []byte, src []T) []byte {
	for _, v := range src {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(int32(v)))
	}
	return dst
}

// AppendPlainFixedLenByteArray appends the PLAIN encoding of
// FIXED_LEN_BYTE_ARRAY (or INT96, width 12) values, the bytes themselves,
// to dst. A width below 1 or values that are not a whole number of widths
// wrap [ErrOutOfRange].
func AppendPlainFixedLenByteArray(dst, values []byte, width int) ([]byte, error) {
	if width <= 0 || len(values)%width != 0 {
		return dst, fmt.Errorf("%w: plain: %d bytes are not whole %d-byte values", ErrOutOfRange, len(values), width)
	}
	return append(dst, values...), nil
}

// AppendPlainBoolean appends the PLAIN encoding of bits [offset, offset+n)
// of the bitmap src to dst: (n+7)/8 bytes, least significant bit first,
// unused high bits of the last byte zero. A range outside src wraps
// [ErrShortBuffer].
func AppendPlainBoolean(dst, src []byte, offset, n int) ([]byte, error) {
	if err := checkBitRange("AppendPlainBoolean", len(src), offset, n); err != nil {
		return dst, err
	}
	start := len(dst)
	dst = append(dst, make([]byte, (n+7)/8)...)
	copyBits(dst[start:], 0, src, uint(offset), uint(n))
	return dst, nil
}

// plainNeed returns n*size, checked against have.
func plainNeed(n, size, have int) (int, error) {
	if n > have/size {
		return 0, fmt.Errorf("%w: plain: %d values of %d bytes need %d bytes, have %d", ErrCorrupt, n, size, uint64(n)*uint64(size), have)
	}
	return n * size, nil
}

// swapBytes reverses the bytes of every size-byte word of b: on big-endian
// hosts it turns little-endian words into native ones and back.
func swapBytes(b []byte, size int) {
	for i := 0; i+size <= len(b); i += size {
		w := b[i : i+size]
		for j, k := 0, size-1; j < k; j, k = j+1, k-1 {
			w[j], w[k] = w[k], w[j]
		}
	}
}

// Offset is the type of Arrow offsets: int32 for String/Binary, int64 for
// LargeString/LargeBinary. Value i of an offsets+data pair is
// data[offsets[i]:offsets[i+1]].
type Offset interface{ int32 | int64 }

// maxOffset returns the largest value an O can hold.
func maxOffset[O Offset]() int64 {
	var o O
	return int64(^uint64(0) >> (65 - 8*unsafe.Sizeof(o)))
}
