package arrowio

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/colwrite"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// flatTypes are the flat Arrow types the writer tests cover.
var flatTypes = []arrow.DataType{
	arrow.FixedWidthTypes.Boolean,
	arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64,
	arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64,
	arrow.FixedWidthTypes.Float16, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
	&arrow.Decimal32Type{Precision: 9, Scale: 2}, &arrow.Decimal64Type{Precision: 18, Scale: 3},
	&arrow.Decimal128Type{Precision: 38, Scale: 5}, &arrow.Decimal128Type{Precision: 7, Scale: 1},
	&arrow.Decimal256Type{Precision: 76, Scale: 10},
	arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString, arrow.BinaryTypes.StringView,
	arrow.BinaryTypes.Binary, arrow.BinaryTypes.LargeBinary, arrow.BinaryTypes.BinaryView,
	&arrow.FixedSizeBinaryType{ByteWidth: 5},
	arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Date64,
	arrow.FixedWidthTypes.Time32s, arrow.FixedWidthTypes.Time32ms, arrow.FixedWidthTypes.Time64us, arrow.FixedWidthTypes.Time64ns,
	&arrow.TimestampType{Unit: arrow.Second}, &arrow.TimestampType{Unit: arrow.Millisecond},
	&arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "America/New_York"},
	arrow.FixedWidthTypes.Duration_s, arrow.FixedWidthTypes.Duration_ns,
	arrow.FixedWidthTypes.MonthDayNanoInterval,
	&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String},
	&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint8, ValueType: arrow.PrimitiveTypes.Int64},
	extensions.NewUUIDType(), jsonType(),
	arrow.Null,
}

// jsonType returns the arrow.json extension type over string.
func jsonType() arrow.DataType {
	j, err := extensions.NewJSONType(arrow.BinaryTypes.String)
	if err != nil {
		panic(err)
	}
	return j
}

// testRows returns n, or a quarter of it in -short runs (which the arm64
// tests run under qemu).
func testRows(n int) int {
	if testing.Short() {
		return n / 4
	}
	return n
}

// typeName returns a name for dt fit for a subtest.
func typeName(dt arrow.DataType) string { return dt.String() }

// randomArray returns n random values of type dt, about nullFrac of them
// null (none when nullFrac is 0), with few distinct values when lowCard.
func randomArray(t testing.TB, mem memory.Allocator, dt arrow.DataType, n int, nullFrac float64, lowCard bool, rng *rand.Rand) arrow.Array {
	t.Helper()
	if dt.ID() == arrow.NULL {
		return array.NewNull(n)
	}
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	card := uint64(1 << 62)
	if lowCard {
		card = 50
	}
	r := func() uint64 { return rng.Uint64N(card) * 0x9e3779b97f4a7c15 }
	for range n {
		if nullFrac > 0 && rng.Float64() < nullFrac {
			b.AppendNull()
			continue
		}
		appendRandom(t, b, r, rng)
	}
	return b.NewArray()
}

