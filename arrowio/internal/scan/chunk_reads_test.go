package scan_test

import (
	"context"
	"os"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/arrowio/internal/scan"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/colread"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestChunkReadsRelease checks that a leaf reading its own chunk returns
// the chunk's buffer once its last row is decoded, before the row group
// ends, and that the rows read equal those of a coalesced read.
func TestChunkReadsRelease(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	mk := func(int) arrow.RecordBatch {
		ib, sb := array.NewInt64Builder(memory.DefaultAllocator), array.NewStringBuilder(memory.DefaultAllocator)
		defer ib.Release()
		defer sb.Release()
		for k := range 5000 {
			ib.Append(int64(k * 7))
			sb.Append(string(rune('a' + k%26)))
		}
		a, s := ib.NewArray(), sb.NewArray()
		defer a.Release()
		defer s.Release()
		return array.NewRecordBatch(schema, []arrow.Array{a, s}, 5000)
	}
	path := arrowiotest.WriteTempFile(t, schema, arrowio.WriteOptions{}, 1, mk)
	rd, err := scan.OpenFile(path, resolve(scan.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if !rd.ChunkReads {
		t.Fatal("OpenFile did not set ChunkReads")
	}
	g, err := rd.OpenGroup(context.Background(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Release()
	if len(g.Buffers) != 0 || g.Pending == nil {
		t.Fatalf("the group read %d buffers up front", len(g.Buffers))
	}
	rec, err := g.Read(context.Background(), 5000, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	for c, l := range g.Readers {
		if lr := l.(*colread.LeafReader); lr.ChunkBuf != nil || lr.Pages.Data != nil {
			t.Errorf("column %d still holds its chunk after its last row", c)
		}
	}
	buf, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := arrowiotest.ReadTable(t, buf, arrowio.ReadOptions{})
	defer want.Release()
	for c := range 2 {
		if !array.Equal(rec.Column(c), want.Column(c).Data().Chunk(0)) {
			t.Errorf("column %d differs from a coalesced read", c)
		}
	}
}
