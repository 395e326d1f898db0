package kernels

import (
	"encoding/binary"
	"fmt"
	"math"
)

// RLEDecoder reads a stream in Parquet's RLE/bit-packing hybrid encoding:
// dictionary indices, definition and repetition levels, and RLE-encoded
// booleans. It is a small value that never allocates; reuse one with
// [RLEDecoder.Reset]. The stream is read in place and must not change while
// the decoder uses it.
//
// Each Decode method continues where the previous call stopped, so a stream
// can be read in batches and a batch may end in the middle of a run. Runs
// are taken whole: repeated runs become fills and bit-packed runs are
// unpacked a block at a time.
//
// Input is untrusted. Run lengths are bounded by the spec's 2^31-1 and a
// repeated value must fit the bit width; runs of length zero carry no values
// and are skipped. The final bit-packed run may be shorter in the stream than
// its header declares (writers pad it to a whole group of eight values or
// drop the padding): values the bytes do not hold are an error only when they
// are asked for. A stream that ends before the values asked for yields
// [ErrCorrupt] with the byte position; a value out of the caller's bound
// yields [ErrOutOfRange].
type RLEDecoder struct {
	src   []byte
	pos   int  // offset in src of the next run header
	width uint // bits per value
	// The current run: rleLeft values of rleValue, or bpLeft values of the
	// bit-packed run whose data starts at bpData[0], of which bpPos have been
	// read and bpAvail are present in the stream (counted from the run start).
	rleLeft  int
	rleValue uint64
	bpLeft   int
	bpPos    int
	bpAvail  int
	bpData   []byte
	consumed int // values returned since Reset, for error messages
}

// Reset makes d read the stream src of values width bits wide, starting with
// its first run header. src must not carry the 4-byte length prefix that data
// page v1 levels have. Width is checked by the Decode methods, each against
// its own limit.
func (d *RLEDecoder) Reset(src []byte, width uint) {
	*d = RLEDecoder{src: src, width: width}
}

// maxRunLen is the longest run the spec allows.
const maxRunLen = math.MaxInt32

// nextRun reads the run header at d.pos and makes it the current run. want is
// the number of values the caller still needs, for the error message.
func (d *RLEDecoder) nextRun(want int) error {
	if d.pos >= len(d.src) {
		return fmt.Errorf("%w: RLE stream ends at byte %d after %d values, %d more wanted", ErrCorrupt, d.pos, d.consumed, want)
	}
	h, n := uint64(d.src[d.pos]), 1
	if h >= 0x80 {
		h, n = binary.Uvarint(d.src[d.pos:])
	}
	if n <= 0 || n > 5 || h>>1 > maxRunLen {
		return fmt.Errorf("%w: RLE run header at byte %d is not a varint of at most 2^32-1", ErrCorrupt, d.pos)
	}
	start := d.pos
	d.pos += n
	count := int(h >> 1)
	if h&1 == 0 {
		vb := int(d.width+7) / 8
		if len(d.src)-d.pos < vb {
			return fmt.Errorf("%w: RLE run at byte %d: %d-byte value cut off by the stream's end", ErrCorrupt, start, vb)
		}
		var v uint64
		for i := range vb {
			v |= uint64(d.src[d.pos+i]) << (8 * i)
		}
		if v>>d.width != 0 {
			return fmt.Errorf("%w: RLE run at byte %d repeats %d, wider than %d bits", ErrCorrupt, start, v, d.width)
		}
		d.pos += vb
		d.rleLeft, d.rleValue = count, v
		return nil
	}
	if count > maxRunLen/8 {
		return fmt.Errorf("%w: bit-packed run at byte %d declares %d groups, more than 2^31-1 values", ErrCorrupt, start, count)
	}
	// Whole groups of eight values are width bytes each.
	have, avail := len(d.src)-d.pos, count*8
	size := have
	if full := uint64(count) * uint64(d.width); full <= uint64(have) {
		size = int(full)
	} else {
		avail = int(uint64(have) * 8 / uint64(d.width))
	}
	d.bpData = d.src[d.pos : d.pos+size]
	d.pos += size
	d.bpLeft, d.bpPos, d.bpAvail = count*8, 0, avail
	return nil
}
