package colread

import (
	"encoding/binary"
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/internal/arrowmem"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/kernels"
)

// colOut holds the Arrow buffers one flat leaf decodes into for one batch:
// n slots, each a value or a null.
//
// Value decoders write the non-null values of a run of slots densely at the
// run's first slot; the leaf reader then spreads them over the run's valid
// slots (see spread). Every byte of every buffer is written before the
// array is built, since allocators do not zero memory.
type colOut struct {
	t        *target
	n        int            // slots in the array built
	slots    int            // slots the buffers hold so far (see grow)
	validity *memory.Buffer // nil for required leaves
	values   *memory.Buffer // fixed: n*width bytes; bool: bitmap; binary: n+1 offsets
	data     *memory.Buffer // binary value bytes
	dataLen  int
	nulls    int
	mem      memory.Allocator
	// Dictionary targets: dict is the chunk's dictionary (a reference this
	// colOut owns, or nil), and extra holds the values of pages that were
	// not dictionary-encoded, extraN of them, indexed after dict's values.
	dict   arrow.Array
	extra  *colOut
	extraN int
}

// newColOut allocates the buffers of a batch of n slots of t from mem, at
// first for only slots of them (see grow), with room for dataHint bytes of
// binary data to start with.
func newColOut(mem memory.Allocator, t *target, n, slots int, nullable bool, dataHint int) *colOut {
	o := new(colOut)
	o.init(mem, t, n, slots, nullable, dataHint)
	return o
}

// init is newColOut into o, a colOut not in use (the one a leaf reader
// keeps for its batches, so that a file of many small chunks does not
// allocate one per chunk).
func (o *colOut) init(mem memory.Allocator, t *target, n, slots int, nullable bool, dataHint int) {
	*o = colOut{t: t, n: n, mem: mem}
	if nullable {
		o.validity = memory.NewResizableBuffer(mem)
	}
	switch t.kind {
	case fixedTarget, dictTarget, boolTarget:
		o.values = memory.NewResizableBuffer(mem)
	case binaryTarget:
		o.values = memory.NewResizableBuffer(mem)
		o.data = memory.NewResizableBuffer(mem)
		o.data.Reserve(dataHint)
	}
	o.resize(min(n, slots))
	if t.kind == binaryTarget {
		if t.large {
			offsets64(o)[0] = 0
		} else {
			offsets32(o)[0] = 0
		}
	}
}

// firstSlots is the fewest slots a batch's buffers start with or grow by.
const firstSlots = 1 << 16

// batchSlots is how many of a batch's n slots to allocate before any value
// is decoded, for a column chunk of chunkBytes bytes: all of them, up to 64
// per byte of the chunk. Declared row counts are not trusted further, so a
// file that lies about them makes the reader allocate no more than a
// multiple of its size before decoding shows otherwise; honest chunks of
// very compressible values grow their buffers as they decode (see grow).
func batchSlots(n, chunkBytes int) int {
	return min(n, max(firstSlots, 64*chunkBytes))
}

// grow makes the buffers hold at least m of the batch's slots (m <= o.n),
// growing them geometrically and keeping their contents.
func (o *colOut) grow(m int) {
	if m > o.slots {
		o.resize(min(o.n, max(m, 2*o.slots)))
	}
}

// growStep returns how many of the k slots from at the buffers can take
// after growing them by at most their size again (and at least
// firstSlots), so that a batch allocates in step with the values it has
// decoded rather than with the page sizes the file declares.
func (o *colOut) growStep(at, k int) int {
	if at+k > o.slots {
		o.grow(min(at+k, 2*o.slots+firstSlots))
	}
	return min(k, o.slots-at)
}

// resize sets the buffers to hold slots slots, keeping their contents (and
// their memory when they shrink).
func (o *colOut) resize(slots int) {
	o.slots = slots
	if o.validity != nil {
		o.validity.ResizeNoShrink(int(bitutil.BytesForBits(int64(slots))))
	}
	switch o.t.kind {
	case fixedTarget, dictTarget:
		o.values.ResizeNoShrink(slots * o.t.width)
	case boolTarget:
		o.values.ResizeNoShrink(int(bitutil.BytesForBits(int64(slots))))
	case binaryTarget:
		w := 4
		if o.t.large {
			w = 8
		}
		o.values.ResizeNoShrink((slots + 1) * w)
	}
}

