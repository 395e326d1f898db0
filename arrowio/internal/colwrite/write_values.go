package colwrite

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/internal/arrowmem"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
)

// This file turns the slots of an Arrow array (one per row of a flat
// column, nulls included) into the physical values of its Parquet leaf,
// without boxing: zero-copy views of the Arrow buffers where the layouts
// agree, conversions into writer-owned scratch where they do not.

// bufferAs returns buffer i of d as a []T covering whole elements (nil for
// an absent buffer).
func bufferAs[T any](d arrow.ArrayData, i int) []T {
	bufs := d.Buffers()
	if i >= len(bufs) || bufs[i] == nil {
		return nil
	}
	return arrowmem.View[T](bufs[i].Bytes())
}

// sliceOf returns elements [off+lo, off+hi) of buf, or an error when the
// buffer is too short (a malformed array).
func sliceOf[T any](buf []T, off, lo, hi int, what string) ([]T, error) {
	if off+hi > len(buf) {
		return nil, fmt.Errorf("arrowio: %s buffer holds %d values, the array needs %d", what, len(buf), off+hi)
	}
	return buf[off+lo : off+hi], nil
}

// storage returns the storage array of an extension array, or arr.
func storage(arr arrow.Array) arrow.Array {
	if e, ok := arr.(array.ExtensionArray); ok {
		return e.Storage()
	}
	return arr
}

// validity returns arr's validity bitmap and the bit of its first slot; the
// bitmap is nil when every slot is valid.
func validity(arr arrow.Array) ([]byte, int) {
	d := arr.Data()
	if arr.NullN() == 0 || len(d.Buffers()) == 0 || d.Buffers()[0] == nil {
		return nil, 0
	}
	return d.Buffers()[0].Bytes(), d.Offset()
}

// UnitsPerSecond returns how many of an Arrow time unit make a second.
func UnitsPerSecond(u arrow.TimeUnit) int64 {
	return [...]int64{1, 1e3, 1e6, 1e9}[u&3]
}

// leafUnitsPerSecond returns how many of leaf n's TIME or TIMESTAMP unit
// make a second, or 0 when n has none.
func leafUnitsPerSecond(n *footer.Node) int64 {
	lt := n.Logical()
	var u footer.TimeUnit
	switch lt.Kind {
	case footer.LogicalTime:
		u = lt.Time.Unit
	case footer.LogicalTimestamp:
		u = lt.Timestamp.Unit
	default:
		if c, ok := n.Converted().Get(); ok {
			switch c {
			case footer.ConvertedTimeMillis, footer.ConvertedTimestampMillis:
				return 1e3
			case footer.ConvertedTimeMicros, footer.ConvertedTimestampMicros:
				return 1e6
			}
		}
		return 0
	}
	switch u {
	case footer.TimeUnitMillis:
		return 1e3
	case footer.TimeUnitMicros:
		return 1e6
	case footer.TimeUnitNanos:
		return 1e9
	}
	return 0
}

