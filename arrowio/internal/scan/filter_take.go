package scan

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/kernels"
	"github.com/quiverio/quiver/pageindex"
)

// gatherRanges copies the rows at positions from a flat array of fixed
// width, booleans or binary values with 32- or 64-bit offsets into a new
// array of rows rows, range by range: a run of rows costs one copy,
// however short. It returns false for other layouts (nested, dictionary,
// view and null types), which TakeRanges slices and concatenates instead.
func gatherRanges(arr arrow.Array, positions pageindex.Ranges, rows int, mem memory.Allocator) (arrow.Array, bool) {
	d := arr.Data()
	dt := arr.DataType()
	bufs := d.Buffers()
	off := int64(d.Offset())
	var out []*memory.Buffer
	switch dt.ID() {
	case arrow.DICTIONARY, arrow.EXTENSION, arrow.NULL, arrow.RUN_END_ENCODED:
		return nil, false
	case arrow.BOOL:
		vals, ok := gatherBits(bufs[1].Bytes(), off, positions, rows, mem)
		if !ok {
			return nil, false
		}
		out = []*memory.Buffer{nil, vals}
	case arrow.STRING, arrow.BINARY:
		out = gatherBinary(arrow.Int32Traits.CastFromBytes(bufs[1].Bytes()), bufs[2], positions, rows, off, mem, arrow.Int32Traits.CastFromBytes)
	case arrow.LARGE_STRING, arrow.LARGE_BINARY:
		out = gatherBinary(arrow.Int64Traits.CastFromBytes(bufs[1].Bytes()), bufs[2], positions, rows, off, mem, arrow.Int64Traits.CastFromBytes)
	default:
		fw, ok := dt.(arrow.FixedWidthDataType)
		if !ok || fw.BitWidth()%8 != 0 || len(bufs) != 2 {
			return nil, false
		}
		w := int64(fw.BitWidth() / 8)
		vals := memory.NewResizableBuffer(mem)
		vals.Resize(rows * int(w))
		src, dst := bufs[1].Bytes(), vals.Bytes()
		at := int64(0)
		for _, s := range positions {
			at += int64(copy(dst[at:], src[(off+s.Start)*w:(off+s.End)*w]))
		}
		out = []*memory.Buffer{nil, vals}
	}
	nulls := 0
	if arr.NullN() > 0 {
		valid, ok := gatherBits(bufs[0].Bytes(), off, positions, rows, mem)
		if !ok {
			releaseBuffers(out)
			return nil, false
		}
		nulls = rows - bitutil.CountSetBits(valid.Bytes(), 0, rows)
		out[0] = valid
	}
	data := array.NewData(dt, rows, out, nil, nulls, 0)
	releaseBuffers(out)
	defer data.Release()
	return array.MakeFromData(data), true
}

// gatherBits copies the bits at positions from bitmap src (array offset
// off) into a new bitmap of rows bits; false when src is too short.
func gatherBits(src []byte, off int64, positions pageindex.Ranges, rows int, mem memory.Allocator) (*memory.Buffer, bool) {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(rows))))
	dst := buf.Bytes()
	clear(dst)
	at := 0
	for _, s := range positions {
		if kernels.CopyBits(dst, at, src, int(off+s.Start), int(s.End-s.Start)) != nil {
			buf.Release()
			return nil, false
		}
		at += int(s.End - s.Start)
	}
	return buf, true
}

// releaseBuffers releases the non-nil buffers of bufs.
func releaseBuffers(bufs []*memory.Buffer) {
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
}

// gatherBinary copies the values at positions of a binary array with
// offsets offs and data buffer data (array offset off) into new offset and
// data buffers; cast views offset bytes as O.
func gatherBinary[O int32 | int64](offs []O, data *memory.Buffer, positions pageindex.Ranges, rows int, off int64, mem memory.Allocator, cast func([]byte) []O) []*memory.Buffer {
	var size O
	for _, s := range positions {
		size += offs[off+s.End] - offs[off+s.Start]
	}
	var o O
	newOffs := memory.NewResizableBuffer(mem)
	newOffs.Resize((rows + 1) * int(unsafe.Sizeof(o)))
	newData := memory.NewResizableBuffer(mem)
	newData.Resize(int(size))
	dst, bytes := cast(newOffs.Bytes()), newData.Bytes()
	src := []byte(nil)
	if data != nil {
		src = data.Bytes()
	}
	at, pos := 0, O(0)
	dst[0] = 0
	for _, s := range positions {
		lo, hi := offs[off+s.Start], offs[off+s.End]
		copy(bytes[pos:], src[lo:hi])
		for k := off + s.Start; k < off+s.End; k++ {
			at++
			dst[at] = pos + offs[k+1] - lo
		}
		pos += hi - lo
	}
	return []*memory.Buffer{nil, newOffs, newData}
}
