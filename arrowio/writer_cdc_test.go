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
	"github.com/quiverio/quiver/internal/cputime"
	"github.com/quiverio/quiver/internal/duckdb"
)

// smallCDC cuts pages of a few KiB, so that tables of a few thousand rows
// get many.
var smallCDC = &arrowio.CDCOptions{MinChunkSize: 2 << 10, MaxChunkSize: 8 << 10}

// dataPage is one data page of a file: its header and body bytes, the
// column it belongs to, and the file's rows it holds, [first, end).
type dataPage struct {
	column     string
	bytes      []byte
	first, end int64
}

// dataPages returns the data pages of every column chunk of file, walking
// each chunk's page headers, with their rows from the offset indexes.
func dataPages(t testing.TB, file []byte) []dataPage {
	t.Helper()
	rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var out []dataPage
	var base int64 // the row group's first row
	for rgi, rg := range rd.Metadata().RowGroups {
		for _, cc := range rg.Columns {
			md := cc.MetaData
			path := strings.Join(md.PathInSchema, ".")
			_, oi, err := rd.PageIndex(rgi, path)
			if err != nil || oi == nil {
				t.Fatalf("column %s: offset index %v, %v", path, oi, err)
			}
			start := md.DataPageOffset
			if off, ok := md.DictionaryPageOffset.Get(); ok && off > 0 {
				start = off
			}
			end := start + md.TotalCompressedSize
			k := 0
			for off := start; off < end; {
				var h footer.PageHeader
				n, err := footer.UnmarshalPageHeader(file[off:end], &h)
				if err != nil {
					t.Fatalf("page header at %d: %v", off, err)
				}
				next := off + int64(n) + int64(h.CompressedPageSize)
				if h.Type == footer.PageTypeData || h.Type == footer.PageTypeDataV2 {
					if k >= len(oi.PageLocations) {
						t.Fatalf("column %s: more data pages than the offset index's %d", path, len(oi.PageLocations))
					}
					last := rg.NumRows
					if k+1 < len(oi.PageLocations) {
						last = oi.PageLocations[k+1].FirstRowIndex
					}
					out = append(out, dataPage{path, file[off:next], base + oi.PageLocations[k].FirstRowIndex, base + last})
					k++
				}
				off = next
			}
		}
		base += rg.NumRows
	}
	return out
}

// pageLoss sorts the data page bytes of one column of an edited file by
// what became of them against the original's pages.
type pageLoss struct {
	column   string
	pages    int   // the edited file's data pages
	total    int64 // their bytes
	shared   int64 // in pages byte-identical to a page of the original
	early    int64 // in other pages that end before the insert
	inserted int64 // in other pages that hold inserted rows
	resync   int64 // in other pages whose rows no page of the original holds: cut elsewhere, the chunker not yet back in step
	recoded  int64 // in other pages holding the rows of a page of the original, in other bytes
}

