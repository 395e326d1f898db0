package arrowio_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
)

// trips is the fixture shipped in testdata/: 1,000 taxi trips in two row
// groups, written by testdata/gen.
const trips = "../testdata/trips.parquet"

func ExampleOpenFile() {
	rd, err := arrowio.OpenFile(trips, arrowio.ReadOptions{Columns: []string{"vendor", "fare"}})
	if err != nil {
		log.Fatal(err)
	}
	defer rd.Close()
	fmt.Println(rd.NumRows(), "rows in", rd.NumRowGroups(), "row groups")
	for _, f := range rd.Schema().Fields() {
		fmt.Println(f.Name, f.Type)
	}
	// Output:
	// 1000 rows in 2 row groups
	// vendor utf8
	// fare decimal(9, 2)
}

func ExampleOpenFile_memoryMap() {
	// Chunks are sliced out of the mapped file instead of copied; the
	// table does not point into the mapping, so it outlives Close.
	rd, err := arrowio.OpenFile(trips, arrowio.ReadOptions{MemoryMap: true, Columns: []string{"fare"}})
	if err != nil {
		log.Fatal(err)
	}
	tbl, err := rd.ReadTable(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	defer tbl.Release()
	if err := rd.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(tbl.NumRows(), "fares, first", tbl.Column(0).Data().Chunk(0).ValueStr(0))
	// Output: 1000 fares, first 3.5
}

func ExampleOpen() {
	// Any io.ReaderAt works: a file, a memory buffer, an object-store client.
	b, err := os.ReadFile(trips)
	if err != nil {
		log.Fatal(err)
	}
	rd, err := arrowio.Open(bytes.NewReader(b), int64(len(b)), arrowio.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer rd.Close()
	fmt.Println(rd.Schema().NumFields(), "columns")
	// Output: 10 columns
}

func ExampleReader_ReadTable() {
	rd, err := arrowio.OpenFile(trips, arrowio.ReadOptions{Columns: []string{"trip_id", "passengers"}})
	if err != nil {
		log.Fatal(err)
	}
	defer rd.Close()
	tbl, err := rd.ReadTable(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	defer tbl.Release()
	passengers := tbl.Column(1).Data()
	fmt.Println(tbl.NumRows(), "rows,", passengers.NullN(), "without a passenger count, in", len(passengers.Chunks()), "chunks")
	// Output: 1000 rows, 77 without a passenger count, in 2 chunks
}

func ExampleReader_RecordReader() {
	rd, err := arrowio.OpenFile(trips, arrowio.ReadOptions{Columns: []string{"distance_km"}, BatchSize: 300})
	if err != nil {
		log.Fatal(err)
	}
	defer rd.Close()
	rr, err := rd.RecordReader(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	defer rr.Release()
	for rr.Next() {
		// The batch is valid until the next call to Next; Retain it to keep it.
		rec := rr.RecordBatch()
		km := rec.Column(0).(*array.Float64)
		fmt.Printf("%d rows, first %.2f km\n", rec.NumRows(), km.Value(0))
	}
	if err := rr.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// 300 rows, first 0.00 km
	// 200 rows, first 37.00 km
	// 300 rows, first 35.00 km
	// 200 rows, first 32.00 km
}

func ExampleReader_ReadRowGroup() {
	rd, err := arrowio.OpenFile(trips, arrowio.ReadOptions{Columns: []string{"vendor"}})
	if err != nil {
		log.Fatal(err)
	}
	defer rd.Close()
	rec, err := rd.ReadRowGroup(context.Background(), 1)
	if err != nil {
		log.Fatal(err)
	}
	defer rec.Release()
	fmt.Println(rec.NumRows(), rec.Column(0).(*array.String).Value(0))
	// Output: 500 acme
}

func ExampleReader_Metadata() {
	rd, err := arrowio.OpenFile(trips, arrowio.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer rd.Close()
	md := rd.Metadata()
	chunk := md.RowGroups[0].Columns[0].MetaData
	fmt.Println(md.CreatedBy.Or("?"), chunk.Codec, chunk.PathInSchema)
	// Output: quiver testdata/gen SNAPPY [trip_id]
}

func ExampleReadOptions_metadata() {
	b, err := os.ReadFile(trips)
	if err != nil {
		log.Fatal(err)
	}
	// A first Reader reads and parses the footer; its metadata can be kept
	// (here in a map, as a cache of footers would) for the file's next
	// readers.
	rd, err := arrowio.Open(bytes.NewReader(b), int64(len(b)), arrowio.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	cache := map[string]*footer.FileMetaData{trips: rd.Metadata()}
	rd.Close()

	// The next Reader opens without a request for the footer: its first
	// request is for data (this file is small, so it is read whole).
	rd, err = arrowio.Open(bytes.NewReader(b), int64(len(b)), arrowio.ReadOptions{Metadata: cache[trips], Columns: []string{"fare"}})
	if err != nil {
		log.Fatal(err)
	}
	defer rd.Close()
	fmt.Println("requests after Open:", rd.IOStats().Requests)
	tbl, err := rd.ReadTable(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	defer tbl.Release()
	fmt.Println(tbl.NumRows(), "fares in", rd.IOStats().Requests, "request")
	// Output:
	// requests after Open: 0
	// 1000 fares in 1 request
}

func ExampleArrowSchema() {
	f, err := os.Open(trips)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	ft, err := footer.ReadFooter(f, st.Size())
	if err != nil {
		log.Fatal(err)
	}
	// Large string offsets instead of the stored layout.
	s := arrowio.ArrowSchema(ft.Schema, ft.Meta.KeyValueMetadata, arrowio.SchemaOptions{Strings: arrowio.StringsLarge})
	fmt.Println(s.Field(1).Type)
	// Output: large_utf8
}
