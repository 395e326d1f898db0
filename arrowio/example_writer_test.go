package arrowio_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"log"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
)

// Write two record batches to a zstd-compressed file, where their rows
// fill one row group, then read the file back.
func ExampleNewWriter() {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "city", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()

	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, schema, arrowio.WriteOptions{Compression: footer.CodecZstd})
	if err != nil {
		log.Fatal(err)
	}
	for _, cities := range [][]string{{"Oslo", "Lima", ""}, {"Oslo", "Pune"}} {
		for i, c := range cities {
			b.Field(0).(*array.Int64Builder).Append(int64(i))
			if c == "" {
				b.Field(1).AppendNull()
			} else {
				b.Field(1).(*array.StringBuilder).Append(c)
			}
		}
		rec := b.NewRecordBatch()
		err := w.Write(rec) // the rows join the current row group
		rec.Release()
		if err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	r, err := arrowio.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()), arrowio.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	fmt.Println("row groups:", r.NumRowGroups(), "rows:", r.NumRows())
	for g := range r.NumRowGroups() {
		rec, err := r.ReadRowGroup(context.Background(), g)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(rec.Column(1))
		rec.Release()
	}
	// Output:
	// row groups: 1 rows: 5
	// ["Oslo" "Lima" (null) "Oslo" "Pune"]
}

// Rows from many small batches fill one row group until it is full or
// Flush closes it.
func ExampleWriter_Flush() {
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()

	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, schema, arrowio.WriteOptions{MaxRowGroupRows: 2500})
	if err != nil {
		log.Fatal(err)
	}
	for batch := range 4 { // 4 batches of 1,000 rows
		for i := range 1000 {
			b.Append(int64(batch*1000 + i))
		}
		col := b.NewArray()
		rec := array.NewRecordBatch(schema, []arrow.Array{col}, 1000)
		col.Release()
		err := w.Write(rec)
		rec.Release()
		if err != nil {
			log.Fatal(err)
		}
		if batch == 0 {
			if err := w.Flush(); err != nil { // end the first row group now
				log.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	for _, rg := range w.Metadata().RowGroups {
		fmt.Println(rg.NumRows, "rows")
	}
	// Output:
	// 1000 rows
	// 2500 rows
	// 500 rows
}

// After Close, Metrics describes the file as an Iceberg or Delta Lake
// writer records it: per leaf, keyed by field id, counts, NaNs, sizes and
// bounds (text truncated to 16 characters, the upper bound incremented).
func ExampleWriter_Metrics() {
	id := arrow.NewMetadata([]string{"PARQUET:field_id"}, []string{"7"})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true, Metadata: id},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Float64Builder).AppendValues([]float64{2.5, math.NaN(), -1, 0}, []bool{true, true, true, false})
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"apple", "zebra crossings on the road", "", "pear"}, []bool{true, true, false, true})
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
	m := w.Metrics()
	fmt.Println("rows:", m.RowCount, "row groups at:", m.SplitOffsets, "file size matches:", m.FileSize == int64(buf.Len()))
	x := m.Column("x")
	fmt.Println("x: values", x.Values, "nulls", x.Nulls, "NaNs", x.NaNs.Value,
		"bounds", math.Float64frombits(binary.LittleEndian.Uint64(x.Lower)), math.Float64frombits(binary.LittleEndian.Uint64(x.Upper)))
	s := m.FieldID(7)
	fmt.Printf("field 7 (%s): nulls %d, bounds %q %q\n", s.Path, s.Nulls, s.Lower, s.Upper)
	fmt.Println("footer row groups:", len(w.Metadata().RowGroups))
	// Output:
	// rows: 4 row groups at: [4] file size matches: true
	// x: values 4 nulls 1 NaNs 1 bounds -1 2.5
	// field 7 (s): nulls 1, bounds "apple" "zebra crossings!"
	// footer row groups: 1
}

// SortingColumns declares how the rows are sorted: every row group's
// sorting_columns, which a Reader gives back in the Arrow schema metadata.
func ExampleWriteOptions_sortingColumns() {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "day", Type: arrow.PrimitiveTypes.Int32},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Int32Builder).AppendValues([]int32{1, 1, 2}, nil)
	b.Field(1).(*array.Float64Builder).AppendValues([]float64{0, 9, 5}, []bool{false, true, true})
	rec := b.NewRecordBatch()
	defer rec.Release()

	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, schema, arrowio.WriteOptions{SortingColumns: []arrowio.SortingColumn{
		{Column: "day"}, {Column: "score", Descending: true, NullsFirst: true}}})
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	r, err := arrowio.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()), arrowio.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	v, _ := r.Schema().Metadata().GetValue(arrowio.SortingColumnsKey)
	fmt.Println(v)
	// Output:
	// [{"column":"day","descending":false,"nulls_first":false},{"column":"score","descending":true,"nulls_first":true}]
}

// After Close, Metadata is the footer the Writer wrote: no need to read
// the file back to learn its row groups, offsets and statistics.
func ExampleWriter_Metadata() {
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int32}}, nil)
	b := array.NewInt32Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]int32{3, 1, 2}, nil)
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, 3)
	defer rec.Release()

	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, schema, arrowio.WriteOptions{})
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		log.Fatal(err)
	}
	fmt.Println("before Close:", w.Metadata() == nil)
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	md := w.Metadata()
	st := md.RowGroups[0].Columns[0].MetaData.Statistics
	fmt.Println("rows:", md.NumRows, "row groups:", len(md.RowGroups))
	fmt.Println("min:", binary.LittleEndian.Uint32(st.MinValue), "max:", binary.LittleEndian.Uint32(st.MaxValue))
	// Output:
	// before Close: true
	// rows: 3 row groups: 1
	// min: 1 max: 3
}
