package colwrite

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/internal/arrowmem"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
)

// newValueWriter returns the value writer of leaf n for Arrow arrays of
// type dt.
func newValueWriter(n *footer.Node, dt arrow.DataType, set Settings, order statOrder) (valueWriter, error) {
	enc := pageEncoding{fallbackEnc: set.Encoding}
	switch n.Physical {
	case footer.TypeBoolean:
		return &boolWriter{pageEncoding: enc}, nil
	case footer.TypeInt32:
		return &fixedWriter[int32, uint32]{pageEncoding: enc, node: n, order: order}, nil
	case footer.TypeInt64:
		return &fixedWriter[int64, uint64]{pageEncoding: enc, node: n, order: order}, nil
	case footer.TypeFloat:
		return &fixedWriter[float32, uint32]{pageEncoding: enc, node: n, order: order}, nil
	case footer.TypeDouble:
		return &fixedWriter[float64, uint64]{pageEncoding: enc, node: n, order: order}, nil
	case footer.TypeByteArray:
		text := isText(n)
		switch valueType(dt).ID() {
		case arrow.LARGE_STRING, arrow.LARGE_BINARY, arrow.STRING_VIEW, arrow.BINARY_VIEW:
			return &bytesWriter[int64]{pageEncoding: enc, order: order, text: text, truncate: set.Truncate}, nil
		}
		return &bytesWriter[int32]{pageEncoding: enc, order: order, text: text, truncate: set.Truncate}, nil
	case footer.TypeFixedLenByteArray:
		return &flbaWriter{pageEncoding: enc, node: n, width: int(n.TypeLength), order: order, truncate: set.Truncate}, nil
	}
	return nil, fmt.Errorf("%w: writing %s columns", errs.ErrUnsupported, n.Physical)
}

// valueType returns the type whose values an array of type dt holds: the
// value type of a dictionary, the storage of an extension type.
func valueType(dt arrow.DataType) arrow.DataType {
	for {
		switch t := dt.(type) {
		case *arrow.DictionaryType:
			dt = t.ValueType
		case arrow.ExtensionType:
			dt = t.StorageType()
		default:
			return dt
		}
	}
}

// isText reports whether leaf n holds UTF-8 text.
func isText(n *footer.Node) bool {
	switch n.Logical().Kind {
	case footer.LogicalString, footer.LogicalJSON, footer.LogicalEnum:
		return true
	}
	c, ok := n.Converted().Get()
	return ok && (c == footer.ConvertedUTF8 || c == footer.ConvertedJSON || c == footer.ConvertedEnum)
}

// fixedWriter is the value writer of INT32, INT64, FLOAT and DOUBLE
// columns: T is the physical value, U the unsigned integer of its size,
// which keys the dictionary by bit pattern.
type fixedWriter[T fixedValue, U uint32 | uint64] struct {
	pageEncoding
	node  *footer.Node
	order statOrder
	dict  fixedDict[U]

	slots []T // the bound slots
	conv  []T // converted or gathered slots
	dense []T // the non-null values of a mini-batch with nulls
	vals  []T // the page's values, when not dictionary-encoded

	page, chunk fixedStats[T]
	bloom       *bloomSink // nil unless the column has a bloom filter

	// Scratch for dictionary arrays.
	dconv  []T
	didx   []int64
	dvalid []byte
}

func (w *fixedWriter[T, U]) startChunk(dict bool) {
	w.pageEncoding.startChunk(dict)
	if dict {
		w.dict.reset()
	}
	w.vals = w.vals[:0]
	w.page, w.chunk = fixedStats[T]{}, fixedStats[T]{}
}

func (w *fixedWriter[T, U]) bind(arr arrow.Array, lo, hi int) ([]byte, int, error) {
	if d, ok := arr.(*array.Dictionary); ok {
		var err error
		if w.didx, w.dvalid, err = gatherIndices(w.didx, w.dvalid, d, lo, hi); err != nil {
			return nil, 0, err
		}
		dict := d.Dictionary()
		var vals []T
		if vals, w.dconv, err = fixedSlots(w.dconv, dict, 0, dict.Len(), w.node); err != nil {
			return nil, 0, err
		}
		w.conv = gather(w.conv, vals, w.didx)
		w.slots = w.conv
		return w.dvalid, 0, nil
	}
	var err error
	if w.slots, w.conv, err = fixedSlots(w.conv, arr, lo, hi, w.node); err != nil {
		return nil, 0, err
	}
	valid, voff := validity(arr)
	return valid, voff + lo, nil
}

func (w *fixedWriter[T, U]) put(i, j int, valid []byte, voff, nonNull int) error {
	vals := w.slots[i:j]
	if !w.dictOn {
		// The values join the page first, compacted on the way, and the
		// statistics read them there, where the copy left them cached.
		n := len(w.vals)
		w.vals = growDoubling(w.vals, len(vals))
		if nonNull < j-i {
			vals = compact(w.vals[n:], vals, valid, voff+i)
		} else {
			vals = append(w.vals[n:], vals...)
		}
		w.vals = w.vals[:n+len(vals)]
	} else if nonNull < j-i {
		w.dense = compact(w.dense, vals, valid, voff+i)
		vals = w.dense
	}
	w.nans += int64(w.page.update(vals, w.order))
	addFixedHashes(w.bloom, vals)
	if w.dictOn {
		w.dict.insert(arrowmem.Cast[U](vals), w.addIndices(len(vals)))
	}
	return nil
}

