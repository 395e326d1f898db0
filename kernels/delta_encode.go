package kernels

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/quiverio/quiver/internal/arrowmem"
)

// The encoder writes blocks of 128 values in 4 miniblocks of 32, the shape
// most writers use, each miniblock at the smallest width that holds it.
const (
	deltaBlockSize  = 128
	deltaMiniBlocks = 4
	deltaMiniSize   = deltaBlockSize / deltaMiniBlocks
)

// DeltaBinaryPackedBound returns the most bytes the DELTA_BINARY_PACKED
// encoders can write for n values of the given bit size (32 or 64), so that
// a caller can size the destination once and append without allocating.
func DeltaBinaryPackedBound(n int, bitSize int) int {
	const header = 2 + 1 + binary.MaxVarintLen64 + binary.MaxVarintLen64
	blocks := (max(n-1, 0) + deltaBlockSize - 1) / deltaBlockSize
	return header + blocks*(binary.MaxVarintLen64+deltaMiniBlocks+deltaBlockSize*bitSize/8)
}

// AppendDeltaBinaryPackedInt32 appends the DELTA_BINARY_PACKED encoding of
// values (32-bit wrapping deltas) to dst and returns the extended slice. It
// allocates only when dst lacks the capacity [DeltaBinaryPackedBound] gives.
func AppendDeltaBinaryPackedInt32(dst []byte, values []int32) []byte {
	return appendDelta(dst, arrowmem.Cast[uint32](values))
}

// AppendDeltaBinaryPackedInt64 is [AppendDeltaBinaryPackedInt32] for INT64
// values.
func AppendDeltaBinaryPackedInt64(dst []byte, values []int64) []byte {
	return appendDelta(dst, arrowmem.Cast[uint64](values))
}

// appendDelta appends the encoding of vals.
func appendDelta[T uint32 | uint64](dst []byte, vals []T) []byte {
	first := T(0)
	if len(vals) > 0 {
		first = vals[0]
	}
	dst = appendDeltaHeader(dst, len(vals), signExtend(first))
	prev := first
	for i := 1; i < len(vals); i += deltaBlockSize {
		dst, prev = appendDeltaBlock(dst, vals[i:min(i+deltaBlockSize, len(vals))], prev)
	}
	return dst
}

// appendDeltaHeader appends the header of a stream of n values.
func appendDeltaHeader(dst []byte, n int, first int64) []byte {
	dst = binary.AppendUvarint(dst, deltaBlockSize)
	dst = binary.AppendUvarint(dst, deltaMiniBlocks)
	dst = binary.AppendUvarint(dst, uint64(n))
	return appendZigzag(dst, first)
}

// appendDeltaBlock encodes one block of at most deltaBlockSize values
// following prev and returns the last value. It packs with the portable
// packers, called directly so that its scratch stays on the stack.
func appendDeltaBlock[T uint32 | uint64](dst []byte, vals []T, prev T) ([]byte, T) {
	var deltas [deltaBlockSize]T
	vals = vals[:min(len(vals), deltaBlockSize)]
	// Compare deltas as signed numbers by flipping the sign bit.
	sign := ^(^T(0) >> 1)
	minFlip := ^T(0)
	for i, v := range vals {
		d := v - prev
		prev = v
		deltas[i] = d
		minFlip = min(minFlip, d^sign)
	}
	minDelta := minFlip ^ sign
	var widths [deltaMiniBlocks]byte
	for m := range widths {
		var or T
		for j := m * deltaMiniSize; j < min((m+1)*deltaMiniSize, len(vals)); j++ {
			deltas[j] -= minDelta
			or |= deltas[j]
		}
		widths[m] = byte(bits.Len64(uint64(or)))
	}
	dst = appendZigzag(dst, signExtend(minDelta))
	dst = append(dst, widths[:]...)
	for m, w := range widths {
		if m*deltaMiniSize >= len(vals) {
			break // unused miniblocks take no bytes
		}
		size := deltaMiniSize / 8 * int(w)
		dst = slices.Grow(dst, size)
		out := dst[len(dst) : len(dst)+size]
		// deltas past len(vals) are zero: the last miniblock's padding.
		mini := deltas[m*deltaMiniSize : (m+1)*deltaMiniSize]
		if unsafe.Sizeof(prev) == 4 {
			packGeneric(out, arrowmem.Cast[uint32](mini), uint(w))
		} else {
			pack64Generic(out, arrowmem.Cast[uint64](mini), uint(w))
		}
		dst = dst[:len(dst)+size]
	}
	return dst, prev
}

// signExtend widens a 32- or 64-bit two's complement value to int64.
func signExtend[T uint32 | uint64](v T) int64 {
	shift := 64 - 8*uint(unsafe.Sizeof(v))
	return int64(uint64(v)<<shift) >> shift
}

// appendZigzag appends v zigzag-encoded as a ULEB128 varint.
func appendZigzag(dst []byte, v int64) []byte {
	return binary.AppendUvarint(dst, uint64(v<<1)^uint64(v>>63))
}
