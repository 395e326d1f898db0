package scan_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/arrowio/internal/scan"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
)

// placeableFields are columns whose values need no decoding, which a
// chunk read page by page places straight from the file.
var placeableFields = []arrow.Field{
	{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "i64", Type: arrow.PrimitiveTypes.Int64},
	{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "date", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
	{Name: "fsb", Type: &arrow.FixedSizeBinaryType{ByteWidth: 5}, Nullable: true},
}

// pagesTable is a table of placeable columns and of columns that
// decode (int8 from INT32, strings, FLBA decimals), with nulls, long null
// runs and all-null pages.
func pagesTable(t *testing.T, rows int) arrow.RecordBatch {
	fields := append(placeableFields[:len(placeableFields):len(placeableFields)],
		arrow.Field{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "dec", Type: &arrow.Decimal128Type{Precision: 12, Scale: 2}})
	rng := rand.New(rand.NewPCG(7, 8))
	cols := make([]arrow.Array, len(fields))
	for i, f := range fields {
		nulls := 0.0
		if f.Nullable {
			nulls = []float64{0.1, 0.5, 1}[i%3]
		}
		cols[i] = arrowiotest.RandomArray(t, memory.DefaultAllocator, f.Type, rows, nulls, false, rng)
		defer cols[i].Release()
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(rows))
}

// TestPagesFromFile reads uncompressed files page by page, as OpenFile
// does, through a window smaller than their pages: every column must read
// back equal, in whole row groups and in batches that end inside pages,
// and the placeable columns must be read a page at a time, straight into
// their arrays, with no byte of a chunk read twice. Through a 64-byte
// window the definition levels of nullable pages do not fit, and those
// pages are read whole.
func TestPagesFromFile(t *testing.T) {
	const rows = 20_000
	rec := pagesTable(t, rows)
	defer rec.Release()
	for _, c := range []struct {
		name string
		opts []parquet.WriterProperty
	}{
		{"v1", []parquet.WriterProperty{parquet.WithDataPageVersion(parquet.DataPageV1)}},
		{"v2", []parquet.WriterProperty{parquet.WithDataPageVersion(parquet.DataPageV2)}},
		{"v1 row groups", []parquet.WriterProperty{parquet.WithMaxRowGroupLength(7000)}},
		// A dictionary page larger than the window, and data pages that
		// are not PLAIN, are read whole.
		{"dictionary", []parquet.WriterProperty{parquet.WithDictionaryDefault(true), parquet.WithDictionaryPageSizeLimit(64 << 10)}},
	} {
		opts := append([]parquet.WriterProperty{parquet.WithCompression(compress.Codecs.Uncompressed),
			parquet.WithDictionaryDefault(false), parquet.WithDataPageSize(16 << 10), parquet.WithStats(true)}, c.opts...)
		file := arrowiotest.WritePqarrow(t, rec, opts...)
		for _, r := range []struct{ batch, window int }{{0, 1024}, {777, 1024}, {0, 64}, {777, 64}} {
			batch := r.batch
			t.Run(fmt.Sprintf("%s/batch %d/window %d", c.name, batch, r.window), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				rd := openBytes(t, file, scan.Options{Mem: mem, BatchSize: batch})
				rd.ChunkReads, rd.Window = true, r.window
				var tbl arrow.Table
				var err error
				if batch == 0 {
					tbl, err = rd.ReadTable(context.Background())
				} else {
					tbl, err = arrowiotest.ReadBatches(rd)
				}
				if err != nil {
					t.Fatal(err)
				}
				defer tbl.Release()
				arrowiotest.CheckTable(t, "page by page", tbl, rec)
			})
		}
		if c.name != "dictionary" {
			checkPageReads(t, c.name, file)
		}
	}
}

// checkPageReads reads file's placeable columns page by page through a
// 1 KiB window and checks the reads: none may be longer than a page (the
// writer aims at 16 KiB and may run over), so that no chunk of several
// pages was read whole, and all of them together must read each chunk
// once, give or take a window per chunk.
func checkPageReads(t *testing.T, desc string, file []byte) {
	t.Helper()
	const pageBound = 24 << 10
	src := &arrowiotest.CountingReaderAt{R: bytes.NewReader(file)}
	var names []string
	for _, f := range placeableFields {
		names = append(names, f.Name)
	}
	rd := open(t, src, int64(len(file)), scan.Options{Columns: names})
	rd.ChunkReads, rd.Window = true, 1024
	src.Reset() // the footer's reads
	tbl, err := rd.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tbl.Release()
	var chunks, largest int64
	for _, rg := range rd.Footer.Meta.RowGroups {
		for _, cc := range rg.Columns[:len(names)] {
			chunks += cc.MetaData.TotalCompressedSize
			largest = max(largest, cc.MetaData.TotalCompressedSize)
		}
	}
	if largest <= 2*pageBound {
		t.Fatalf("%s: no chunk is larger than two pages; the test reads nothing page by page", desc)
	}
	for _, r := range src.Reads {
		if r.End-r.Start > pageBound {
			t.Errorf("%s: a read of %d bytes at %d: a chunk was read whole", desc, r.End-r.Start, r.Start)
			break
		}
	}
	if src.Bytes < chunks || src.Bytes > chunks+int64(len(rd.Footer.Meta.RowGroups)*len(names)*1024) {
		t.Errorf("%s: read %d bytes for chunks of %d bytes", desc, src.Bytes, chunks)
	}
}
