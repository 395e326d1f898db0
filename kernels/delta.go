package kernels

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/quiverio/quiver/internal/arrowmem"
)

// DeltaHeader is the header of a DELTA_BINARY_PACKED stream.
type DeltaHeader struct {
	// BlockSize is the number of values per block, a positive multiple of 128.
	BlockSize int
	// MiniBlocks is the number of miniblocks per block; BlockSize/MiniBlocks
	// is a multiple of 32.
	MiniBlocks int
	// Count is the total number of values in the stream. It comes from the
	// input: a stream of a few bytes may declare up to math.MaxInt32 values
	// (blocks of zero-width miniblocks), so callers compare it with the
	// value count they expect before sizing anything by it.
	Count int
	// First is the first value, zigzag-decoded. Int32 streams use its low
	// 32 bits.
	First int64
	// Len is the header's length in bytes.
	Len int
}

// ParseDeltaHeader reads the header of the DELTA_BINARY_PACKED stream at the
// start of src. A block size that is not a positive multiple of 128, a
// miniblock count that does not split blocks into multiples of 32 values, a
// count above math.MaxInt32 or a truncated or overlong varint is an error
// wrapping [ErrCorrupt].
func ParseDeltaHeader(src []byte) (DeltaHeader, error) {
	var h DeltaHeader
	pos := 0
	var f [4]uint64
	for i := range f {
		v, n := binary.Uvarint(src[pos:])
		if n <= 0 {
			return h, fmt.Errorf("%w: delta header field %d: bad varint at byte %d", ErrCorrupt, i, pos)
		}
		f[i] = v
		pos += n
	}
	bs, mb, count := f[0], f[1], f[2]
	if bs == 0 || bs%128 != 0 || bs > math.MaxInt32 {
		return h, fmt.Errorf("%w: delta block size %d is not a positive multiple of 128", ErrCorrupt, bs)
	}
	if mb == 0 || bs%mb != 0 || (bs/mb)%32 != 0 {
		return h, fmt.Errorf("%w: delta block of %d values cannot hold %d miniblocks of a multiple of 32 values", ErrCorrupt, bs, mb)
	}
	if count > math.MaxInt32 {
		return h, fmt.Errorf("%w: delta value count %d above %d", ErrCorrupt, count, math.MaxInt32)
	}
	h = DeltaHeader{BlockSize: int(bs), MiniBlocks: int(mb), Count: int(count), First: zigzag(f[3]), Len: pos}
	return h, nil
}

// DeltaBinaryPackedInt32 decodes the first len(dst) values of the
// DELTA_BINARY_PACKED stream at the start of src into dst, with 32-bit
// wrapping arithmetic, and returns the length of the whole stream in bytes
// (where whatever follows it in the page begins), walking the block headers
// of values past len(dst) without unpacking them. The stream must hold at
// least len(dst) values ([ParseDeltaHeader] reports its count).
//
// Miniblock widths above 32 are corrupt, except in miniblocks past the last
// value, which are ignored as the format requires; padding bits are never
// looked at. The last miniblock's padding may be cut short by the end of
// src, in which case the stream ends there. Errors wrap [ErrCorrupt]; dst
// may then hold partial results.
func DeltaBinaryPackedInt32(dst []int32, src []byte) (int, error) {
	u := arrowmem.Cast[uint32](dst)
	return deltaDecode(u, src, 32, unpack32, deltaPrefixSum32)
}

// DeltaBinaryPackedInt64 is [DeltaBinaryPackedInt32] for INT64 streams:
// 64-bit arithmetic, miniblock widths up to 64.
func DeltaBinaryPackedInt64(dst []int64, src []byte) (int, error) {
	u := arrowmem.Cast[uint64](dst)
	return deltaDecode(u, src, 64, unpack64, deltaPrefixSum64)
}

