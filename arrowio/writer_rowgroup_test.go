package arrowio_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/levels/levelstest"
)

// streamRecord returns n rows of flat and nested columns, nulls and NaNs
// included.
func streamRecord(t *testing.T, mem memory.Allocator, n int) arrow.RecordBatch {
	rng := rand.New(rand.NewPCG(27, 1))
	fields := []arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "word", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "price", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "flag", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "point", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
			arrow.Field{Name: "ys", Type: arrow.ListOf(arrow.PrimitiveTypes.Float64), Nullable: true}), Nullable: true},
	}
	cols := make([]arrow.Array, len(fields))
	for i, f := range fields {
		if f.Type.ID() == arrow.LIST || f.Type.ID() == arrow.STRUCT {
			cols[i] = levelstest.RandArray(rng, mem, f, n, nil, false)
		} else {
			cols[i] = arrowiotest.RandomArray(t, mem, f.Type, n, map[bool]float64{true: 0.1}[f.Nullable], i != 0, rng)
		}
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n))
	releaseAll(cols)
	return rec
}

// writeInBatches writes rec in batches of the sizes next returns, and
// returns the file with the Writer's footer.
func writeInBatches(t *testing.T, rec arrow.RecordBatch, opts arrowio.WriteOptions, next func() int) ([]byte, *footer.FileMetaData) {
	t.Helper()
	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, rec.Schema(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for lo := int64(0); lo < rec.NumRows(); {
		hi := min(rec.NumRows(), lo+int64(next()))
		s := rec.NewSlice(lo, hi)
		err := w.Write(s)
		s.Release()
		if err != nil {
			t.Fatal(err)
		}
		lo = hi
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w.Metadata()
}

// rowGroupLayout lists each row group's rows and the compressed sizes of
// its chunks whose metadata is not encrypted (an encrypted chunk's size
// varies with the nonces: the varint of its pages' CRCs).
func rowGroupLayout(fm *footer.FileMetaData) []string {
	var out []string
	for _, rg := range fm.RowGroups {
		s := fmt.Sprint(rg.NumRows, ":")
		for _, c := range rg.Columns {
			if c.MetaData != nil {
				s += fmt.Sprint(" ", c.MetaData.TotalCompressedSize)
			}
		}
		out = append(out, s)
	}
	return out
}

// TestRowGroupsIndependentOfBatches writes the same rows in one batch, in
// 1,000-row batches and in batches of random sizes: the row groups, and
// the bytes of unencrypted files (pages cut by content included), are the
// same.
func TestRowGroupsIndependentOfBatches(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rows := arrowiotest.Rows(1_000_000)
	rec := streamRecord(t, mem, rows)
	defer rec.Release()
	key := bytes.Repeat([]byte{'k'}, 16)
	// perM scales a byte limit set for a million rows to the rows written
	// (fewer under -short), so that every case still makes several row
	// groups.
	perM := func(limit int64) int64 { return limit * int64(rows) / 1_000_000 }
	cases := []struct {
		name string
		opts arrowio.WriteOptions
	}{
		{"default", arrowio.WriteOptions{}},
		{"bytes 2MiB snappy", arrowio.WriteOptions{MaxRowGroupBytes: perM(2 << 20), Compression: footer.CodecSnappy}},
		{"bytes 1MiB zstd v2 small pages", arrowio.WriteOptions{MaxRowGroupBytes: perM(1 << 20), Compression: footer.CodecZstd, PageVersion: arrowio.PageV2, DataPageSize: 8 << 10}},
		{"rows 300001 page rows 777", arrowio.WriteOptions{MaxRowGroupRows: 300_001, DataPageRows: 777, DisableDictionary: true}},
		{"content-defined chunking", arrowio.WriteOptions{MaxRowGroupBytes: perM(4 << 20), Compression: footer.CodecSnappy,
			ContentDefinedChunking: &arrowio.CDCOptions{MinChunkSize: 16 << 10, MaxChunkSize: 64 << 10}}},
		{"encrypted bytes 3MiB", arrowio.WriteOptions{MaxRowGroupBytes: perM(3 << 20), Compression: footer.CodecSnappy,
			Encryption: &encrypt.EncryptionConfig{FooterKey: key, ColumnKeys: map[string]encrypt.ColumnKey{"word": {Key: key}}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Parallelism = 2
			one, oneMeta := writeInBatches(t, rec, c.opts, func() int { return rows })
			small, smallMeta := writeInBatches(t, rec, c.opts, func() int { return 1000 })
			rng := rand.New(rand.NewPCG(3, 3))
			odd, oddMeta := writeInBatches(t, rec, c.opts, func() int { return 1 + rng.IntN(5000) })
			want := rowGroupLayout(oneMeta)
			if c.opts.MaxRowGroupBytes > 0 && len(want) < 3 {
				t.Fatalf("%d row groups, want several to compare: %v", len(want), want)
			}
			for name, got := range map[string]*footer.FileMetaData{"1,000-row batches": smallMeta, "random batches": oddMeta} {
				if g := rowGroupLayout(got); !slices.Equal(g, want) {
					t.Fatalf("%s: row groups (rows, chunk sizes)\n%v\nwant, from one batch,\n%v", name, g, want)
				}
			}
			if c.opts.Encryption == nil && (!bytes.Equal(small, one) || !bytes.Equal(odd, one)) {
				t.Fatal("the files differ in bytes")
			}
			if limit := c.opts.MaxRowGroupBytes; limit > 0 {
				for i, rg := range oneMeta.RowGroups[:len(oneMeta.RowGroups)-1] {
					// The size is estimated while the pages are filled, so
					// a row group may end a little short of the limit.
					if size := rg.TotalCompressedSize.Value; size < limit-limit/16 || size > limit+limit/4 {
						t.Errorf("row group %d: %d compressed bytes for a limit of %d", i, size, limit)
					}
				}
			}
			if c.opts.Encryption == nil {
				arrowiotest.CheckTable(t, "quiver", arrowiotest.ReadTable(t, small, arrowio.ReadOptions{}), rec)
			}
		})
	}
}

// TestFlushClosesRowGroup checks that Flush writes the rows so far as a
// row group and does nothing on an empty one.
func TestFlushClosesRowGroup(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := streamRecord(t, mem, 3000)
	defer rec.Release()
	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, rec.Schema(), arrowio.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range [][3]int64{{0, 1000, 2}, {1000, 1500, 0}, {1500, 3000, 1}} {
		s := rec.NewSlice(r[0], r[1])
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
		s.Release()
		for range r[2] { // the second Flush finds nothing to write
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != arrowio.ErrWriterClosed {
		t.Fatalf("Flush after Close = %v, want ErrWriterClosed", err)
	}
	var got []int64
	for _, rg := range w.Metadata().RowGroups {
		got = append(got, rg.NumRows)
	}
	if !slices.Equal(got, []int64{1000, 2000}) {
		t.Fatalf("row groups of %v rows, want [1000 2000]", got)
	}
	arrowiotest.CheckTable(t, "quiver", arrowiotest.ReadTable(t, buf.Bytes(), arrowio.ReadOptions{}), rec)
}

// TestBadNestedBatchAddsNothing writes a batch whose struct holds a null
// in a non-nullable child between two good ones: Write fails naming the
// field, and the file holds the good rows in one row group.
func TestBadNestedBatchAddsNothing(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	st := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32}, arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true})
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: st, Nullable: true}}, nil)
	batch := func(from, n int, bad bool) arrow.RecordBatch {
		b := array.NewRecordBuilder(mem, schema)
		defer b.Release()
		sb := b.Field(1).(*array.StructBuilder)
		for i := from; i < from+n; i++ {
			b.Field(0).(*array.Int64Builder).Append(int64(i))
			sb.Append(true)
			if bad && i == from+n-1 {
				sb.FieldBuilder(0).AppendNull()
			} else {
				sb.FieldBuilder(0).(*array.Int32Builder).Append(int32(i))
			}
			sb.FieldBuilder(1).(*array.StringBuilder).Append(fmt.Sprint(i))
		}
		return b.NewRecordBatch()
	}
	good1, bad, good2 := batch(0, 1500, false), batch(1500, 700, true), batch(1500, 900, false)
	defer good1.Release()
	defer bad.Release()
	defer good2.Release()
	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, schema, arrowio.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(good1); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(bad); err == nil || !strings.Contains(err.Error(), `"s"`) {
		t.Fatalf("Write of a null in a required struct child = %v, want an error naming field s", err)
	}
	if err := w.Write(good2); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n := len(w.Metadata().RowGroups); n != 1 {
		t.Fatalf("%d row groups, want 1", n)
	}
	tbl := arrowiotest.ReadTable(t, buf.Bytes(), arrowio.ReadOptions{})
	defer tbl.Release()
	want := batch(0, 2400, false)
	defer want.Release()
	arrowiotest.CheckTable(t, "quiver", tbl, want)
}
