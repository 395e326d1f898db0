package kernels

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
)

// RLEEncoder writes Parquet's RLE/bit-packing hybrid encoding (without the
// 4-byte length prefix of data page v1 levels) for definition and repetition
// levels, dictionary indices and booleans. Reuse one with [RLEEncoder.Reset];
// it appends to the slice given there and allocates only when that slice
// runs out of capacity (size it with [MaxRLEEncodedLen] to avoid that).
//
// Runs are chosen by their encoded size: when a repeat ends, the encoder
// compares bit-packing it, an RLE run after lending the partial bit-packed
// group the values it lacks, and an RLE run after writing the partial group
// as short RLE runs, counting the header a bit-packed run needs to start
// again; so a short repeat never breaks a bit-packed run it cannot pay for. Bit-packed runs grow their
// header in place (1 byte up to 63 groups, 2 bytes up to 8191) instead of
// being cut every 63 groups.
type RLEEncoder struct {
	buf    []byte
	width  uint
	vb     int    // bytes of a repeated value
	maxV   uint64 // largest value of the width
	runVal uint64 // the pending repeated run: runLen copies of runVal
	runLen int
	part   [8]uint64 // the partial group of bit-packed values
	np     int
	litAt  int // offset in buf of the open bit-packed run's header, or -1
	litHdr int // bytes reserved for that header
	litGrp int // groups written to it
}

// maxLitGroups is the most groups a bit-packed run with a 2-byte header can
// declare.
const maxLitGroups = 1<<13 - 1

// MaxRLEEncodedLen returns an upper bound on the bytes [RLEEncoder] writes
// for n values of the given width (at most 32).
func MaxRLEEncodedLen(n int, width uint) int {
	groups := (n + 7) / 8
	return groups*int(width) + 2*(groups/maxLitGroups+1) + 5*(n/maxRunLen+1) + int(width+7)/8 + 1
}

// Reset makes e write a new stream of values width bits wide (at most 32)
// appended to dst. It returns an error wrapping [ErrOutOfRange] for a wider
// width.
func (e *RLEEncoder) Reset(dst []byte, width uint) error {
	if width > 32 {
		return fmt.Errorf("%w: RLE bit width %d above 32", ErrOutOfRange, width)
	}
	*e = RLEEncoder{buf: dst, width: width, vb: int(width+7) / 8, maxV: 1<<width - 1, litAt: -1}
	return nil
}

// PutUint32 appends values (dictionary indices, or any values of the width).
// A value wider than the width is an error wrapping [ErrOutOfRange]; the
// values before it are kept.
func (e *RLEEncoder) PutUint32(values []uint32) error { return rlePut(e, values) }

// PutLevels appends definition or repetition levels; a negative level or one
// wider than the width is an error wrapping [ErrOutOfRange], the levels
// before it being kept.
func (e *RLEEncoder) PutLevels(levels []int16) error { return rlePut(e, levels) }

// PutLevelsUint8 is [RLEEncoder.PutLevels] for levels held as bytes.
func (e *RLEEncoder) PutLevelsUint8(levels []uint8) error { return rlePut(e, levels) }

// PutBitmap appends bits [offset, offset+n) of an Arrow LSB-first bitmap as
// values of a width-1 stream (booleans, or the definition levels of a flat
// optional column from its validity bitmap).
func (e *RLEEncoder) PutBitmap(bitmap []byte, offset, n int) error {
	if e.width != 1 {
		return fmt.Errorf("%w: bitmap into an RLE stream of bit width %d, want 1", ErrOutOfRange, e.width)
	}
	if err := checkBitRange("PutBitmap", len(bitmap), offset, n); err != nil {
		return err
	}
	pos, end := uint(offset), uint(offset+n)
	for pos < end {
		v := uint64(bitmap[pos>>3] >> (pos & 7) & 1)
		// Find where the run of v ends, up to 57 bits per load.
		run := uint(0)
		for pos+run < end {
			k := min(57, end-pos-run)
			w := loadBits(bitmap, pos+run, k)
			if v == 1 {
				w = ^w
			}
			w |= ^uint64(0) << k // stop at the range's end
			z := uint(bits.TrailingZeros64(w))
			run += z
			if z < k {
				break
			}
		}
		e.putRun(v, int(run))
		pos += run
	}
	return nil
}

// rlePut appends values, one run of equal values at a time.
func rlePut[T packable](e *RLEEncoder, values []T) error {
	for i := 0; i < len(values); {
		v := values[i]
		j := i + 1
		for j < len(values) && values[j] == v {
			j++
		}
		if u := uint64(v); u > e.maxV {
			return fmt.Errorf("%w: value %d at index %d is wider than %d bits", ErrOutOfRange, v, i, e.width)
		}
		e.putRun(uint64(v), j-i)
		i = j
	}
	return nil
}

// putRun appends n copies of v, extending the pending run or settling it and
// starting a new one.
func (e *RLEEncoder) putRun(v uint64, n int) {
	if n == 0 {
		return
	}
	if e.runLen > 0 && v == e.runVal {
		e.runLen += n
		return
	}
	e.settleRun(false)
	e.runVal, e.runLen = v, n
}

// varintLen returns the bytes of the ULEB128 encoding of x.
func varintLen(x uint64) int { return (bits.Len64(x|1) + 6) / 7 }

