package arrowio_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"log"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/pageindex"
)

// exampleFile writes 1000 rows (id 0..999, tag "t<id mod 10>") in pages
// of 100 rows, with a bloom filter on tag when bloom is set.
func exampleFile(bloom *arrowio.BloomFilterOptions) []byte {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "tag", Type: arrow.BinaryTypes.String},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range 1000 {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("t%d", i%10))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, schema, arrowio.WriteOptions{
		DataPageRows: 100,
		Columns:      map[string]arrowio.ColumnOptions{"tag": {BloomFilter: bloom}},
	})
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	return buf.Bytes()
}

// Read only the rows that satisfy a predicate: the page index limits the
// read to the pages that may hold them, and the batches hold exactly the
// matching rows.
func ExampleReadOptions_filter() {
	file := exampleFile(nil)
	filter, err := pageindex.Parse(`id >= 420 and id < 450 and tag = "t3"`)
	if err != nil {
		log.Fatal(err)
	}
	r, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Filter: filter})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	tbl, err := r.ReadTable(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	defer tbl.Release()
	for _, chunk := range tbl.Column(0).Data().Chunks() {
		fmt.Println(chunk)
	}
	// Output:
	// [423 433 443]
}

// Write a bloom filter for a column, sized for the distinct values of each
// column chunk at a 1% false-positive rate; a filter on a value that is
// not there then reads none of the file's pages.
func ExampleBloomFilterOptions() {
	file := exampleFile(&arrowio.BloomFilterOptions{FPP: 0.01})
	r, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{
		Filter: pageindex.Eq("tag", pageindex.String("t42")),
	})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	md := r.Metadata().RowGroups[0].Columns[1].MetaData
	fmt.Println("bloom filter stored:", md.BloomFilterOffset.Set)
	rec, err := r.ReadRowGroup(context.Background(), 0)
	if err != nil {
		log.Fatal(err)
	}
	defer rec.Release()
	fmt.Println("rows:", rec.NumRows())
	// Output:
	// bloom filter stored: true
	// rows: 0
}

// Read the page index of a column chunk: where each page starts, its first
// row, and its smallest and largest value.
func ExampleReader_PageIndex() {
	file := exampleFile(nil)
	r, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	ci, oi, err := r.PageIndex(0, "id")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("pages:", len(oi.PageLocations), "order:", ci.BoundaryOrder)
	for p := range 3 {
		fmt.Println("first row", oi.PageLocations[p].FirstRowIndex, "min", binary.LittleEndian.Uint64(ci.MinValues[p]), "max", binary.LittleEndian.Uint64(ci.MaxValues[p]))
	}
	// Output:
	// pages: 10 order: ASCENDING
	// first row 0 min 0 max 99
	// first row 100 min 100 max 199
	// first row 200 min 200 max 299
}

// Check values against the bloom filter of a column chunk.
func ExampleReader_BloomFilter() {
	file := exampleFile(&arrowio.BloomFilterOptions{FPP: 0.01})
	r, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	bf, err := r.BloomFilter(0, "tag")
	if err != nil {
		log.Fatal(err)
	}
	for _, v := range []string{"t7", "t70"} {
		fmt.Println(v, "may be present:", bf.Check(pageindex.HashBytes([]byte(v))))
	}
	// Output:
	// t7 may be present: true
	// t70 may be present: false
}