// appendRandom appends one random value (drawn from r) to b.
func appendRandom(t testing.TB, b array.Builder, r func() uint64, rng *rand.Rand) {
	switch b := b.(type) {
	case *array.BooleanBuilder:
		b.Append(r()&(1<<40) != 0)
	case *array.Int8Builder:
		b.Append(int8(r() >> 40))
	case *array.Int16Builder:
		b.Append(int16(r() >> 40))
	case *array.Int32Builder:
		b.Append(int32(r() >> 20))
	case *array.Int64Builder:
		b.Append(int64(r()))
	case *array.Uint8Builder:
		b.Append(uint8(r() >> 40))
	case *array.Uint16Builder:
		b.Append(uint16(r() >> 40))
	case *array.Uint32Builder:
		b.Append(uint32(r() >> 20))
	case *array.Uint64Builder:
		b.Append(r())
	case *array.Float16Builder:
		b.Append(float16.New(float32(int64(r()>>50)-1000) / 8))
	case *array.Float32Builder:
		b.Append(float32(int64(r()>>40)-1e6) / 64)
	case *array.Float64Builder:
		b.Append(float64(int64(r()>>20)) / 1024)
	case *array.Decimal32Builder:
		b.Append(decimal.Decimal32(int32(r()>>34) % 999999999))
	case *array.Decimal64Builder:
		b.Append(decimal.Decimal64(int64(r()>>8) % 999999999999999999))
	case *array.Decimal128Builder:
		// A value of at most nbits bits fits the precision.
		nbits := int(float64(b.Type().(*arrow.Decimal128Type).Precision)*3.32) - 1
		v := decimal128.FromU64(r() >> max(0, 64-nbits))
		if nbits > 64 {
			v = decimal128.New(int64(r()>>(128-nbits)), r())
		}
		if r()&1 == 1 {
			v = v.Negate()
		}
		b.Append(v)
	case *array.Decimal256Builder:
		v := decimal256.New(r()>>4, r(), r(), r())
		if r()&1 == 1 {
			v = v.Negate()
		}
		b.Append(v)
	case *array.StringBuilder:
		b.Append(randomString(r(), rng))
	case *array.LargeStringBuilder:
		b.Append(randomString(r(), rng))
	case *array.StringViewBuilder:
		b.Append(randomString(r(), rng))
	case *array.BinaryBuilder:
		b.Append([]byte(randomString(r(), rng)))
	case *array.BinaryViewBuilder:
		b.Append([]byte(randomString(r(), rng)))
	case *array.FixedSizeBinaryBuilder:
		v := make([]byte, b.Type().(*arrow.FixedSizeBinaryType).ByteWidth)
		x := r()
		for i := range v {
			v[i] = byte(x >> (8 * (i % 8)))
		}
		b.Append(v)
	case *array.Date32Builder:
		b.Append(arrow.Date32(int32(r() >> 48)))
	case *array.Date64Builder:
		b.Append(arrow.Date64(int64(r()>>48) * 86400000))
	case *array.Time32Builder:
		b.Append(arrow.Time32(r() % 86400))
	case *array.Time64Builder:
		b.Append(arrow.Time64(r() % 86400e9))
	case *array.TimestampBuilder:
		b.Append(arrow.Timestamp(int64(r() >> 14)))
	case *array.DurationBuilder:
		b.Append(arrow.Duration(int64(r())))
	case *array.MonthDayNanoIntervalBuilder:
		// INTERVAL keeps milliseconds.
		b.Append(arrow.MonthDayNanoInterval{Months: int32(r() >> 50), Days: int32(r() >> 52), Nanoseconds: int64(r()>>40) * 1e6})
	case *array.BinaryDictionaryBuilder:
		if err := b.AppendString(randomString(r(), rng)); err != nil {
			t.Fatal(err)
		}
	case *array.Int64DictionaryBuilder:
		if err := b.Append(int64(r())); err != nil {
			t.Fatal(err)
		}
	case *extensions.UUIDBuilder:
		var u [16]byte
		x, y := r(), r()
		for i := range 8 {
			u[i], u[8+i] = byte(x>>(8*i)), byte(y>>(8*i))
		}
		b.Append(u)
	case *array.ExtensionBuilder:
		// JSON
		b.StorageBuilder().(*array.StringBuilder).Append(fmt.Sprintf(`{"v":%d}`, r()>>40))
	default:
		t.Fatalf("no random values for %T", b)
	}
}

// randomString returns a string derived from x: short or long, ASCII or
// not, sometimes empty.
func randomString(x uint64, rng *rand.Rand) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzé€𝄞0123456789"
	n := int(x>>58) % 24
	if x&7 == 0 {
		n += 60
	}
	runes := []rune(alphabet)
	b := make([]rune, n)
	for i := range b {
		b[i] = runes[(x>>(i%50))%uint64(len(runes))]
	}
	return string(b)
}

// pqRead reads a Parquet file with arrow-go's pqarrow.
func pqRead(t testing.TB, mem memory.Allocator, buf []byte) arrow.Table {
	t.Helper()
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(buf), parquet.NewReaderProperties(mem), pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		t.Fatalf("pqarrow cannot read the file: %v", err)
	}
	return tbl
}

// pqarrowReads reports whether pqarrow (v18.8.0) reads columns of type dt
// back: it writes durations but refuses to read them ("no support for
// reading columns of type: duration").
func pqarrowReads(dt arrow.DataType) bool { return dt.ID() != arrow.DURATION }

