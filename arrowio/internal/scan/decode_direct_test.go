package scan_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/scan"

	"github.com/quiverio/quiver/arrowio/internal/colread"

	"github.com/quiverio/quiver/arrowio/internal/page"

	"github.com/quiverio/quiver/arrowio/internal/codec"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/snappy"

	"github.com/quiverio/quiver/footer"
)

// TestDirectPages reads compressed PLAIN pages whose values section is
// compressed on its own (every v2 page, v1 pages of required columns):
// they must decompress straight into the batch, and read back equal, in
// whole row groups and in batches that end inside pages. v1 pages of nullable columns go through
// the page buffer.
func TestDirectPages(t *testing.T) {
	const rows = 20_000
	rec := pagesTable(t, rows)
	defer rec.Release()
	for _, codec := range []compress.Compression{compress.Codecs.Snappy, compress.Codecs.Zstd, compress.Codecs.Gzip} {
		for _, v := range []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2} {
			file := arrowiotest.WritePqarrow(t, rec, parquet.WithCompression(codec), parquet.WithDataPageVersion(v),
				parquet.WithDictionaryDefault(false), parquet.WithDataPageSize(16<<10))
			desc := fmt.Sprintf("%s v%d", codec, v+1)
			for _, batch := range []int{0, 777} {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				tbl := arrowiotest.ReadTable(t, file, arrowio.ReadOptions{Allocator: mem, BatchSize: batch})
				arrowiotest.CheckTable(t, fmt.Sprintf("%s, batch %d", desc, batch), tbl, rec)
				tbl.Release()
				mem.AssertSize(t, 0)
			}
			checkDirect(t, desc, file, v == parquet.DataPageV2)
		}
	}
}

// checkDirect reads file's row group in one batch and fails unless the
// leaves of placeable columns, required ones or all with v2 pages, took
// their last page's values from the decompressor, and the others from the
// page buffer.
func checkDirect(t *testing.T, desc string, file []byte, v2 bool) {
	t.Helper()
	rd, g := firstGroup(t, file)
	rec, err := g.Read(context.Background(), int(g.Rows), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	for c, f := range rd.Schema().Fields() {
		l := g.Readers[c].(*colread.LeafReader)
		want := l.CopiesValues() && (v2 || !f.Nullable)
		if _, direct := l.ValueDecoder.(*colread.InPlace); direct != want {
			t.Errorf("%s: column %s (%s) decompressed into the batch: %v, want %v", desc, f.Name, f.Type, direct, want)
		}
	}
}

// firstGroup opens file's first row group, for tests that look into its
// column readers; the test's cleanup releases both.
func firstGroup(t *testing.T, file []byte) (*scan.File, *scan.Group) {
	t.Helper()
	rd := openBytes(t, file, scan.Options{})
	g, err := rd.OpenGroup(context.Background(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Release)
	return rd, g
}

// TestDirectPageCorrupt decodes a v2 page whose definition levels count
// more values than its header's null count and values section hold: an
// error, as through the page buffer, not values read past the page's.
func TestDirectPageCorrupt(t *testing.T) {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendNulls(100)
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil), []arrow.Array{col}, 100)
	defer rec.Release()
	file := arrowiotest.WritePqarrow(t, rec, parquet.WithCompression(compress.Codecs.Snappy))
	_, g := firstGroup(t, file)
	l := g.Readers[0].(*colread.LeafReader)

	// 100 levels in one bit-packed run (13 groups of 8), every tenth null:
	// 90 values. The header says 11 nulls, and the section holds 89.
	levels := make([]byte, 14)
	levels[0] = 13<<1 | 1
	for i := range 100 {
		if i%10 != 0 {
			levels[1+i/8] |= 1 << (i % 8)
		}
	}
	values := snappy.Encode(nil, make([]byte, 89*8))
	h := footer.PageHeader{
		Type:                 footer.PageTypeDataV2,
		UncompressedPageSize: int32(len(levels) + 89*8),
		CompressedPageSize:   int32(len(levels) + len(values)),
		DataPageHeaderV2: &footer.DataPageHeaderV2{NumValues: 100, NumNulls: 11, NumRows: 100,
			Encoding: footer.EncodingPlain, DefinitionLevelsByteLength: int32(len(levels))},
	}
	chunk := append(append(footer.Marshal(nil, &h), levels...), values...)
	l.Pages = page.Iterator{Data: chunk}
	arr, err := l.ReadRows(100, new(codec.Decompressor))
	if err == nil {
		arr.Release()
		t.Fatal("read a page whose levels count more values than it holds")
	}
	if _, direct := l.ValueDecoder.(*colread.InPlace); !direct || !arrowiotest.IsFileError(err) {
		t.Errorf("decompressed into the batch: %v; error: %v", direct, err)
	}
}
