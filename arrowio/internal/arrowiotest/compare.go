package arrowiotest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/arrowio"
)

// CheckTable fails unless tbl holds want's columns (NaNs equal).
func CheckTable(t testing.TB, desc string, tbl arrow.Table, want arrow.RecordBatch) {
	t.Helper()
	if tbl.NumRows() != want.NumRows() {
		t.Errorf("%s: %d rows, want %d", desc, tbl.NumRows(), want.NumRows())
	}
	for i := range int(tbl.NumCols()) {
		got := tbl.Column(i).Data()
		wantCol := arrow.NewChunked(want.Column(i).DataType(), []arrow.Array{want.Column(i)})
		if !array.ChunkedApproxEqual(got, wantCol, array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
			t.Errorf("%s: column %d (%s) differs", desc, i, want.Schema().Field(i).Name)
		}
		wantCol.Release()
	}
}

// AssertSameValues fails unless got holds want's values. Readers may
// return another type for the same values (pqarrow reads string_view as
// string, date64 as date32, timestamp[s] as timestamp[ms], INTERVAL as
// fixed_size_binary[12], decimal32 as decimal128, ...), so values are
// compared in a canonical text form that every such pair shares.
func AssertSameValues(t testing.TB, want, got arrow.Array) {
	t.Helper()
	if want.Len() != got.Len() {
		t.Fatalf("length %d, want %d", got.Len(), want.Len())
	}
	for i := range want.Len() {
		if want.IsNull(i) != got.IsNull(i) {
			t.Fatalf("slot %d: null %v, want %v (type %s, want %s)", i, got.IsNull(i), want.IsNull(i), got.DataType(), want.DataType())
		}
		if want.IsNull(i) {
			continue
		}
		if w, g := Canonical(want, i), Canonical(got, i); w != g {
			t.Fatalf("slot %d: %q, want %q (type %s, want %s)", i, g, w, got.DataType(), want.DataType())
		}
	}
}

// Canonical returns slot i of a (not null) in a form that does not depend
// on which of the equivalent Arrow types holds it: times in nanoseconds,
// date64 in days, INTERVAL stored as fixed_size_binary[12] as months,
// days and milliseconds, dictionaries and extensions as their values.
func Canonical(a arrow.Array, i int) string {
	switch a := a.(type) {
	case *array.Dictionary:
		return Canonical(a.Dictionary(), a.GetValueIndex(i))
	case array.ExtensionArray:
		return Canonical(a.Storage(), i)
	case *array.String:
		return a.Value(i)
	case *array.LargeString:
		return a.Value(i)
	case *array.StringView:
		return a.Value(i)
	case *array.Binary:
		return string(a.Value(i))
	case *array.LargeBinary:
		return string(a.Value(i))
	case *array.BinaryView:
		return string(a.Value(i))
	case *array.Date32:
		return fmt.Sprint(int64(a.Value(i)))
	case *array.Date64:
		return fmt.Sprint(int64(a.Value(i)) / 86400000)
	case *array.Time32:
		return fmt.Sprint(int64(a.Value(i)) * int64(a.DataType().(*arrow.Time32Type).Unit.Multiplier()))
	case *array.Time64:
		return fmt.Sprint(int64(a.Value(i)) * int64(a.DataType().(*arrow.Time64Type).Unit.Multiplier()))
	case *array.Timestamp:
		return fmt.Sprint(int64(a.Value(i)) * int64(a.DataType().(*arrow.TimestampType).Unit.Multiplier()))
	case *array.Duration:
		return fmt.Sprint(int64(a.Value(i)) * int64(a.DataType().(*arrow.DurationType).Unit.Multiplier()))
	case *array.MonthDayNanoInterval:
		v := a.Value(i)
		return fmt.Sprint(v.Months, v.Days, v.Nanoseconds/1e6)
	case *array.FixedSizeBinary:
		v := a.Value(i)
		if len(v) == 12 {
			return fmt.Sprint(int32(binary.LittleEndian.Uint32(v)), int32(binary.LittleEndian.Uint32(v[4:])), binary.LittleEndian.Uint32(v[8:]))
		}
		return string(v)
	}
	return a.ValueStr(i)
}

// IsFileError reports whether err blames the file: it wraps
// arrowio.ErrCorrupt or arrowio.ErrUnsupported, or says "corrupt".
func IsFileError(err error) bool {
	return errors.Is(err, arrowio.ErrCorrupt) || errors.Is(err, arrowio.ErrUnsupported) || strings.Contains(fmt.Sprint(err), "corrupt")
}