// fixedSlots returns the physical values of slots [lo, hi) of arr (not a
// dictionary array) for leaf n, as a view of arr's buffer when the layouts
// agree and otherwise converted into dst (grown as needed, returned second
// so the caller can keep it). Null slots hold unspecified values.
func fixedSlots[T fixedValue](dst []T, arr arrow.Array, lo, hi int, n *footer.Node) ([]T, []T, error) {
	arr = storage(arr)
	d := arr.Data()
	off := d.Offset()
	if cap(dst) < hi-lo {
		dst = make([]T, hi-lo)
	}
	out := dst[:hi-lo]
	switch dt := arr.DataType().(type) {
	case *arrow.Int8Type:
		return convertInto(out, bufferAs[int8](d, 1), off, lo, hi, 1, 1, dst)
	case *arrow.Uint8Type:
		return convertInto(out, bufferAs[uint8](d, 1), off, lo, hi, 1, 1, dst)
	case *arrow.Int16Type:
		return convertInto(out, bufferAs[int16](d, 1), off, lo, hi, 1, 1, dst)
	case *arrow.Uint16Type:
		return convertInto(out, bufferAs[uint16](d, 1), off, lo, hi, 1, 1, dst)
	case *arrow.Int32Type, *arrow.Date32Type, *arrow.Decimal32Type:
		return viewOrConvert(out, bufferAs[int32](d, 1), off, lo, hi, dst)
	case *arrow.Uint32Type:
		return viewOrConvert(out, bufferAs[uint32](d, 1), off, lo, hi, dst)
	case *arrow.Int64Type, *arrow.DurationType, *arrow.Decimal64Type:
		return viewOrConvert(out, bufferAs[int64](d, 1), off, lo, hi, dst)
	case *arrow.Uint64Type:
		return viewOrConvert(out, bufferAs[uint64](d, 1), off, lo, hi, dst)
	case *arrow.Float32Type:
		return viewOrConvert(out, bufferAs[float32](d, 1), off, lo, hi, dst)
	case *arrow.Float64Type:
		return viewOrConvert(out, bufferAs[float64](d, 1), off, lo, hi, dst)
	case *arrow.Date64Type:
		if n.Physical == footer.TypeInt32 {
			return convertInto(out, bufferAs[int64](d, 1), off, lo, hi, 1, 86400000, dst)
		}
		return viewOrConvert(out, bufferAs[int64](d, 1), off, lo, hi, dst)
	case *arrow.Time32Type:
		mul, div := unitRatio(UnitsPerSecond(dt.Unit), leafUnitsPerSecond(n))
		return convertInto(out, bufferAs[int32](d, 1), off, lo, hi, mul, div, dst)
	case *arrow.Time64Type:
		mul, div := unitRatio(UnitsPerSecond(dt.Unit), leafUnitsPerSecond(n))
		return convertInto(out, bufferAs[int64](d, 1), off, lo, hi, mul, div, dst)
	case *arrow.TimestampType:
		mul, div := unitRatio(UnitsPerSecond(dt.Unit), leafUnitsPerSecond(n))
		return convertInto(out, bufferAs[int64](d, 1), off, lo, hi, mul, div, dst)
	case *arrow.Decimal128Type:
		// The low word of each little-endian two's complement value: the
		// precision keeps the value within it.
		words, err := sliceOf(bufferAs[int64](d, 1), 2*off, 2*lo, 2*hi, "decimal128")
		if err != nil {
			return nil, dst, err
		}
		for i := range out {
			out[i] = T(words[2*i])
		}
		return out, dst, nil
	case *arrow.Decimal256Type:
		words, err := sliceOf(bufferAs[int64](d, 1), 4*off, 4*lo, 4*hi, "decimal256")
		if err != nil {
			return nil, dst, err
		}
		for i := range out {
			out[i] = T(words[4*i])
		}
		return out, dst, nil
	case *arrow.NullType:
		clear(out)
		return out, dst, nil
	}
	return nil, dst, fmt.Errorf("%w: Arrow type %s as Parquet %s", errs.ErrUnsupported, arr.DataType(), n.Physical)
}

// unitRatio returns the factors turning a count of from-units into
// to-units (to 0: keep the count).
func unitRatio(from, to int64) (mul, div int64) {
	switch {
	case to == 0 || to == from:
		return 1, 1
	case to > from:
		return to / from, 1
	}
	return 1, from / to
}

// viewOrConvert returns slots [lo, hi) of buf as they are when S is T, and
// otherwise converted into out.
func viewOrConvert[T fixedValue, S int32 | uint32 | int64 | uint64 | float32 | float64](out []T, buf []S, off, lo, hi int, dst []T) ([]T, []T, error) {
	src, err := sliceOf(buf, off, lo, hi, "value")
	if err != nil {
		return nil, dst, err
	}
	if v, ok := any(src).([]T); ok {
		return v, dst, nil
	}
	if unsafe.Sizeof(src[0:1][0]) == unsafe.Sizeof(out[0:1][0]) && !isFloat[T]() && !isFloat[S]() {
		// Same-size integers (uint32 as INT32): the bits are the value.
		return arrowmem.Cast[T](src), dst, nil
	}
	for i, v := range src {
		out[i] = T(v)
	}
	return out, dst, nil
}

// isFloat reports whether T is a floating-point type.
func isFloat[T any]() bool {
	var z T
	switch any(z).(type) {
	case float32, float64:
		return true
	}
	return false
}

