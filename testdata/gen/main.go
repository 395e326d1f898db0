// Command gen writes the small Parquet fixtures shipped in testdata/.
//
// Run it from the module root with `go generate ./testdata/...` or
// `go run ./testdata/gen`. Output is deterministic: the same program writes
// the same bytes, so a diff after regenerating means the fixtures changed.
package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

func main() {
	dir := "testdata"
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	if err := writeTrips(filepath.Join(dir, "trips.parquet")); err != nil {
		log.Fatal(err)
	}
}

// writeTrips writes a small taxi-trip-like table: 1,000 rows in two row
// groups, with required and nullable columns of the common flat types.
func writeTrips(path string) error {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "trip_id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "vendor", Type: arrow.BinaryTypes.String},
		{Name: "pickup", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
		{Name: "passengers", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		{Name: "distance_km", Type: arrow.PrimitiveTypes.Float64},
		{Name: "fare", Type: &arrow.Decimal128Type{Precision: 9, Scale: 2}},
		{Name: "tip", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "paid_card", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32},
		{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	vendors := []string{"acme", "blue cab", "city", "dash"}
	const rows = 1000
	const start = int64(1_700_000_000_000_000) // 2023-11-14T22:13:20Z in µs
	for i := 0; i < rows; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(100000 + i))
		b.Field(1).(*array.StringBuilder).Append(vendors[(i*7)%len(vendors)])
		b.Field(2).(*array.TimestampBuilder).Append(arrow.Timestamp(start + int64(i)*37_000_000))
		if i%13 == 0 {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.Int8Builder).Append(int8(1 + i%4))
		}
		km := float64((i*7919)%4000) / 100
		b.Field(4).(*array.Float64Builder).Append(km)
		b.Field(5).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(350 + i*173%6000)))
		if i%5 == 0 {
			b.Field(6).AppendNull()
		} else {
			b.Field(6).(*array.Float32Builder).Append(float32(i%9) * 0.5)
		}
		if i%11 == 0 {
			b.Field(7).AppendNull()
		} else {
			b.Field(7).(*array.BooleanBuilder).Append(i%3 != 0)
		}
		b.Field(8).(*array.Date32Builder).Append(arrow.Date32(19675 + i/200))
		if i%4 == 0 {
			b.Field(9).(*array.StringBuilder).Append(fmt.Sprintf("trip %d: airport run", i))
		} else {
			b.Field(9).AppendNull()
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()

	f, err := os.Create(path)
	if err != nil {
		return err
	}
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(rows/2),
		parquet.WithCreatedBy("quiver testdata/gen"),
		parquet.WithStats(true),
	)
	w, err := pqarrow.NewFileWriter(schema, f, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		f.Close()
		return err
	}
	if err := w.Write(rec); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