// release frees the buffers; the colOut is not used afterwards.
func (o *colOut) release() {
	for _, b := range []*memory.Buffer{o.validity, o.values, o.data} {
		if b != nil {
			b.Release()
		}
	}
	if o.dict != nil {
		o.dict.Release()
	}
	if o.extra != nil {
		o.extra.release()
	}
	*o = colOut{}
}

// growData makes room for extra more bytes of binary data after dataLen,
// at least doubling the buffer when it grows, and returns the data bytes
// with that room (plus dataSlack bytes the byte-array kernels may
// overwrite past their last value).
func (o *colOut) growData(extra int) []byte {
	need := o.dataLen + extra + dataSlack
	if need > o.data.Cap() {
		c := need // with nothing to keep, no more than asked
		if o.dataLen > 0 {
			c = max(need, 2*o.data.Cap())
		}
		o.reserveData(c)
	}
	if need > o.data.Len() {
		o.data.Resize(min(o.data.Cap(), max(need, 2*o.data.Len())))
	}
	return o.data.Bytes()
}

// dataRoom returns the bytes of binary data that fit after dataLen
// without growing the buffer (keeping dataSlack spare).
func (o *colOut) dataRoom() int { return max(o.data.Cap()-o.dataLen-dataSlack, 0) }

// dataSlack is the room past the data of a binary colOut that the
// byte-array kernels may overwrite: the most any of them writes past its
// last value (kernels.GatherSlack; the plain and delta decoders write 16).
const dataSlack = kernels.GatherSlack

// growDataFor is growData for a write that leaves the slots before filled
// decoded: when the buffer must grow, it grows at least to what all the
// buffers' slots need at the rate of bytes per slot so far, so that a
// batch decoded in many pieces copies its data about once rather than at
// every doubling.
func (o *colOut) growDataFor(extra, filled int) []byte {
	if need := o.dataLen + extra + dataSlack; need > o.data.Cap() && filled > 0 && filled < o.slots {
		rate := float64(o.dataLen+extra) / float64(filled)
		o.reserveData(max(need, int(min(rate*float64(o.slots)*1.05, 1<<31))+dataSlack))
	}
	return o.growData(extra)
}

// reserveData gives the binary data buffer room for c bytes, moving the
// dataLen bytes decoded so far into a new buffer when it grows. Only
// those are copied: memory.Buffer.Reserve would copy the old buffer
// whole, and the first guess at a batch's data (LeafReader.dataHint),
// which falls short of a dictionary's values, before any was written.
func (o *colOut) reserveData(c int) {
	if c <= o.data.Cap() {
		return
	}
	old := o.data
	o.data = memory.NewResizableBuffer(o.mem)
	o.data.Reserve(c)
	copy(o.data.Buf(), old.Bytes()[:o.dataLen])
	old.Release()
}

// offsets32 and offsets64 view the offsets buffer of a binary colOut.
func offsets32(o *colOut) []int32 { return arrow.Int32Traits.CastFromBytes(o.values.Bytes()) }
func offsets64(o *colOut) []int64 { return arrow.Int64Traits.CastFromBytes(o.values.Bytes()) }