// convertInto sets out[i] to slot lo+i of buf times mul, divided (rounding
// down) by div.
func convertInto[T fixedValue, S int8 | uint8 | int16 | uint16 | int32 | int64](out []T, buf []S, off, lo, hi int, mul, div int64, dst []T) ([]T, []T, error) {
	src, err := sliceOf(buf, off, lo, hi, "value")
	if err != nil {
		return nil, dst, err
	}
	switch {
	case mul == 1 && div == 1:
		for i, v := range src {
			out[i] = T(v)
		}
	case div == 1:
		for i, v := range src {
			out[i] = T(int64(v) * mul)
		}
	default:
		for i, v := range src {
			q := int64(v) / div
			if int64(v)%div < 0 {
				q--
			}
			out[i] = T(q)
		}
	}
	return out, dst, nil
}

// byteSlots returns the values of slots [lo, hi) of arr (not a dictionary
// array) as Arrow offsets (hi-lo+1 of them) into data. String and binary
// arrays are viewed as they are when their offsets are of type O; view
// arrays are copied into offs and buf. The offsets of string and binary
// arrays come unchecked: the caller checks them (checkSpan) before it
// slices data with them.
func byteSlots[O kernels.Offset](offs []O, buf []byte, arr arrow.Array, lo, hi int) ([]O, []byte, []O, []byte, error) {
	arr = storage(arr)
	d := arr.Data()
	off := d.Offset()
	switch arr.DataType().ID() {
	case arrow.STRING, arrow.BINARY:
		o, err := sliceOf(bufferAs[int32](d, 1), off, lo, hi+1, "offset")
		if err != nil {
			return nil, nil, offs, buf, err
		}
		data := bufferAs[byte](d, 2)
		if v, ok := any(o).([]O); ok {
			return v, data, offs, buf, nil
		}
		offs = widenOffsets(offs, o)
		return offs, data, offs, buf, nil
	case arrow.LARGE_STRING, arrow.LARGE_BINARY:
		o, err := sliceOf(bufferAs[int64](d, 1), off, lo, hi+1, "offset")
		if err != nil {
			return nil, nil, offs, buf, err
		}
		data := bufferAs[byte](d, 2)
		if v, ok := any(o).([]O); ok {
			return v, data, offs, buf, nil
		}
		return nil, nil, offs, buf, fmt.Errorf("%w: large offsets in a 32-bit column", errs.ErrUnsupported)
	case arrow.STRING_VIEW, arrow.BINARY_VIEW:
		views, err := sliceOf(bufferAs[arrow.ViewHeader](d, 1), off, lo, hi, "view")
		if err != nil {
			return nil, nil, offs, buf, err
		}
		offs, buf = append(offs[:0], 0), buf[:0]
		bufs := d.Buffers()
		for i := range views {
			v := &views[i]
			if v.IsInline() {
				buf = append(buf, v.InlineBytes()...)
			} else {
				bi, bo, l := int(v.BufferIndex())+2, int(v.BufferOffset()), v.Len()
				if bi >= len(bufs) || bufs[bi] == nil || bo < 0 || l < 0 || bo+l > bufs[bi].Len() {
					return nil, nil, offs, buf, fmt.Errorf("arrowio: view %d points outside its data buffers", lo+i)
				}
				buf = append(buf, bufs[bi].Bytes()[bo:bo+l]...)
			}
			offs = append(offs, O(len(buf)))
		}
		return offs, buf, offs, buf, nil
	}
	return nil, nil, offs, buf, fmt.Errorf("%w: Arrow type %s as Parquet BYTE_ARRAY", errs.ErrUnsupported, arr.DataType())
}

// widenOffsets copies 32-bit offsets into dst as O.
func widenOffsets[O kernels.Offset](dst []O, o []int32) []O {
	dst = dst[:0]
	for _, v := range o {
		dst = append(dst, O(v))
	}
	return dst
}

// checkSpan reports offsets that leave their data buffer or decrease, so
// that every value the writer slices out of data is in range.
func checkSpan[O kernels.Offset](o []O, n int) error {
	if len(o) == 0 {
		return nil
	}
	if o[0] < 0 || int64(o[len(o)-1]) > int64(n) {
		return fmt.Errorf("arrowio: offsets %d..%d outside a %d-byte data buffer", o[0], o[len(o)-1], n)
	}
	bad := false
	for i := 1; i < len(o); i++ {
		bad = bad || o[i] < o[i-1]
	}
	if bad {
		return fmt.Errorf("arrowio: offsets decrease")
	}
	return nil
}

