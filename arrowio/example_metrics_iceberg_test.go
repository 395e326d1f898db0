package arrowio_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
)

// IcebergBounds gives a column's bounds in the form an Iceberg manifest
// stores them: here a millisecond timestamp becomes microseconds.
func ExampleColumnMetrics_IcebergBounds() {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1, 3}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()

	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, schema, arrowio.WriteOptions{})
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	col := w.Metrics().Column("ts")
	lower, upper, err := col.IcebergBounds()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("Parquet bounds %x %x\nIceberg bounds %x %x\n", col.Lower, col.Upper, lower, upper)
	// Output:
	// Parquet bounds 0100000000000000 0300000000000000
	// Iceberg bounds e803000000000000 b80b000000000000
}
