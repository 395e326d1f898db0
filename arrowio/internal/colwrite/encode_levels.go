package colwrite

import (
	"encoding/binary"

	"github.com/quiverio/quiver/kernels"
)

// defBitmap collects the definition levels of a flat optional column's
// page: bit i is 1 when slot i holds a value. With a maximum level of 1 the
// levels are a bit-width-1 RLE/bit-packing hybrid stream, whose bit-packed
// groups are exactly bitmap bytes, so encoding copies bytes and turns runs
// of whole 0x00 or 0xff bytes into RLE runs.
type defBitmap struct {
	bits []byte
	n    int
}

// reset empties the bitmap.
func (d *defBitmap) reset() {
	clear(d.bits[:(d.n+7)/8])
	d.n = 0
}

// add appends bits [off, off+n) of valid (every bit 1 when valid is nil).
func (d *defBitmap) add(valid []byte, off, n int) error {
	if need := (d.n + n + 7) / 8; need > len(d.bits) {
		d.bits = append(d.bits, make([]byte, max(need, 2*len(d.bits))-len(d.bits))...)
	}
	var err error
	if valid == nil {
		err = kernels.FillBits(d.bits, d.n, n, true)
	} else {
		err = kernels.CopyBits(d.bits, d.n, valid, off, n)
	}
	d.n += n
	return err
}

// minLevelRun is the fewest whole bytes of equal levels written as an RLE
// run (2 or 3 bytes) instead of bit-packed.
const minLevelRun = 4

// appendRLE appends the levels in the hybrid encoding (without a length
// prefix).
func (d *defBitmap) appendRLE(dst []byte) []byte { return AppendBitsRLE(dst, d.bits, d.n) }

// AppendBitsRLE appends the first n bits of the LSB-first bitmap b as a
// bit-width-1 RLE/bit-packing hybrid stream: runs of at least minLevelRun
// whole 0x00 or 0xff bytes become RLE runs, other bytes bit-packed groups.
// Bits of b past n are cleared.
func AppendBitsRLE(dst, b []byte, n int) []byte {
	b = b[:(n+7)/8]
	if n%8 != 0 {
		// The last group's padding must not extend a run of ones.
		b[len(b)-1] &= byte(1)<<(n%8) - 1
	}
	lit := 0 // first byte not yet written
	for i := 0; i < len(b); {
		v := b[i]
		j := i + 1
		if v == 0 || v == 0xff {
			for j < len(b) && b[j] == v {
				j++
			}
		}
		if j-i >= minLevelRun {
			dst = appendGroups(dst, b[lit:i])
			// A run reaching the last byte stops at the last bit.
			dst = binary.AppendUvarint(dst, uint64(min(8*(j-i), n-8*i))<<1)
			dst = append(dst, v&1)
			lit = j
		}
		i = j
	}
	return appendGroups(dst, b[lit:])
}

// appendGroups appends bytes of levels as one bit-packed run of width 1.
func appendGroups(dst, groups []byte) []byte {
	if len(groups) == 0 {
		return dst
	}
	dst = binary.AppendUvarint(dst, uint64(len(groups))<<1|1)
	return append(dst, groups...)
}