// settleRun decides the pending run by the bytes each choice writes from
// here on: more bit-packed values; an RLE run after lending the partial
// group the values it lacks; or an RLE run after writing the partial group's
// values as RLE runs of their own (which pays when values are wide). final
// says no values follow.
func (e *RLEEncoder) settleRun(final bool) {
	n, v := e.runLen, e.runVal
	e.runLen = 0
	if n == 0 {
		return
	}
	if e.width == 0 {
		e.writeRLE(v, n) // every value is zero: one run holds them all
		return
	}
	w := int(e.width)
	lend := (8 - e.np) & 7
	// Costs in bits. Mid-stream, a choice that leaves no bit-packed run open
	// is charged the header the next one will need.
	next := 8
	if final {
		next = 0
	}
	packed := (e.np+n)*w + 8*btoi(e.litAt < 0)
	if final {
		packed = (e.np+n+7)/8*8*w + 8*btoi(e.litAt < 0)
	}
	lent := math.MaxInt
	if m := n - lend; m > 0 {
		lent = (e.np+lend)*w + 8*(varintLen(uint64(m)<<1)+e.vb) + next
		if final && e.np > 0 {
			lent = 8*w + 8*(varintLen(uint64(m)<<1)+e.vb)
		}
	}
	split := math.MaxInt
	if e.np > 0 {
		split = 8*(e.partRuns()+varintLen(uint64(n)<<1)+e.vb) + next
		if e.litGrp == 0 {
			split -= 8 // the header reserved for the partial group is given back
		}
	}
	// Ties go to bit-packing while a bit-packed run is open, to RLE otherwise.
	if e.litAt < 0 {
		packed++
	}
	switch {
	case packed <= lent && packed <= split:
		for range n {
			e.addLiteral(v)
		}
	case lent <= split:
		for range lend {
			e.addLiteral(v)
		}
		e.closeLiteral()
		e.writeRLE(v, n-lend)
	default:
		part := e.part
		np := e.np
		e.np = 0
		if e.litGrp == 0 {
			e.buf = e.buf[:e.litAt]
			e.litAt = -1
		}
		e.closeLiteral()
		for i := 0; i < np; {
			j := i + 1
			for j < np && part[j] == part[i] {
				j++
			}
			e.writeRLE(part[i], j-i)
			i = j
		}
		e.writeRLE(v, n)
	}
}

// partRuns returns the bytes the partial group's values take as RLE runs.
func (e *RLEEncoder) partRuns() int {
	size := 0
	for i := 0; i < e.np; i++ {
		if i == 0 || e.part[i] != e.part[i-1] {
			size += 1 + e.vb // runs shorter than 8 have 1-byte headers
		}
	}
	return size
}

// writeRLE appends RLE runs of n copies of v, each at most the spec's
// longest run.
func (e *RLEEncoder) writeRLE(v uint64, n int) {
	for n > 0 {
		c := min(n, maxRunLen)
		e.buf = binary.AppendUvarint(e.buf, uint64(c)<<1)
		for i := range e.vb {
			e.buf = append(e.buf, byte(v>>(8*i)))
		}
		n -= c
	}
}

// btoi returns 1 for true and 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// addLiteral adds v to the partial group, opening a bit-packed run when none
// is open and writing the group when it is full.
func (e *RLEEncoder) addLiteral(v uint64) {
	if e.litAt < 0 {
		e.litAt, e.litHdr, e.litGrp = len(e.buf), 1, 0
		e.buf = append(e.buf, 0)
	}
	e.part[e.np] = v
	e.np++
	if e.np == 8 {
		e.writeGroup()
	}
}

// writeGroup bit-packs the partial group (zero-padded) into the open run,
// widening its header from 1 to 2 bytes at the 64th group and closing it
// at the largest count a 2-byte header holds.
func (e *RLEEncoder) writeGroup() {
	if e.litGrp == 1<<6-1 {
		e.buf = append(e.buf, 0)
		copy(e.buf[e.litAt+2:], e.buf[e.litAt+1:len(e.buf)-1])
		e.litHdr = 2
	}
	clear(e.part[e.np:])
	at := len(e.buf)
	e.buf = append(e.buf, make([]byte, e.width)...)
	packTail(e.buf[at:], e.part[:], e.width)
	e.np = 0
	e.litGrp++
	if e.litGrp == maxLitGroups {
		e.closeLiteral()
	}
}

// closeLiteral writes the open bit-packed run's header into the bytes
// reserved for it. The partial group must be empty.
func (e *RLEEncoder) closeLiteral() {
	if e.litAt < 0 {
		return
	}
	h := uint64(e.litGrp)<<1 | 1
	if e.litHdr == 1 {
		e.buf[e.litAt] = byte(h)
	} else {
		e.buf[e.litAt] = byte(h) | 0x80
		e.buf[e.litAt+1] = byte(h >> 7)
	}
	e.litAt = -1
}

// Flush ends the stream, padding a partial bit-packed group with zeros, and
// returns the slice given to [RLEEncoder.Reset] with the stream appended.
// Call Reset before writing another stream.
func (e *RLEEncoder) Flush() []byte {
	e.settleRun(true)
	if e.np > 0 {
		e.writeGroup()
	}
	e.closeLiteral()
	return e.buf
}