// fixedBytesSlots returns the width-byte values of slots [lo, hi) of arr
// (not a dictionary array) for leaf n, viewing arr's buffer when the bytes
// are the Parquet value and converting into buf otherwise.
func fixedBytesSlots(buf []byte, arr arrow.Array, lo, hi int, n *footer.Node) ([]byte, []byte, error) {
	arr = storage(arr)
	d := arr.Data()
	off := d.Offset()
	w := int(n.TypeLength)
	switch dt := arr.DataType().(type) {
	case *arrow.FixedSizeBinaryType:
		if dt.ByteWidth != w {
			break
		}
		v, err := sliceOf(bufferAs[byte](d, 1), off*w, lo*w, hi*w, "fixed-size binary")
		return v, buf, err
	case *arrow.Float16Type:
		if w != 2 {
			break
		}
		v, err := sliceOf(bufferAs[byte](d, 1), off*2, lo*2, hi*2, "float16")
		return v, buf, err
	case *arrow.Decimal32Type, *arrow.Decimal64Type, *arrow.Decimal128Type, *arrow.Decimal256Type:
		k := dt.(arrow.FixedWidthDataType).Bytes()
		src, err := sliceOf(bufferAs[byte](d, 1), off*k, lo*k, hi*k, "decimal")
		if err != nil {
			return nil, buf, err
		}
		buf = resize(buf, (hi-lo)*w)
		bigEndianDecimals(buf, src, hi-lo, w, k)
		return buf, buf, nil
	case *arrow.MonthDayNanoIntervalType:
		src, err := sliceOf(bufferAs[arrow.MonthDayNanoInterval](d, 1), off, lo, hi, "interval")
		if err != nil {
			return nil, buf, err
		}
		switch w {
		case 16:
			return arrowmem.Bytes(src), buf, nil
		case 12:
			// Parquet INTERVAL: months, days and milliseconds, each a
			// little-endian uint32.
			buf = buf[:0]
			for _, v := range src {
				buf = binary.LittleEndian.AppendUint32(buf, uint32(v.Months))
				buf = binary.LittleEndian.AppendUint32(buf, uint32(v.Days))
				buf = binary.LittleEndian.AppendUint32(buf, uint32(v.Nanoseconds/1e6))
			}
			return buf, buf, nil
		}
	}
	return nil, buf, fmt.Errorf("%w: Arrow type %s as Parquet FIXED_LEN_BYTE_ARRAY(%d)", errs.ErrUnsupported, arr.DataType(), w)
}

// bigEndianDecimals writes n little-endian two's complement integers of
// k bytes in src as big-endian ones of w bytes in dst (see
// bigEndianDecimal).
func bigEndianDecimals(dst, src []byte, n, w, k int) {
	i := 0
	if w <= 8 && k >= 8 {
		// The low word of each value, its bytes reversed, its w low
		// bytes first: one 8-byte store whose spare bytes the next value
		// overwrites.
		shift := uint(8 * (8 - w))
		for ; i < n && i*w+8 <= len(dst); i++ {
			v := binary.LittleEndian.Uint64(src[i*k : i*k+8])
			binary.LittleEndian.PutUint64(dst[i*w:i*w+8], bits.ReverseBytes64(v)>>shift)
		}
	}
	for ; i < n; i++ {
		bigEndianDecimal(dst[i*w:(i+1)*w], src[i*k:(i+1)*k])
	}
}

// bigEndianDecimal writes the little-endian two's complement integer src
// as the big-endian one dst, dropping or sign-extending high bytes.
func bigEndianDecimal(dst, src []byte) {
	ext := byte(0)
	if len(src) > 0 && src[len(src)-1]&0x80 != 0 {
		ext = 0xff
	}
	for j := range dst {
		k := len(dst) - 1 - j // byte significance
		if k < len(src) {
			dst[j] = src[k]
		} else {
			dst[j] = ext
		}
	}
}