// quiverRead reads every row group of a file with Quiver's Reader and
// returns each column as one array (the caller releases them), or nil
// when the reader reports the file's types as unsupported (it does not
// read every type the writer writes yet).
func quiverRead(t testing.TB, buf []byte) []arrow.Array {
	t.Helper()
	r, err := Open(bytes.NewReader(buf), int64(len(buf)), ReadOptions{})
	if errors.Is(err, errs.ErrUnsupported) {
		t.Logf("quiver reader: %v", err)
		return nil
	}
	if err != nil {
		t.Fatalf("quiver cannot open the file: %v", err)
	}
	defer r.Close()
	parts := make([][]arrow.Array, r.Schema().NumFields())
	for g := range r.NumRowGroups() {
		rec, err := r.ReadRowGroup(context.Background(), g)
		if errors.Is(err, errs.ErrUnsupported) {
			t.Logf("quiver reader: %v", err)
			return nil
		}
		if err != nil {
			t.Fatalf("quiver cannot read row group %d: %v", g, err)
		}
		for i := range parts {
			c := rec.Column(i)
			c.Retain()
			parts[i] = append(parts[i], c)
		}
		rec.Release()
	}
	out := make([]arrow.Array, len(parts))
	for i, p := range parts {
		if len(p) == 0 {
			out[i] = array.MakeArrayOfNull(memory.DefaultAllocator, r.Schema().Field(i).Type, 0)
			continue
		}
		a, err := array.Concatenate(p, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range p {
			c.Release()
		}
		out[i] = a
	}
	return out
}

// pqMetadata returns the file metadata arrow-go reads from buf.
func pqMetadata(t testing.TB, buf []byte) *file.Reader {
	t.Helper()
	r, err := file.NewParquetReader(bytes.NewReader(buf))
	if err != nil {
		t.Fatalf("arrow-go cannot open the file: %v", err)
	}
	return r
}

// columnOf returns column i of tbl as one array (the caller releases it).
func columnOf(t testing.TB, mem memory.Allocator, tbl arrow.Table, i int) arrow.Array {
	t.Helper()
	chunks := tbl.Column(i).Data().Chunks()
	if len(chunks) == 1 {
		chunks[0].Retain()
		return chunks[0]
	}
	a, err := array.Concatenate(chunks, mem)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// assertSameValues fails unless got holds want's values. Readers may
// return another type for the same values (pqarrow reads string_view as
// string, date64 as date32, timestamp[s] as timestamp[ms], INTERVAL as
// fixed_size_binary[12], decimal32 as decimal128, ...), so values are
// compared in a canonical text form that every such pair shares.
func assertSameValues(t testing.TB, want, got arrow.Array) {
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
		if w, g := canonical(want, i), canonical(got, i); w != g {
			t.Fatalf("slot %d: %q, want %q (type %s, want %s)", i, g, w, got.DataType(), want.DataType())
		}
	}
}

// canonical returns slot i of a (not null) in a form that does not depend
// on which of the equivalent Arrow types holds it.
func canonical(a arrow.Array, i int) string {
	switch a := a.(type) {
	case *array.Dictionary:
		return canonical(a.Dictionary(), a.GetValueIndex(i))
	case array.ExtensionArray:
		return canonical(a.Storage(), i)
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
		return fmt.Sprint(int64(a.Value(i)) * (1e9 / colwrite.UnitsPerSecond(a.DataType().(*arrow.Time32Type).Unit)))
	case *array.Time64:
		return fmt.Sprint(int64(a.Value(i)) * (1e9 / colwrite.UnitsPerSecond(a.DataType().(*arrow.Time64Type).Unit)))
	case *array.Timestamp:
		return fmt.Sprint(int64(a.Value(i)) * (1e9 / colwrite.UnitsPerSecond(a.DataType().(*arrow.TimestampType).Unit)))
	case *array.Duration:
		return fmt.Sprint(int64(a.Value(i)) * (1e9 / colwrite.UnitsPerSecond(a.DataType().(*arrow.DurationType).Unit)))
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

// sameDecimal reports whether a and b are decimals of equal precision and
// scale.
func sameDecimal(a, b arrow.DataType) bool {
	x, ok1 := a.(arrow.DecimalType)
	y, ok2 := b.(arrow.DecimalType)
	return ok1 && ok2 && x.GetPrecision() == y.GetPrecision() && x.GetScale() == y.GetScale()
}

// writeFile writes recs with opts and returns the file.
func writeFile(t testing.TB, schema *arrow.Schema, opts WriteOptions, recs ...arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, schema, opts)
	if err != nil {
		t.Fatalf("NewWriter: %v", err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return buf.Bytes()
}
