package arrowio

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/page"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"

	"github.com/quiverio/quiver/footer"
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
		cols[i] = randomArray(t, memory.DefaultAllocator, f.Type, rows, nulls, false, rng)
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
		file := writePqarrow(t, rec, opts...)
		for _, r := range []struct{ batch, window int }{{0, 1024}, {777, 1024}, {0, 64}, {777, 64}} {
			batch := r.batch
			t.Run(fmt.Sprintf("%s/batch %d/window %d", c.name, batch, r.window), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				rd, err := Open(bytes.NewReader(file), int64(len(file)), ReadOptions{Allocator: mem, BatchSize: batch})
				if err != nil {
					t.Fatal(err)
				}
				defer rd.Close()
				rd.f.ChunkReads, rd.f.Window = true, r.window
				var tbl arrow.Table
				if batch == 0 {
					tbl, err = rd.ReadTable(context.Background())
				} else {
					tbl, err = readAllBatches(rd)
				}
				if err != nil {
					t.Fatal(err)
				}
				defer tbl.Release()
				checkTable(t, "page by page", tbl, rec)
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
	src := &countingReaderAt{f: bytes.NewReader(file)}
	var names []string
	for _, f := range placeableFields {
		names = append(names, f.Name)
	}
	rd, err := Open(src, int64(len(file)), ReadOptions{Columns: names})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	rd.f.ChunkReads, rd.f.Window = true, 1024
	src.reads, src.bytes = nil, 0 // the footer's reads
	tbl, err := rd.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tbl.Release()
	var chunks, largest int64
	for _, rg := range rd.f.Footer.Meta.RowGroups {
		for _, cc := range rg.Columns[:len(names)] {
			chunks += cc.MetaData.TotalCompressedSize
			largest = max(largest, cc.MetaData.TotalCompressedSize)
		}
	}
	if largest <= 2*pageBound {
		t.Fatalf("%s: no chunk is larger than two pages; the test reads nothing page by page", desc)
	}
	for _, r := range src.reads {
		if r.End-r.Start > pageBound {
			t.Errorf("%s: a read of %d bytes at %d: a chunk was read whole", desc, r.End-r.Start, r.Start)
			break
		}
	}
	if src.bytes < chunks || src.bytes > chunks+int64(len(rd.f.Footer.Meta.RowGroups)*len(names)*1024) {
		t.Errorf("%s: read %d bytes for chunks of %d bytes", desc, src.bytes, chunks)
	}
}

// pagesChunk builds a column chunk of random pages for the page iterator:
// data pages v1 and v2, dictionary and index pages, payloads from empty to
// several windows, and headers whose statistics outgrow small windows.
func pagesChunk(rng *rand.Rand, pages int) []byte {
	var chunk []byte
	for range pages {
		payload := make([]byte, []int{0, 1, 30, 500, 3000}[rng.IntN(5)]+rng.IntN(40))
		for i := range payload {
			payload[i] = byte(rng.Uint32())
		}
		h := footer.PageHeader{UncompressedPageSize: int32(len(payload)), CompressedPageSize: int32(len(payload))}
		stats := &footer.Statistics{Min: make([]byte, rng.IntN(2)*rng.IntN(400)), Max: []byte("max")}
		switch rng.IntN(4) {
		case 0:
			h.Type = footer.PageTypeData
			h.DataPageHeader = &footer.DataPageHeader{NumValues: int32(rng.IntN(100)), Statistics: stats}
		case 1:
			h.Type = footer.PageTypeDataV2
			h.DataPageHeaderV2 = &footer.DataPageHeaderV2{NumValues: 5, NumRows: 5, Statistics: stats}
		case 2:
			h.Type = footer.PageTypeDictionary
			h.DictionaryPageHeader = &footer.DictionaryPageHeader{NumValues: 3}
		default:
			h.Type = footer.PageTypeIndex
			h.IndexPageHeader = &footer.IndexPageHeader{}
		}
		chunk = footer.Marshal(chunk, &h)
		chunk = append(chunk, payload...)
	}
	return chunk
}

// comparePageIterators walks chunk, which starts at file offset base of
// file, in memory and from the file through a window of the given size,
// and reports the first difference in the pages, their payloads (which
// the file iterator materializes, unless skip says to leave a page's rest
// unread) or whether they fail.
func comparePageIterators(file []byte, base int64, chunk []byte, window int, skip func() bool) error {
	mem := page.Iterator{Data: chunk, Base: base}
	var fromFile page.Iterator
	fromFile.AttachFile(bytes.NewReader(file), base, base+int64(len(chunk)), window)
	defer fromFile.ReleaseWindow()
	for page := 0; ; page++ {
		want, wok, werr := mem.Next()
		got, gok, gerr := fromFile.Next()
		if (werr == nil) != (gerr == nil) || wok != gok {
			return fmt.Errorf("page %d: from the file ok=%v, %v; in memory ok=%v, %v", page, gok, gerr, wok, werr)
		}
		if !wok || werr != nil {
			if !fromFile.Exhausted() && werr == nil {
				return fmt.Errorf("page %d: the file iterator is not exhausted at the end", page)
			}
			return nil
		}
		if got.Offset != want.Offset || got.Header.Type != want.Header.Type ||
			got.Header.CompressedPageSize != want.Header.CompressedPageSize || fromFile.Ordinal != mem.Ordinal {
			return fmt.Errorf("page %d: from the file %+v (ordinal %d), in memory %+v (%d)", page, got.Header, fromFile.Ordinal, want.Header, mem.Ordinal)
		}
		if len(got.Payload)+got.More != len(want.Payload) || !bytes.Equal(got.Payload, want.Payload[:len(got.Payload)]) {
			return fmt.Errorf("page %d: %d+%d payload bytes from the file, %d in memory, or they differ", page, len(got.Payload), got.More, len(want.Payload))
		}
		if got.More > 0 && skip() {
			continue
		}
		if err := fromFile.Materialize(&got); err != nil {
			return fmt.Errorf("page %d: materialize: %v", page, err)
		}
		if !bytes.Equal(got.Payload, want.Payload) {
			return fmt.Errorf("page %d: materialized payload differs", page)
		}
	}
}

// TestPageIteratorFromFile checks that a chunk read from the file page by
// page gives the pages of the same chunk held in memory, through windows
// from one byte to larger than the chunk, and through truncations and
// bit flips of the chunk.
func TestPageIteratorFromFile(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := range 200 {
		chunk := pagesChunk(rng, 1+rng.IntN(12))
		switch iter % 4 {
		case 1:
			chunk = chunk[:rng.IntN(len(chunk)+1)]
		case 2:
			for range 3 {
				chunk[rng.IntN(len(chunk))] ^= byte(1 << rng.IntN(8))
			}
		}
		base := int64(rng.IntN(100))
		file := append(make([]byte, base), chunk...)
		file = append(file, "trailing bytes past the chunk"...)
		for _, window := range []int{1, 7, 64, 1000, 1 << 20} {
			if err := comparePageIterators(file, base, chunk, window, func() bool { return rng.IntN(2) == 0 }); err != nil {
				t.Fatalf("iteration %d, window %d: %v", iter, window, err)
			}
		}
	}
}

// FuzzPageIteratorFromFile walks arbitrary bytes as a column chunk read
// from the file, through a window the first byte sizes, and requires the
// pages the same chunk gives in memory.
func FuzzPageIteratorFromFile(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 8 {
		f.Add(append([]byte{byte(rng.IntN(64))}, pagesChunk(rng, 1+rng.IntN(6))...))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 {
			return
		}
		window, chunk := 1+int(b[0]), b[1:]
		skip := false
		if err := comparePageIterators(chunk, 0, chunk, window, func() bool { skip = !skip; return skip }); err != nil {
			t.Fatal(err)
		}
	})
}