func (w *fixedWriter[T, U]) undict() {
	vals := arrowmem.Cast[T](w.dict.values)
	idx := w.takeIndices()
	w.vals = slices.Grow(w.vals, len(idx))
	for _, i := range idx {
		w.vals = append(w.vals, vals[i])
	}
}

func (w *fixedWriter[T, U]) pageBytes() int {
	if w.dictOn {
		return w.indexBytes(len(w.dict.values))
	}
	return len(w.vals) * int(unsafe.Sizeof(T(0)))
}

func (w *fixedWriter[T, U]) flushPage(dst []byte, st *footer.Statistics) ([]byte, footer.Encoding, error) {
	if st != nil {
		w.page.encode(st, w.order)
	}
	w.chunk.merge(&w.page, w.order)
	w.page = fixedStats[T]{}
	return w.endPage(dst, w.appendValues)
}

// appendValues appends the page's values encoded with enc and empties the
// page (see pageEncoding.endPage).
func (w *fixedWriter[T, U]) appendValues(dst []byte, enc footer.Encoding) ([]byte, error) {
	dst, err := appendFixed(dst, w.vals, enc)
	w.vals = w.vals[:0]
	return dst, err
}

// appendFixed appends vals encoded with enc (PLAIN, DELTA_BINARY_PACKED or
// BYTE_STREAM_SPLIT) to dst.
func appendFixed[T fixedValue](dst []byte, vals []T, enc footer.Encoding) ([]byte, error) {
	raw := arrowmem.Bytes(vals)
	switch enc {
	case footer.EncodingPlain:
		return append(dst, raw...), nil
	case footer.EncodingByteStreamSplit:
		n := len(dst)
		dst = slices.Grow(dst, len(raw))[:n+len(raw)]
		return dst, kernels.ByteStreamSplitEncode(dst[n:], raw, int(unsafe.Sizeof(T(0))))
	case footer.EncodingDeltaBinaryPacked:
		switch v := any(vals).(type) {
		case []int32:
			return kernels.AppendDeltaBinaryPackedInt32(dst, v), nil
		case []int64:
			return kernels.AppendDeltaBinaryPackedInt64(dst, v), nil
		}
	}
	return dst, fmt.Errorf("%w: encoding %s for this column", errs.ErrUnsupported, enc)
}

func (w *fixedWriter[T, U]) dictLen() int { return len(w.dict.values) }

func (w *fixedWriter[T, U]) dictBytes() int {
	if !w.dictOn {
		return -1
	}
	return w.dict.plainSize()
}

func (w *fixedWriter[T, U]) dictPage(dst []byte) ([]byte, int) {
	return w.dict.appendPlain(dst), len(w.dict.values)
}

func (w *fixedWriter[T, U]) chunkStats(st *footer.Statistics) { w.chunk.encode(st, w.order) }

func (w *fixedWriter[T, U]) unencodedBytes() (int64, bool) { return 0, false }

// compact returns the values of src whose bit in valid (starting at bit
// off) is set, in dst (grown as needed). Once the bits reach a byte
// boundary, a byte of eight valid slots, the common case, moves its eight
// values in one copy; other bytes go value by value, without branches.
func compact[T any](dst, src []T, valid []byte, off int) []T {
	if cap(dst) < len(src) {
		dst = make([]T, len(src))
	}
	dst = dst[:len(src)]
	k, i := 0, 0
	for ; i < len(src) && (off+i)&7 != 0; i++ {
		b := off + i
		dst[k] = src[i]
		k += int(valid[b>>3] >> (b & 7) & 1)
	}
	for ; i+8 <= len(src); i += 8 {
		m := valid[(off+i)>>3]
		if m == 0xff {
			copy(dst[k:k+8], src[i:i+8])
			k += 8
			continue
		}
		for j := range 8 {
			dst[k] = src[i+j]
			k += int(m >> j & 1)
		}
	}
	for ; i < len(src); i++ {
		b := off + i
		dst[k] = src[i]
		k += int(valid[b>>3] >> (b & 7) & 1)
	}
	return dst[:k]
}

// gather sets dst[i] to vals[idx[i]] (indices past vals, which only null
// slots carry, give the zero value) and returns dst, grown as needed.
func gather[T any](dst, vals []T, idx []int64) []T {
	if cap(dst) < len(idx) {
		dst = make([]T, len(idx))
	}
	dst = dst[:len(idx)]
	var zero T
	for i, x := range idx {
		if uint64(x) < uint64(len(vals)) {
			dst[i] = vals[x]
		} else {
			dst[i] = zero
		}
	}
	return dst
}