// boolSlots returns the value bitmap of arr (not a dictionary array) and
// the bit of slot lo.
func boolSlots(arr arrow.Array, lo, hi int) ([]byte, int, error) {
	arr = storage(arr)
	if arr.DataType().ID() != arrow.BOOL {
		return nil, 0, fmt.Errorf("%w: Arrow type %s as Parquet BOOLEAN", errs.ErrUnsupported, arr.DataType())
	}
	d := arr.Data()
	bm := bufferAs[byte](d, 1)
	if (d.Offset()+hi+7)/8 > len(bm) {
		return nil, 0, fmt.Errorf("arrowio: boolean buffer of %d bytes for %d values", len(bm), d.Offset()+hi)
	}
	return bm, d.Offset() + lo, nil
}

// growDoubling returns s with room for n more elements, at least doubling
// its capacity when it must grow. append grows large slices by about a
// quarter at a time, so a buffer that keeps growing (a chunk's pages, a
// page's dictionary indices) would be copied several times over.
func growDoubling[T any](s []T, n int) []T {
	if n <= cap(s)-len(s) {
		return s
	}
	return slices.Grow(s, max(n, cap(s)))
}

// resize returns b with length n, reallocated when its capacity is short.
func resize(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// gatherIndices returns the indices of slots [lo, hi) of a dictionary array
// as int64 values in dst, with the merged validity of those slots (a null
// index or an index to a null dictionary value is null) in valid, whose
// bit 0 is slot lo. An index of a valid slot outside the dictionary is an
// error.
func gatherIndices(dst []int64, valid []byte, arr *array.Dictionary, lo, hi int) ([]int64, []byte, error) {
	d := arr.Data()
	off := d.Offset()
	n := hi - lo
	if cap(dst) < n {
		dst = make([]int64, n)
	}
	dst = dst[:n]
	var err error
	switch arr.DataType().(*arrow.DictionaryType).IndexType.ID() {
	case arrow.INT8:
		err = widenIndices(dst, bufferAs[int8](d, 1), off, lo, hi)
	case arrow.UINT8:
		err = widenIndices(dst, bufferAs[uint8](d, 1), off, lo, hi)
	case arrow.INT16:
		err = widenIndices(dst, bufferAs[int16](d, 1), off, lo, hi)
	case arrow.UINT16:
		err = widenIndices(dst, bufferAs[uint16](d, 1), off, lo, hi)
	case arrow.INT32:
		err = widenIndices(dst, bufferAs[int32](d, 1), off, lo, hi)
	case arrow.UINT32:
		err = widenIndices(dst, bufferAs[uint32](d, 1), off, lo, hi)
	case arrow.INT64:
		err = widenIndices(dst, bufferAs[int64](d, 1), off, lo, hi)
	case arrow.UINT64:
		err = widenIndices(dst, bufferAs[uint64](d, 1), off, lo, hi)
	default:
		err = fmt.Errorf("%w: dictionary index type %s", errs.ErrUnsupported, arr.DataType())
	}
	if err != nil {
		return dst, valid, err
	}
	valid = resize(valid, (n+7)/8)
	bm, boff := validity(arr)
	dict := arr.Dictionary()
	dbm, doff := validity(dict)
	size := int64(dict.Len())
	for i, x := range dst {
		ok := bm == nil || bitutil.BitIsSet(bm, boff+lo+i)
		if ok {
			if x < 0 || x >= size {
				return dst, valid, fmt.Errorf("arrowio: dictionary index %d at slot %d outside a dictionary of %d values", x, lo+i, size)
			}
			ok = dbm == nil || bitutil.BitIsSet(dbm, doff+int(x))
		}
		if !ok {
			dst[i] = 0 // gathers read slot 0 for nulls (or nothing, for an empty dictionary)
		}
		bitutil.SetBitTo(valid, i, ok)
	}
	return dst, valid, nil
}

// widenIndices copies slots [lo, hi) of buf to dst as int64.
func widenIndices[S int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64](dst []int64, buf []S, off, lo, hi int) error {
	src, err := sliceOf(buf, off, lo, hi, "index")
	if err != nil {
		return err
	}
	for i, v := range src {
		dst[i] = int64(v)
	}
	return nil
}