// finish builds the Arrow array and releases the colOut's own references.
func (o *colOut) finish() arrow.Array {
	defer o.release()
	var validity *memory.Buffer
	if o.validity != nil && o.nulls > 0 {
		validity = o.validity
		kernels.ClearBitsFrom(validity.Bytes(), o.n)
	}
	if o.t.kind == boolTarget {
		kernels.ClearBitsFrom(o.values.Bytes(), o.n)
	}
	var bufs []*memory.Buffer
	switch o.t.kind {
	case nullTarget:
		bufs = []*memory.Buffer{nil}
		o.nulls = o.n
	case fixedTarget, boolTarget:
		bufs = []*memory.Buffer{validity, o.values}
	case binaryTarget:
		o.data.ResizeNoShrink(o.dataLen)
		if o.t.view {
			views := o.views()
			defer views.Release()
			bufs = []*memory.Buffer{validity, views, o.data}
			break
		}
		bufs = []*memory.Buffer{validity, o.values, o.data}
	case dictTarget:
		// buildDictionary ran before finish.
		data := array.NewDataWithDictionary(o.t.typ, o.n, []*memory.Buffer{validity, o.values}, o.nulls, 0, o.dict.Data().(*array.Data))
		defer data.Release()
		return array.MakeFromData(data)
	}
	data := array.NewData(o.t.typ, o.n, bufs, nil, o.nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// spread moves the k dense values written at slot at over the slots
// [at, at+n) whose validity bit is set, in place, and fills null slots with
// zeros (fixed widths), false (booleans) or empty values (binary).
func (o *colOut) spread(at, n, k int) error {
	if k == n {
		return nil
	}
	valid := o.validity.Bytes()
	var err error
	switch o.t.kind {
	case fixedTarget, dictTarget:
		err = spreadFixed(o.values.Bytes(), o.t.width, valid, at, n, k)
	case boolTarget:
		_, err = kernels.SpreadBits(o.values.Bytes(), at, n, valid)
	case binaryTarget:
		if o.t.large {
			off := offsets64(o)
			_, err = kernels.SpreadOffsets(off[at:at+n+1], off[at:at+k+1], valid, at)
		} else {
			off := offsets32(o)
			_, err = kernels.SpreadOffsets(off[at:at+n+1], off[at:at+k+1], valid, at)
		}
	}
	return err
}

// spreadFixed is spread for values of w bytes, through kernels.Spread for
// the widths Arrow types have and a plain loop for other
// FIXED_LEN_BYTE_ARRAY widths.
func spreadFixed(vals []byte, w int, valid []byte, at, n, k int) error {
	run := vals[at*w : (at+n)*w]
	var err error
	switch w {
	case 1:
		_, err = kernels.Spread(run, run[:k], valid, at)
	case 2:
		err = spreadAs[[2]byte](run, k, valid, at)
	case 4:
		err = spreadAs[uint32](run, k, valid, at)
	case 8:
		err = spreadAs[uint64](run, k, valid, at)
	case 12:
		err = spreadAs[[12]byte](run, k, valid, at)
	case 16:
		err = spreadAs[[16]byte](run, k, valid, at)
	case 32:
		err = spreadAs[[32]byte](run, k, valid, at)
	default:
		j := k - 1
		for i := n - 1; i >= 0 && j < i; i-- {
			d := run[i*w : i*w+w]
			if bitutil.BitIsSet(valid, at+i) {
				copy(d, run[j*w:j*w+w])
				j--
			} else {
				clear(d)
			}
		}
	}
	return err
}

// spreadAs runs kernels.Spread over run viewed as values of type T.
func spreadAs[T any](run []byte, k int, valid []byte, at int) error {
	v := arrowmem.ViewCap[T](run)
	_, err := kernels.Spread(v, v[:k], valid, at)
	return err
}

// errShortPage reports a values section that ran out.
func errShortPage(what string, need, have int) error {
	return fmt.Errorf("%w: %s needs %d bytes, the page has %d left", errs.ErrCorrupt, what, need, have)
}

// views builds the 16-byte views of a string_view or binary_view array
// from the decoded offsets: values of up to 12 bytes are inlined, longer
// ones keep a 4-byte prefix and point into data, buffer 0.
func (o *colOut) views() *memory.Buffer {
	buf := memory.NewResizableBuffer(o.mem)
	buf.Resize(o.n * arrow.ViewHeaderSizeBytes)
	v := buf.Bytes()
	clear(v)
	off := offsets32(o)
	data := o.data.Bytes()
	for i := range o.n {
		s, e := off[i], off[i+1]
		h := v[i*arrow.ViewHeaderSizeBytes : (i+1)*arrow.ViewHeaderSizeBytes]
		binary.LittleEndian.PutUint32(h, uint32(e-s))
		if arrow.IsViewInline(int(e - s)) {
			copy(h[4:], data[s:e])
			continue
		}
		copy(h[4:8], data[s:s+arrow.ViewPrefixLen])
		binary.LittleEndian.PutUint32(h[12:], uint32(s)) // buffer index 0 at h[8:12]
	}
	return buf
}
