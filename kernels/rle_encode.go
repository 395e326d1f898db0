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
// The encoder buffers the runs of equal values it is given and plans how to
// write them with the fewest bytes: for each run it weighs bit-packing it,
// an RLE run after lending the open bit-packed group the values it lacks,
// and such an RLE run followed by up to seven values that start a new
// bit-packed run, across a window of 512 runs (a dynamic program over where
// bit-packed groups start). A short repeat therefore never breaks a
// bit-packed run it cannot pay for, and a lone wide value between repeats is
// written as an RLE run when that is cheaper. Bit-packed runs grow their
// header in place (1 byte up to 63 groups, 2 bytes up to 8191) instead of
// being cut every 63 groups.
type RLEEncoder struct {
	buf    []byte
	width  uint
	vb     int                  // bytes of a repeated value
	maxV   uint64               // largest value of the width
	runs   [rleWindow]rleRunLen // runs not yet written, the last still growing
	nr     int
	choice [rleWindow][rleStates]rleStep // the planner's back-pointers
	part   [8]uint64                     // the partial group of bit-packed values
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
	// Field by field: the run window and the planner's table need no clearing.
	e.buf, e.width, e.vb, e.maxV = dst, width, int(width+7)/8, 1<<width-1
	e.nr, e.np, e.litAt, e.litHdr, e.litGrp = 0, 0, -1, 0, 0
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

// putRun appends n copies of v, extending the last buffered run or starting
// a new one, planning and writing the older half of the window when full.
func (e *RLEEncoder) putRun(v uint64, n int) {
	if n == 0 {
		return
	}
	if e.nr > 0 && e.runs[e.nr-1].v == v {
		e.runs[e.nr-1].n += n
		return
	}
	if e.nr == rleWindow {
		e.plan(false)
	}
	e.runs[e.nr] = rleRunLen{v, n}
	e.nr++
}

// rleWindow is how many runs the encoder plans over at once. Each time the
// window fills it writes all but the newest rleLookahead runs, whose plan
// may still change with the runs that follow.
const (
	rleWindow    = 512
	rleLookahead = 128
)

// rleStates are the planner's states between runs: 0 when no bit-packed run
// is open, 1+p when one is open with p values in its partial group.
const rleStates = 9

// rleRunLen is a run of n copies of v.
type rleRunLen struct {
	v uint64
	n int
}

// rleStep records how the planner reached a state after a run: from which
// state, bit-packing the whole run (rle false), or lending the partial
// group what it lacks, an RLE run, and then tail values opening a new
// bit-packed run.
type rleStep struct {
	from int8
	rle  bool
	tail int8
}

// varintLen returns the bytes of the ULEB128 encoding of x.
func varintLen(x uint64) int { return (bits.Len64(x|1) + 6) / 7 }

// plan chooses how to write the buffered runs with the fewest bytes (a
// dynamic program over the nine states) and
// writes them: all of them when final, otherwise all but the newest
// rleLookahead, along the path of the cheapest plan for the whole window.
func (e *RLEEncoder) plan(final bool) {
	if e.nr == 0 {
		return
	}
	if e.width == 0 {
		// Every value is zero: RLE runs cost only their headers.
		for _, r := range e.runs[:e.nr] {
			e.writeRLE(r.v, r.n)
		}
		e.nr = 0
		return
	}
	const inf = math.MaxInt / 2
	// Costs are in 63rds of a bit. A bit-packed value also carries 1/64 of
	// a header byte: a run's header grows by a byte after 63 groups, and
	// the planner cannot see how long runs get.
	w, hdr := 63*int(e.width)+1, 63*8
	rle := func(m int) int { return 63 * 8 * (varintLen(uint64(m)<<1) + e.vb) }
	var cost [rleStates]int
	for i := range cost {
		cost[i] = inf
	}
	start := 0
	if e.litAt >= 0 {
		start = 1 + e.np
	}
	cost[start] = 0
	for i, r := range e.runs[:e.nr] {
		var next [rleStates]int
		for j := range next {
			next[j] = inf
		}
		steps := &e.choice[i]
		try := func(to, c int, st rleStep) {
			if c < next[to] {
				next[to], steps[to] = c, st
			}
		}
		L := r.n
		for s, c := range cost {
			if c == inf {
				continue
			}
			k, p, open := 0, 0, 0
			if s > 0 {
				p = s - 1
				k = (8 - p) & 7
			} else {
				open = hdr
			}
			from := int8(s)
			try(1+(p+L)%8, c+open+L*w, rleStep{from: from})
			if L > k {
				base := c + k*w
				try(0, base+rle(L-k), rleStep{from: from, rle: true})
				for t := 1; t <= 7 && t < L-k; t++ {
					try(1+t, base+rle(L-k-t)+hdr+t*w, rleStep{from: from, rle: true, tail: int8(t)})
				}
			}
		}
		cost = next
	}
	best, bestCost := 0, inf
	for s, c := range cost {
		if final && s > 1 {
			c += (9 - s) * w // padding the partial group
		}
		if c < bestCost {
			best, bestCost = s, c
		}
	}
	// Walk back to find the state after each run on the chosen path.
	var states [rleWindow + 1]int8
	states[e.nr] = int8(best)
	for i := e.nr - 1; i >= 0; i-- {
		states[i] = e.choice[i][states[i+1]].from
	}
	commit := e.nr
	if !final {
		commit = e.nr - rleLookahead
	}
	for i, r := range e.runs[:commit] {
		st := e.choice[i][states[i+1]]
		if !st.rle {
			for range r.n {
				e.addLiteral(r.v)
			}
			continue
		}
		lend := 0
		if st.from > 0 {
			lend = (9 - int(st.from)) & 7
		}
		for range lend {
			e.addLiteral(r.v)
		}
		e.closeLiteral()
		e.writeRLE(r.v, r.n-lend-int(st.tail))
		for range st.tail {
			e.addLiteral(r.v)
		}
	}
	e.nr = copy(e.runs[:], e.runs[commit:e.nr])
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
	e.plan(true)
	if e.np > 0 {
		e.writeGroup()
	}
	e.closeLiteral()
	return e.buf
}