// pageLosses returns the pageLoss of each column of edited, in schema
// order: the original with n rows inserted before its row at.
func pageLosses(t testing.TB, original, edited []byte, at, n int64) []pageLoss {
	t.Helper()
	type span struct {
		column     string
		first, end int64
	}
	seen := map[[32]byte]bool{}
	spans := map[span]bool{}
	for _, p := range dataPages(t, original) {
		seen[sha256.Sum256(p.bytes)] = true
		spans[span{p.column, p.first, p.end}] = true
	}
	var out []pageLoss
	index := map[string]int{} // of a column in out
	for _, p := range dataPages(t, edited) {
		i, ok := index[p.column]
		if !ok {
			i = len(out)
			index[p.column] = i
			out = append(out, pageLoss{column: p.column})
		}
		l := &out[i]
		size := int64(len(p.bytes))
		l.pages++
		l.total += size
		// The page's rows as the original numbers them.
		first, end := p.first, p.end
		if first >= at+n {
			first, end = first-n, end-n
		}
		switch {
		case seen[sha256.Sum256(p.bytes)]:
			l.shared += size
		case p.end <= at:
			l.early += size
		case p.first < at+n && p.end > at:
			l.inserted += size
		case spans[span{p.column, first, end}]:
			l.recoded += size
		default:
			l.resync += size
		}
	}
	return out
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
// data page bytes are pages of the first, byte for byte (85% with chunks
// of half the size), that every page before the insert is, that without
// dictionaries a page holding the rows of a page of the first file is
// its bytes (levels, values, statistics and compression do not move with
// the insert), and that without chunking at most half are shared (the
// pages after the insert shift). It logs where each column's bytes went.
// -short runs use a quarter of the rows and of the chunk sizes.
//
// A million rows here (about 60 MB of values) cut into 7 to 57 pages per
// column. In full runs 84.7% (dictionary, snappy), 92.6% (the same with
// 128-512 KiB chunks) and 83.4% (PLAIN, zstd) of the bytes are shared,
// 33.6% without chunking. Of the first, pages holding the inserted rows
// lose 5.6%: one or two pages per column, an eighth to a quarter of a
// column cut into 8 pages. Pages cut before the chunker is back in step
// with the first file lose 9.6%: it cuts where the first file does only
// once both count the same run of gear tables (cdc.go), 2 pages late for
// the keys (one of them the short page where the dictionary fell back),
// 6 for the decimals, 2 for the comments, and never in the dates' last 4
// pages. In -short runs the keys' dictionary never falls back, and the
// keys first seen after the insert take other indices (the insert brings
// new ones), which costs their pages past it: 1.9% of the bytes.
func TestCDCDeduplicates(t *testing.T) {
	n := arrowiotest.Rows(1_000_000)
	scale := int64(1)
	if testing.Short() {
		scale = 4
	}
	cdc := &arrowio.CDCOptions{MinChunkSize: arrowio.DefaultCDCMinChunkSize / scale, MaxChunkSize: arrowio.DefaultCDCMaxChunkSize / scale}
	half := &arrowio.CDCOptions{MinChunkSize: cdc.MinChunkSize / 2, MaxChunkSize: cdc.MaxChunkSize / 2}
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
		{"dict-snappy-half-chunks", arrowio.WriteOptions{Compression: footer.CodecSnappy, ContentDefinedChunking: half}, 0.85},
		{"plain-zstd-v2", arrowio.WriteOptions{Compression: footer.CodecZstd, PageVersion: arrowio.PageV2, DisableDictionary: true, ContentDefinedChunking: cdc}, 0.75},
		{"dict-snappy-no-cdc", arrowio.WriteOptions{Compression: footer.CodecSnappy}, -0.5},
	} {
		a := arrowiotest.WriteFile(t, rec.Schema(), c.opts, rec)
		b := arrowiotest.WriteFile(t, rec.Schema(), c.opts, edited)
		var sum pageLoss
		var table strings.Builder
		for _, l := range pageLosses(t, a, b, int64(n/2), int64(ins.NumRows())) {
			fmt.Fprintf(&table, "\n  %-8s %3d pages %9d bytes: %5.1f%% shared, lost %8d in pages holding inserted rows, %8d cut out of step, %d recoded",
				l.column, l.pages, l.total, 100*float64(l.shared)/float64(l.total), l.inserted, l.resync, l.recoded)
			sum.pages += l.pages
			sum.total += l.total
			sum.shared += l.shared
			sum.early += l.early
			sum.inserted += l.inserted
			sum.resync += l.resync
			sum.recoded += l.recoded
		}
		share := float64(sum.shared) / float64(sum.total)
		t.Logf("%s: %.1f%% of the edited file's data page bytes (%d pages) are pages of the original; lost %.1f%% in pages holding inserted rows, %.1f%% cut out of step, %.1f%% recoded%s",
			c.name, 100*share, sum.pages, 100*float64(sum.inserted)/float64(sum.total), 100*float64(sum.resync)/float64(sum.total), 100*float64(sum.recoded)/float64(sum.total), table.String())
		switch {
		case c.floor > 0 && share < c.floor:
			t.Errorf("%s: %.1f%% of data page bytes shared, want at least %.0f%%", c.name, 100*share, 100*c.floor)
		case c.floor < 0 && share > -c.floor:
			t.Errorf("%s: %.1f%% of data page bytes shared, want at most %.0f%%", c.name, 100*share, -100*c.floor)
		}
		if c.floor > 0 && sum.early > 0 {
			t.Errorf("%s: %d bytes in pages before the insert differ from the original's", c.name, sum.early)
		}
		if c.floor > 0 && c.opts.DisableDictionary && sum.recoded > 0 {
			// Without dictionaries only where the pages are cut may
			// differ: a page of the original's rows, wherever it falls,
			// is the same bytes.
			t.Errorf("%s: %d bytes in pages that hold the rows of a page of the original in other bytes", c.name, sum.recoded)
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
// snappy, with content-defined chunking off, on, and on with chunks of
// 128 KiB to 512 KiB, reporting CPU time beside wall time.
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
	}{{"off", nil}, {"on", &arrowio.CDCOptions{}}, {"small", &arrowio.CDCOptions{MinChunkSize: 128 << 10, MaxChunkSize: 512 << 10}}} {
		b.Run("cdc="+c.name, func(b *testing.B) {
			opts := arrowio.WriteOptions{Compression: footer.CodecSnappy, Parallelism: 1, ContentDefinedChunking: c.cdc}
			b.SetBytes(batchBytes(rec))
			b.ReportAllocs()
			var out countingWriter
			cpu, ok := cputime.Process()
			for b.Loop() {
				out = 0
				writeRecord(b, &out, rec, opts)
			}
			cputime.Report(b, cpu, ok)
			b.ReportMetric(float64(out), "file-bytes")
		})
	}
}
