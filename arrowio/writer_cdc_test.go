package arrowio_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/duckdb"
)

// smallCDC cuts pages of a few KiB, so that tables of a few thousand rows
// get many.
var smallCDC = &arrowio.CDCOptions{MinChunkSize: 2 << 10, MaxChunkSize: 8 << 10}

// dataPage is one data page of a file: its header and body bytes, and the
// column it belongs to.
type dataPage struct {
	column string
	bytes  []byte
}

// dataPages returns the data pages of every column chunk of file, walking
// each chunk's page headers.
func dataPages(t testing.TB, file []byte) []dataPage {
	t.Helper()
	rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var out []dataPage
	for _, rg := range rd.Metadata().RowGroups {
		for _, cc := range rg.Columns {
			md := cc.MetaData
			start := md.DataPageOffset
			if off, ok := md.DictionaryPageOffset.Get(); ok && off > 0 {
				start = off
			}
			end := start + md.TotalCompressedSize
			for off := start; off < end; {
				var h footer.PageHeader
				n, err := footer.UnmarshalPageHeader(file[off:end], &h)
				if err != nil {
					t.Fatalf("page header at %d: %v", off, err)
				}
				next := off + int64(n) + int64(h.CompressedPageSize)
				if h.Type == footer.PageTypeData || h.Type == footer.PageTypeDataV2 {
					out = append(out, dataPage{strings.Join(md.PathInSchema, "."), file[off:next]})
				}
				off = next
			}
		}
	}
	return out
}

// sharedPageBytes returns the share, by bytes, of b's data pages that are
// byte-identical to a data page of a.
func sharedPageBytes(t testing.TB, a, b []byte) float64 {
	seen := map[[32]byte]bool{}
	for _, p := range dataPages(t, a) {
		seen[sha256.Sum256(p.bytes)] = true
	}
	var same, total int
	for _, p := range dataPages(t, b) {
		total += len(p.bytes)
		if seen[sha256.Sum256(p.bytes)] {
			same += len(p.bytes)
		}
	}
	return float64(same) / float64(total)
}