// deltaDecode decodes len(dst) values of bits bits each and returns the
// stream's length. unpack is given the rest of the stream after the values
// it unpacks; prefix turns a run of unpacked deltas into values.
func deltaDecode[T uint32 | uint64](dst []T, src []byte, bits uint, unpack func([]T, []byte, uint), prefix func([]T, T, T) T) (int, error) {
	h, err := ParseDeltaHeader(src)
	if err != nil {
		return 0, err
	}
	if len(dst) > h.Count {
		return 0, fmt.Errorf("%w: delta stream holds %d values, want %d", ErrCorrupt, h.Count, len(dst))
	}
	pos := h.Len
	last := T(h.First)
	filled := 0
	if len(dst) > 0 {
		dst[0] = last
		filled = 1
	}
	vpm := h.BlockSize / h.MiniBlocks
	for rem := max(h.Count-1, 0); rem > 0; {
		v, n := binary.Uvarint(src[pos:])
		if n <= 0 {
			return 0, fmt.Errorf("%w: delta block min delta: bad varint at byte %d", ErrCorrupt, pos)
		}
		minDelta := T(zigzag(v))
		pos += n
		if h.MiniBlocks > len(src)-pos {
			return 0, fmt.Errorf("%w: delta block needs %d miniblock widths at byte %d, have %d bytes", ErrCorrupt, h.MiniBlocks, pos, len(src)-pos)
		}
		widths := src[pos : pos+h.MiniBlocks]
		pos += h.MiniBlocks
		start := filled
		for m := 0; m < len(widths) && rem > 0; {
			// Miniblocks of equal width are one packed run: unpack them
			// with one call. Widths of miniblocks past the last value mean
			// nothing and are not looked at.
			w := widths[m]
			group := 1
			for m+group < len(widths) && widths[m+group] == w && group*vpm < rem {
				group++
			}
			m += group
			if uint(w) > bits {
				return 0, fmt.Errorf("%w: delta miniblock width %d above %d at byte %d", ErrCorrupt, w, bits, pos)
			}
			cnt := min(group*vpm, rem)
			rem -= cnt
			need := (cnt*int(w) + 7) / 8
			if need > len(src)-pos {
				return 0, fmt.Errorf("%w: delta miniblocks of %d values of width %d at byte %d need %d bytes, have %d", ErrCorrupt, cnt, w, pos, need, len(src)-pos)
			}
			if take := min(cnt, len(dst)-filled); take > 0 {
				// The unpackers read only bytes of src, and the bytes
				// after these values let the assembly take every block.
				unpack(dst[filled:filled+take], src[pos:], uint(w))
				filled += take
			}
			size := group * vpm / 8 * int(w)
			if size > len(src)-pos {
				if rem > 0 {
					return 0, fmt.Errorf("%w: delta miniblocks of width %d at byte %d need %d bytes, have %d", ErrCorrupt, w, pos, size, len(src)-pos)
				}
				size = len(src) - pos // the last miniblock's padding, cut short
			}
			pos += size
		}
		if filled > start {
			last = prefix(dst[start:filled], last, minDelta)
		}
	}
	return pos, nil
}

// zigzag decodes a zigzag-encoded integer.
func zigzag(v uint64) int64 { return int64(v>>1) ^ -int64(v&1) }

// Dispatch variables for the delta prefix sums; an arch init() may replace
// them once. Each sets v[i] to last plus the sum of v[0..i] and i+1 times
// minDelta, wrapping, and returns the new last value.
var (
	deltaPrefixSum32 = deltaPrefixSumGeneric[uint32]
	deltaPrefixSum64 = deltaPrefixSumGeneric[uint64]
)

// Every implementation of each prefix sum usable on this CPU, portable twin
// first, for tests.
var (
	deltaPrefixSum32Impls = []impl[func([]uint32, uint32, uint32) uint32]{{"go", deltaPrefixSumGeneric[uint32]}}
	deltaPrefixSum64Impls = []impl[func([]uint64, uint64, uint64) uint64]{{"go", deltaPrefixSumGeneric[uint64]}}
)
