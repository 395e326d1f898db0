package pageindex

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
)

// unsupportedArray reports an array Select cannot evaluate the column's
// condition on.
func unsupportedArray(ct *colType, arr arrow.Array) error {
	return fmt.Errorf("%w: evaluating a predicate on %s column %q of Arrow type %s", ErrUnsupported, ct.describe(), ct.leaf.DottedPath(), arr.DataType())
}

// scanDecimals evaluates nd over the valid values of an Arrow decimal
// array of a DECIMAL column.
func scanDecimals(out []bool, arr arrow.Array, nd *node, ct *colType) error {
	if ct.logical != logicalDecimal {
		return unsupportedArray(ct, arr)
	}
	switch a := arr.(type) {
	case *array.Decimal32:
		return scanWords(out, a, a.Values(), func(x decimal.Decimal32) ([4]uint64, int) { return [4]uint64{uint64(int64(x))}, 1 }, nd, ct)
	case *array.Decimal64:
		return scanWords(out, a, a.Values(), func(x decimal.Decimal64) ([4]uint64, int) { return [4]uint64{uint64(x)}, 1 }, nd, ct)
	case *array.Decimal128:
		return scanWords(out, a, a.Values(), func(x decimal.Decimal128) ([4]uint64, int) {
			return [4]uint64{x.LowBits(), uint64(x.HighBits())}, 2
		}, nd, ct)
	case *array.Decimal256:
		return scanWords(out, a, a.Values(), func(x decimal.Decimal256) ([4]uint64, int) { return x.Array(), 4 }, nd, ct)
	}
	return unsupportedArray(ct, arr)
}

// scanWords evaluates nd over the valid values of a decimal array, each
// the two's complement integer of n little-endian words words(x) gives:
// as big-endian bytes for a DECIMAL stored in bytes, as an int64 for one
// stored in INT32 or INT64 (a value beyond int64 cannot come from such a
// column and is an error).
func scanWords[T any](out []bool, arr arrow.Array, vals []T, words func(T) ([4]uint64, int), nd *node, ct *colType) error {
	var be [32]byte
	for i, x := range vals[:len(out)] {
		if !arr.IsValid(i) {
			continue
		}
		w, n := words(x)
		var v value
		if ct.order == orderDecimal {
			for k := range n {
				binary.BigEndian.PutUint64(be[8*(n-1-k):], w[k])
			}
			v.b = be[:8*n]
		} else {
			for k := 1; k < n; k++ {
				if w[k] != uint64(int64(w[0])>>63) {
					return fmt.Errorf("%w: column %q: the value at row %d does not fit the column's %s", ErrUnsupported, ct.leaf.DottedPath(), i, ct.physical)
				}
			}
			v.i = int64(w[0])
		}
		out[i] = nd.test(ct, v)
	}
	return nil
}

// scanFloat16s evaluates nd over the valid values of a float16 array: as
// floats for a FLOAT16 column, as their two little-endian bytes for a
// plain FIXED_LEN_BYTE_ARRAY(2) one (an ARROW:schema can type it float16).
func scanFloat16s(out []bool, a *array.Float16, nd *node, ct *colType) {
	var le [2]byte
	for i, x := range a.Values()[:len(out)] {
		if !a.IsValid(i) {
			continue
		}
		var v value
		if ct.logical == logicalFloat16 {
			v.f = float64(x.Float32())
		} else {
			binary.LittleEndian.PutUint16(le[:], x.Uint16())
			v.b = le[:]
		}
		out[i] = nd.test(ct, v)
	}
}

// scanIntervals evaluates nd over the valid values of a month_day_nano
// array of an INTERVAL column, each as the 12 bytes the column stores (a
// value whose nanoseconds are not a whole uint32 of milliseconds has no
// such bytes and equals no literal).
func scanIntervals(out []bool, a *array.MonthDayNanoInterval, nd *node, ct *colType) {
	var stored [12]byte
	for i, x := range a.MonthDayNanoIntervalValues()[:len(out)] {
		if !a.IsValid(i) {
			continue
		}
		var v value
		if ms := x.Nanoseconds / 1_000_000; x.Nanoseconds%1_000_000 == 0 && ms >= 0 && ms <= 1<<32-1 {
			binary.LittleEndian.PutUint32(stored[0:], uint32(x.Months))
			binary.LittleEndian.PutUint32(stored[4:], uint32(x.Days))
			binary.LittleEndian.PutUint32(stored[8:], uint32(ms))
			v.b = stored[:]
		}
		out[i] = nd.test(ct, v)
	}
}