// withInsert returns rec with ins inserted after its first at rows.
func withInsert(t testing.TB, rec, ins arrow.RecordBatch, at int64) arrow.RecordBatch {
	t.Helper()
	head, tail := rec.NewSlice(0, at), rec.NewSlice(at, rec.NumRows())
	defer head.Release()
	defer tail.Release()
	cols := make([]arrow.Array, rec.NumCols())
	for i := range cols {
		c, err := array.Concatenate([]arrow.Array{head.Column(i), ins.Column(i), tail.Column(i)}, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		cols[i] = c
	}
	defer releaseAll(cols)
	return array.NewRecordBatch(rec.Schema(), cols, rec.NumRows()+ins.NumRows())
}

// TestCDCDeduplicates writes an order-lines table of a million rows, then
// the same table with 1% more rows inserted in its middle, and checks
// that with content-defined chunking at least 75% of the second file's
// data page bytes are pages of the first, byte for byte, and that
// without it at most half are (the pages after the insert shift).
// -short runs use a quarter of the rows and of the chunk sizes.
//
// The share falls short of 100% by the pages the insert lands in and by
// those cut before the chunker finds the first file's cuts again: the
// two files' hashes differ, each counting its matches with its own gear
// table, until both cut at the same value. That takes about one page
// (256 KiB to 1 MiB of values) in most columns, and a column of 4-byte
// dates cut into 8 pages can run to its end without it. A million rows
// here (about 60 MB of values) cut into 7 to 57 pages per column; it
// measured 84.7% (dictionary, snappy) and 82.9% (PLAIN, zstd) in full runs,
// 78-80% in -short ones, and 34% and 14% without chunking.
func TestCDCDeduplicates(t *testing.T) {
	n := arrowiotest.Rows(1_000_000)
	cdc := &arrowio.CDCOptions{}
	if testing.Short() {
		cdc = &arrowio.CDCOptions{MinChunkSize: arrowio.DefaultCDCMinChunkSize / 4, MaxChunkSize: arrowio.DefaultCDCMaxChunkSize / 4}
	}
	rec := benchRecord(n)
	defer rec.Release()
	ins := seededRecord(n/100, 7)
	defer ins.Release()
	edited := withInsert(t, rec, ins, int64(n/2))
	defer edited.Release()
	for _, c := range []struct {
		name  string
		opts  arrowio.WriteOptions
		floor float64 // the least share, or minus the most
	}{
		{"dict-snappy", arrowio.WriteOptions{Compression: footer.CodecSnappy, ContentDefinedChunking: cdc}, 0.75},
		{"plain-zstd-v2", arrowio.WriteOptions{Compression: footer.CodecZstd, PageVersion: arrowio.PageV2, DisableDictionary: true, ContentDefinedChunking: cdc}, 0.75},
		{"dict-snappy-no-cdc", arrowio.WriteOptions{Compression: footer.CodecSnappy}, -0.5},
	} {
		a := arrowiotest.WriteFile(t, rec.Schema(), c.opts, rec)
		b := arrowiotest.WriteFile(t, rec.Schema(), c.opts, edited)
		share := sharedPageBytes(t, a, b)
		t.Logf("%s: %.1f%% of the edited file's data page bytes (%d pages) are pages of the original", c.name, 100*share, len(dataPages(t, b)))
		switch {
		case c.floor > 0 && share < c.floor:
			t.Errorf("%s: %.1f%% of data page bytes shared, want at least %.0f%%", c.name, 100*share, 100*c.floor)
		case c.floor < 0 && share > -c.floor:
			t.Errorf("%s: %.1f%% of data page bytes shared, want at most %.0f%%", c.name, 100*share, -100*c.floor)
		}
	}
}

// TestCDCWrite writes flat and nested columns of every type with small
// chunks, and checks that pages are cut (many per column chunk, each
// nested one starting at a row), that writing the same rows again gives
// the same bytes, and that pqarrow reads the file to the same values as
// Quiver and DuckDB to the rows of arrow-go's own file.
func TestCDCWrite(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := duckTable(t, mem, 4000) // not fewer under -short: the chunks need the bytes to cut
	defer rec.Release()
	for _, v := range []arrowio.PageVersion{arrowio.PageV1, arrowio.PageV2} {
		opts := arrowio.WriteOptions{Compression: footer.CodecSnappy, PageVersion: v, ContentDefinedChunking: smallCDC}
		file := arrowiotest.WriteFile(t, rec.Schema(), opts, rec)
		if again := arrowiotest.WriteFile(t, rec.Schema(), opts, rec); !bytes.Equal(file, again) {
			t.Fatalf("v%d: writing the same rows twice gave different files", v)
		}
		plain := arrowiotest.WriteFile(t, rec.Schema(), arrowio.WriteOptions{Compression: footer.CodecSnappy, PageVersion: v}, rec)
		if got, without := len(dataPages(t, file)), len(dataPages(t, plain)); got < 4*without {
			t.Errorf("v%d: %d data pages with chunks of 2-8 KiB, %d without", v, got, without)
		}
		checkRowStarts(t, file)
		compareWithArrowGo(t, file)
		tbl := pqRead(t, memory.DefaultAllocator, file)
		arrowiotest.CheckTable(t, fmt.Sprintf("pqarrow reading v%d", v), tbl, rec)
		tbl.Release()
		if v == arrowio.PageV1 {
			duckReads(t, rec, file)
		}
	}
}

// checkRowStarts checks, from the offset indexes, that every data page of
// file starts a row: its first row index grows from page to page.
func checkRowStarts(t *testing.T, file []byte) {
	t.Helper()
	rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	for _, cc := range rd.Metadata().RowGroups[0].Columns {
		path := strings.Join(cc.MetaData.PathInSchema, ".")
		_, oi, err := rd.PageIndex(0, path)
		if err != nil || oi == nil {
			t.Fatalf("column %s: offset index %v, %v", path, oi, err)
		}
		for i := 1; i < len(oi.PageLocations); i++ {
			if oi.PageLocations[i].FirstRowIndex <= oi.PageLocations[i-1].FirstRowIndex {
				t.Errorf("column %s: page %d starts at row %d, page %d at row %d", path, i-1, oi.PageLocations[i-1].FirstRowIndex, i, oi.PageLocations[i].FirstRowIndex)
			}
		}
	}
}

// duckReads checks that DuckDB reads file to the rows arrow-go's file of
// rec holds.
func duckReads(t *testing.T, rec arrow.RecordBatch, file []byte) {
	t.Helper()
	duckdb.Script(t)
	dir := t.TempDir()
	ours, ref := filepath.Join(dir, "cdc.parquet"), filepath.Join(dir, "arrow-go.parquet")
	if err := os.WriteFile(ours, file, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ref, arrowiotest.WritePqarrow(t, rec), 0o644); err != nil {
		t.Fatal(err)
	}
	duckSameRows(t, "the CDC file", ours, ref, rec.NumRows())
}

// TestCDCOptionErrors checks that chunk sizes Arrow C++ rejects fail
// NewWriter.
func TestCDCOptionErrors(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}}, nil)
	for _, c := range []arrowio.CDCOptions{
		{MinChunkSize: -1},
		{MinChunkSize: 1 << 20, MaxChunkSize: 1 << 20},
		{MinChunkSize: 2 << 20}, // above the default maximum
		{NormLevel: 15},
		{NormLevel: -60},
	} {
		_, err := arrowio.NewWriter(&bytes.Buffer{}, schema, arrowio.WriteOptions{ContentDefinedChunking: &c})
		if !errors.Is(err, arrowio.ErrUnsupported) {
			t.Errorf("CDC %+v: NewWriter = %v, want ErrUnsupported", c, err)
		}
	}
}

// BenchmarkWriteCDC writes benchRecord's million rows with dictionary and
// snappy, with content-defined chunking off and on.
func BenchmarkWriteCDC(b *testing.B) {
	rows := 1_000_000
	if testing.Short() {
		rows = 1 << 14
	}
	rec := benchRecord(rows)
	defer rec.Release()
	for _, c := range []struct {
		name string
		cdc  *arrowio.CDCOptions
	}{{"off", nil}, {"on", &arrowio.CDCOptions{}}} {
		b.Run("cdc="+c.name, func(b *testing.B) {
			opts := arrowio.WriteOptions{Compression: footer.CodecSnappy, Parallelism: 1, ContentDefinedChunking: c.cdc}
			b.SetBytes(batchBytes(rec))
			b.ReportAllocs()
			var out countingWriter
			for b.Loop() {
				out = 0
				writeRecord(b, &out, rec, opts)
			}
			b.ReportMetric(float64(out), "file-bytes")
		})
	}
}
