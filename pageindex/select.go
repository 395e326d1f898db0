package pageindex

import (
	"bytes"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Select evaluates the predicate row by row over n rows and returns one
// bool per row. cols[i] holds the values of column i of [Bound.Leaves]: a
// flat Arrow array of n rows (integers, floats, float16, booleans, dates,
// times, timestamps, decimals, month_day_nano intervals, strings, binary
// of any layout, or dictionaries of these), as arrowio reads the column:
// INT96 timestamps in nanoseconds. An array of another type or length is
// an error wrapping ErrUnsupported.
func (b *Bound) Select(cols []arrow.Array, n int) ([]bool, error) {
	if len(cols) != len(b.cols) {
		return nil, fmt.Errorf("%w: %d arrays for %d predicate columns", ErrUnsupported, len(cols), len(b.cols))
	}
	for i, c := range cols {
		if c == nil || c.Len() != n {
			return nil, fmt.Errorf("%w: column %q: no array of %d rows", ErrUnsupported, b.cols[i].leaf.DottedPath(), n)
		}
	}
	return b.eval(b.root, cols, n)
}

func (b *Bound) eval(nd *node, cols []arrow.Array, n int) ([]bool, error) {
	switch nd.kind {
	case nodeAnd, nodeOr:
		out := make([]bool, n)
		if nd.kind == nodeAnd {
			for i := range out {
				out[i] = true
			}
		}
		for _, k := range nd.kids {
			sel, err := b.eval(k, cols, n)
			if err != nil {
				return nil, err
			}
			for i, s := range sel {
				if nd.kind == nodeAnd {
					out[i] = out[i] && s
				} else {
					out[i] = out[i] || s
				}
			}
		}
		return out, nil
	}
	return b.evalLeaf(nd, cols[nd.col])
}

// evalLeaf evaluates a condition on one column over arr.
func (b *Bound) evalLeaf(nd *node, arr arrow.Array) ([]bool, error) {
	d, _ := arr.(*array.Dictionary)
	if nd.kind == nodeNull || nd.kind == nodeNotNull {
		out := make([]bool, arr.Len())
		for i := range out {
			out[i] = present(arr, d, i) == (nd.kind == nodeNotNull)
		}
		return out, nil
	}
	out, err := b.evalValues(nd, arr)
	if err != nil || !nd.neg {
		return out, err
	}
	for i := range out {
		out[i] = !out[i] && present(arr, d, i) // a negated condition is unknown for a null
	}
	return out, nil
}

// present reports whether row i of arr holds a value: it is not null,
// and when arr is the dictionary array d, its index is within the
// dictionary and the entry there is not null.
func present(arr arrow.Array, d *array.Dictionary, i int) bool {
	if !arr.IsValid(i) {
		return false
	}
	if d == nil {
		return true
	}
	k := d.GetValueIndex(i)
	return k >= 0 && k < d.Dictionary().Len() && d.Dictionary().IsValid(k)
}

// evalValues evaluates the value condition nd, leaving its negation
// aside, over arr: false where a value is null.
func (b *Bound) evalValues(nd *node, arr arrow.Array) ([]bool, error) {
	out := make([]bool, arr.Len())
	if d, ok := arr.(*array.Dictionary); ok {
		inner, err := b.evalValues(nd, d.Dictionary())
		if err != nil {
			return nil, err
		}
		for i := range out {
			if d.IsValid(i) {
				k := d.GetValueIndex(i)
				out[i] = k >= 0 && k < len(inner) && inner[k]
			}
		}
		return out, nil
	}
	if nd.kind == nodeIntersects {
		return out, b.evalIntersects(nd, arr, out)
	}
	ct := &b.cols[nd.col]
	switch a := arr.(type) {
	case *array.Int8:
		scanInts(out, a, a.Int8Values(), nd, ct)
	case *array.Int16:
		scanInts(out, a, a.Int16Values(), nd, ct)
	case *array.Int32:
		scanInts(out, a, a.Int32Values(), nd, ct)
	case *array.Int64:
		scanInts(out, a, a.Int64Values(), nd, ct)
	case *array.Uint8:
		scanInts(out, a, a.Uint8Values(), nd, ct)
	case *array.Uint16:
		scanInts(out, a, a.Uint16Values(), nd, ct)
	case *array.Uint32:
		scanInts(out, a, a.Uint32Values(), nd, ct)
	case *array.Uint64:
		scanInts(out, a, a.Uint64Values(), nd, ct)
	case *array.Date32:
		scanInts(out, a, a.Date32Values(), nd, ct)
	case *array.Time32:
		scanInts(out, a, a.Time32Values(), nd, ct)
	case *array.Time64:
		scanInts(out, a, a.Time64Values(), nd, ct)
	case *array.Timestamp:
		scanInts(out, a, a.TimestampValues(), nd, ct)
	case *array.Duration:
		scanInts(out, a, a.DurationValues(), nd, ct)
	case *array.Boolean:
		for i := range out {
			if a.IsValid(i) {
				var v value
				if a.Value(i) {
					v.i = 1
				}
				out[i] = nd.test(ct, v)
			}
		}
	case *array.Float32:
		scanFloats(out, a, a.Float32Values(), nd, ct)
	case *array.Float64:
		scanFloats(out, a, a.Float64Values(), nd, ct)
	case *array.String:
		scanBytes(out, a, func(i int) []byte { return stringBytes(a.Value(i)) }, nd, ct)
	case *array.LargeString:
		scanBytes(out, a, func(i int) []byte { return stringBytes(a.Value(i)) }, nd, ct)
	case *array.StringView:
		scanBytes(out, a, func(i int) []byte { return stringBytes(a.Value(i)) }, nd, ct)
	case *array.Binary:
		scanBytes(out, a, a.Value, nd, ct)
	case *array.LargeBinary:
		scanBytes(out, a, a.Value, nd, ct)
	case *array.BinaryView:
		scanBytes(out, a, a.Value, nd, ct)
	case *array.FixedSizeBinary:
		scanBytes(out, a, a.Value, nd, ct)
	case *array.Decimal32, *array.Decimal64, *array.Decimal128, *array.Decimal256:
		if err := scanDecimals(out, arr, nd, ct); err != nil {
			return nil, err
		}
	case *array.Float16:
		if ct.logical != logicalFloat16 && ct.order != orderBytes {
			return nil, unsupportedArray(ct, arr)
		}
		scanFloat16s(out, a, nd, ct)
	case *array.MonthDayNanoInterval:
		if ct.logical != logicalInterval {
			return nil, unsupportedArray(ct, arr)
		}
		scanIntervals(out, a, nd, ct)
	default:
		return nil, unsupportedArray(ct, arr)
	}
	return out, nil
}

// stringBytes views s as bytes without copying; the bytes are only read.
func stringBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// scanInts evaluates nd over the valid values of an integer array,
// widened to int64 (unsigned 64-bit values keep their bits, which compare
// unsigned in an unsigned column's order).
func scanInts[T integer](out []bool, arr arrow.Array, vals []T, nd *node, ct *colType) {
	for i, x := range vals[:len(out)] {
		if arr.IsValid(i) {
			out[i] = nd.test(ct, value{i: int64(x)})
		}
	}
}

// scanFloats evaluates nd over the valid values of a float array.
func scanFloats[T float32 | float64](out []bool, arr arrow.Array, vals []T, nd *node, ct *colType) {
	for i, x := range vals[:len(out)] {
		if arr.IsValid(i) {
			out[i] = nd.test(ct, value{f: float64(x)})
		}
	}
}

// scanBytes evaluates nd over the valid values of a binary array.
func scanBytes(out []bool, arr arrow.Array, at func(int) []byte, nd *node, ct *colType) {
	for i := range out {
		if arr.IsValid(i) {
			out[i] = nd.test(ct, value{b: at(i)})
		}
	}
}

// test evaluates the leaf condition nd on one non-null value.
func (nd *node) test(ct *colType, v value) bool {
	switch nd.kind {
	case nodeCompare:
		if ct.order == orderFloat && (v.f != v.f || nd.nan) {
			return nd.op == OpNotEq
		}
		return nd.op.holds(ct.compare(v, nd.vals[0]))
	case nodeIn:
		for _, w := range nd.vals {
			if ct.order == orderFloat && (v.f != v.f || w.f != w.f) {
				continue
			}
			if ct.compare(v, w) == 0 {
				return true
			}
		}
		return false
	case nodePrefix:
		return bytes.HasPrefix(v.b, nd.vals[0].b)
	}
	return false
}
