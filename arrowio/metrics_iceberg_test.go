package arrowio_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
)

// le4 and le8 are v's little-endian 4 and 8 bytes.
func le4(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func le8(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

// TestIcebergBounds writes two values of each type and checks the
// bounds' Iceberg single-value serialization against the spec's forms,
// worked out by hand.
func TestIcebergBounds(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	big70 := decimal128.FromBigInt(new(big.Int).Lsh(big.NewInt(1), 70))
	h := func(f float32) float16.Num { return float16.New(f) }
	cols := []struct {
		typ          arrow.DataType
		fill         func(array.Builder)
		lower, upper []byte // nil lower: ErrNoIcebergType
	}{
		{arrow.PrimitiveTypes.Int32, func(b array.Builder) { b.(*array.Int32Builder).AppendValues([]int32{3, -7}, nil) },
			le4(uint32(0xfffffff9)), le4(3)},
		{arrow.PrimitiveTypes.Uint32, func(b array.Builder) { b.(*array.Uint32Builder).AppendValues([]uint32{4e9, 5}, nil) },
			le8(5), le8(4e9)},
		{arrow.PrimitiveTypes.Uint64, func(b array.Builder) { b.(*array.Uint64Builder).AppendValues([]uint64{1, 2}, nil) },
			nil, nil},
		{arrow.FixedWidthTypes.Date32, func(b array.Builder) { b.(*array.Date32Builder).AppendValues([]arrow.Date32{19000, 18000}, nil) },
			le4(18000), le4(19000)},
		{arrow.FixedWidthTypes.Time32ms, func(b array.Builder) { b.(*array.Time32Builder).AppendValues([]arrow.Time32{1000, 2500}, nil) },
			le8(1_000_000), le8(2_500_000)},
		{arrow.FixedWidthTypes.Time64us, func(b array.Builder) { b.(*array.Time64Builder).AppendValues([]arrow.Time64{7, 9}, nil) },
			le8(7), le8(9)},
		{arrow.FixedWidthTypes.Time64ns, func(b array.Builder) { b.(*array.Time64Builder).AppendValues([]arrow.Time64{7, 9}, nil) },
			nil, nil},
		{&arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, func(b array.Builder) {
			b.(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1_700_000_000_000, -5}, nil)
		}, le8(uint64(0xffffffffffffec78)), le8(1_700_000_000_000_000)},
		{&arrow.TimestampType{Unit: arrow.Nanosecond}, func(b array.Builder) {
			b.(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{42, 41}, nil)
		}, le8(41), le8(42)},
		{&arrow.Decimal128Type{Precision: 5, Scale: 2}, func(b array.Builder) {
			b.(*array.Decimal128Builder).AppendValues([]decimal128.Num{decimal128.FromI64(-12345), decimal128.FromI64(300)}, nil)
		}, []byte{0xcf, 0xc7}, []byte{0x01, 0x2c}},
		{&arrow.Decimal128Type{Precision: 30, Scale: 2}, func(b array.Builder) {
			b.(*array.Decimal128Builder).AppendValues([]decimal128.Num{big70, decimal128.FromI64(-1)}, nil)
		}, []byte{0xff}, []byte{0x40, 0, 0, 0, 0, 0, 0, 0, 0}},
		{arrow.FixedWidthTypes.Float16, func(b array.Builder) { b.(*array.Float16Builder).AppendValues([]float16.Num{h(1.5), h(-2)}, nil) },
			le4(math.Float32bits(-2)), le4(math.Float32bits(1.5))},
		{arrow.PrimitiveTypes.Float64, func(b array.Builder) { b.(*array.Float64Builder).AppendValues([]float64{0.25, 8}, nil) },
			le8(math.Float64bits(0.25)), le8(math.Float64bits(8))},
		{arrow.FixedWidthTypes.Boolean, func(b array.Builder) { b.(*array.BooleanBuilder).AppendValues([]bool{true, false}, nil) },
			[]byte{0}, []byte{1}},
		{arrow.BinaryTypes.String, func(b array.Builder) { b.(*array.StringBuilder).AppendValues([]string{"pear", "apple"}, nil) },
			[]byte("apple"), []byte("pear")},
		{&arrow.FixedSizeBinaryType{ByteWidth: 3}, func(b array.Builder) {
			b.(*array.FixedSizeBinaryBuilder).AppendValues([][]byte{{9, 9, 9}, {1, 2, 3}}, nil)
		}, []byte{1, 2, 3}, []byte{9, 9, 9}},
	}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.typ.String(), Type: c.typ}
	}
	schema := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i, c := range cols {
		c.fill(b.Field(i))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	w, _ := arrowiotest.WriteClosed(t, schema, arrowio.WriteOptions{}, rec)
	m := w.Metrics()
	for i, c := range cols {
		cm := &m.Columns[i]
		lower, upper, err := cm.IcebergBounds()
		if c.lower == nil {
			if !errors.Is(err, arrowio.ErrNoIcebergType) {
				t.Errorf("%s: err %v, want ErrNoIcebergType", cm.Path, err)
			}
			continue
		}
		if err != nil || !bytes.Equal(lower, c.lower) || !bytes.Equal(upper, c.upper) {
			t.Errorf("%s: IcebergBounds %x %x (%v), want %x %x", cm.Path, lower, upper, err, c.lower, c.upper)
		}
	}
	if _, _, err := (&arrowio.ColumnMetrics{Path: "x"}).IcebergBounds(); err == nil {
		t.Error("IcebergBounds of metrics not made by Writer.Metrics: no error")
	}
}
