package arrowio

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/colread"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestChunkReadsTruncated truncates a file under a Reader that reads each
// column chunk when its column decodes (OpenFile without MemoryMap): the
// chunks past the new end are an error naming the read, and nothing leaks.
func TestChunkReadsTruncated(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		{Name: "b", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	mk := func(int) arrow.RecordBatch {
		b := array.NewInt64Builder(memory.DefaultAllocator)
		defer b.Release()
		for k := range 100_000 {
			b.Append(int64(k))
		}
		a := b.NewArray()
		defer a.Release()
		return array.NewRecordBatch(schema, []arrow.Array{a, a}, 100_000)
	}
	for _, batches := range []bool{false, true} {
		path := writeTempFile(t, schema, WriteOptions{DisableDictionary: true}, 1, mk)
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rd, err := OpenFile(path, ReadOptions{Allocator: mem, BatchSize: 30_000})
		if err != nil {
			t.Fatal(err)
		}
		if !rd.f.ChunkReads {
			t.Fatal("OpenFile did not set chunkReads")
		}
		// Column a's chunk starts the file; b's is past 8 KiB.
		if err := truncateAndRead(t, rd, path, batches); !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			t.Errorf("batches %v: reading a truncated file: %v", batches, err)
		}
		if err := rd.Close(); err != nil {
			t.Fatal(err)
		}
		mem.AssertSize(t, 0)
	}
}

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
	path := writeTempFile(t, schema, WriteOptions{}, 1, mk)
	rd, err := OpenFile(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	g, err := rd.f.OpenGroup(context.Background(), 0, nil)
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
	want := readTableWith(t, buf, ReadOptions{})
	defer want.Release()
	for c := range 2 {
		if !array.Equal(rec.Column(c), want.Column(c).Data().Chunk(0)) {
			t.Errorf("column %d differs from a coalesced read", c)
		}
	}
}
