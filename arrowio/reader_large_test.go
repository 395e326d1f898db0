package arrowio_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

// TestBatchesKeepOffsetsInRange checks that a row group whose string
// chunk holds more than int32 offsets address is read in batches that
// keep within them, by RecordReader and ReadTable alike: the footer of a
// small file is edited to declare 3 GiB of string data in its 10 rows, so
// that a batch may take 6 of them (10 × (2^31-1) / (3 GiB + 1/16)).
func TestBatchesKeepOffsetsInRange(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String}, {Name: "i", Type: arrow.PrimitiveTypes.Int64}}, nil)
	sb, ib := array.NewStringBuilder(memory.DefaultAllocator), array.NewInt64Builder(memory.DefaultAllocator)
	defer sb.Release()
	defer ib.Release()
	for i := range 10 {
		sb.Append(fmt.Sprint("value ", i))
		ib.Append(int64(i))
	}
	rec := array.NewRecordBatch(schema, []arrow.Array{sb.NewArray(), ib.NewArray()}, 10)
	defer rec.Release()
	file := arrowiotest.WriteFile(t, schema, arrowio.WriteOptions{}, rec)
	file = withFooter(t, file, func(fm *footer.FileMetaData) {
		md := fm.RowGroups[0].Columns[0].MetaData
		md.SizeStatistics = &footer.SizeStatistics{UnencodedByteArrayDataBytes: footer.Some(int64(3 << 30))}
	})
	rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{BatchSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	rr, err := rd.RecordReader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var sizes []int64
	for rr.Next() {
		sizes = append(sizes, rr.RecordBatch().NumRows())
	}
	rr.Release()
	if rr.Err() != nil || !slices.Equal(sizes, []int64{6, 4}) {
		t.Errorf("RecordReader batches %v (%v), want [6 4]", sizes, rr.Err())
	}
	tbl, err := rd.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	sizes = sizes[:0]
	for _, c := range tbl.Column(0).Data().Chunks() {
		sizes = append(sizes, int64(c.Len()))
	}
	if !slices.Equal(sizes, []int64{6, 4}) {
		t.Errorf("ReadTable chunks %v, want [6 4]", sizes)
	}
	arrowiotest.CheckTable(t, "edited footer", tbl, rec)
}

// TestHeavyLargeStringMap reads large_string_map.brotli.parquet, a map
// whose two keys are 1 GiB strings each, with the default options: one
// batch of both would pass int32 offsets, so each row comes in a batch of
// its own. It takes about 6 GB of memory and a minute (make heavy).
func TestHeavyLargeStringMap(t *testing.T) {
	path := filepath.Join(corpus.Dir(t), "data", "large_string_map.brotli.parquet")
	corpus.SkipHeavy(t, "its two 1 GiB strings take about 6 GB of memory")
	rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	rr, err := rd.RecordReader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	rows := 0
	for rr.Next() {
		rec := rr.RecordBatch()
		if rec.NumRows() != 1 {
			t.Fatalf("a batch of %d rows, want 1", rec.NumRows())
		}
		keys := rec.Column(0).(*array.Map).Keys().(*array.String)
		if keys.Len() != 1 || len(keys.Value(0)) != 1<<30 {
			t.Fatalf("row %d: %d keys, the first of %d bytes; want one of 2^30", rows, keys.Len(), len(keys.Value(0)))
		}
		k := keys.Value(0)
		if k[0] != 'a' || k[len(k)/2] != 'a' || k[len(k)-1] != 'a' {
			t.Errorf("row %d: the key is not all 'a'", rows)
		}
		rows++
	}
	if err := rr.Err(); err != nil || rows != 2 {
		t.Fatalf("%d rows, %v; want 2", rows, err)
	}
}
