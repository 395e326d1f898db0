package arrowio_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/quiverio/quiver/arrowio"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
)

func TestWriterWrongSchemaKeepsWriterUsable(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	fields, cols := matrixColumns(t, mem, 500, true, 9)
	defer releaseAll(cols)
	rec := record(fields, cols)
	defer rec.Release()
	other := record(fields[:2], cols[:2])
	defer other.Release()

	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, rec.Schema(), arrowio.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(other); !errors.Is(err, arrowio.ErrSchemaMismatch) {
		t.Fatalf("Write with another schema: %v, want ErrSchemaMismatch", err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := w.Write(rec); !errors.Is(err, arrowio.ErrWriterClosed) {
		t.Fatalf("Write after Close: %v, want ErrWriterClosed", err)
	}
	checkReadBack(t, buf.Bytes(), fields, cols, true)
}

func TestWriterNullInRequiredColumn(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	b := array.NewInt32Builder(mem)
	b.AppendValues([]int32{1, 2, 3}, []bool{true, false, true})
	bad := b.NewArray()
	b.AppendValues([]int32{4, 5}, nil)
	good := b.NewArray()
	b.Release()
	defer bad.Release()
	defer good.Release()
	fields := []arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int32}}
	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, arrow.NewSchema(fields, nil), arrowio.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rb := record(fields, []arrow.Array{bad})
	defer rb.Release()
	if err := w.Write(rb); err == nil || !strings.Contains(err.Error(), `"x"`) {
		t.Fatalf("a null in a required column: %v", err)
	}
	rg := record(fields, []arrow.Array{good})
	defer rg.Release()
	if err := w.Write(rg); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	checkReadBack(t, buf.Bytes(), fields, []arrow.Array{good}, true)
}

// failingWriter accepts n bytes and then fails.
type failingWriter struct{ n int }

var errDiskFull = errors.New("disk full")

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) <= f.n {
		f.n -= len(p)
		return len(p), nil
	}
	n := f.n
	f.n = 0
	return n, errDiskFull
}

func TestWriterFailingIOWriter(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	fields, cols := matrixColumns(t, mem, 2000, false, 4)
	defer releaseAll(cols)
	rec := record(fields, cols)
	defer rec.Release()
	full := arrowiotest.WriteFile(t, rec.Schema(), arrowio.WriteOptions{MaxRowGroupRows: 700, Parallelism: 4}, rec)
	goroutines := runtime.NumGoroutine()
	for _, at := range []int{0, 3, 4, 100, len(full) / 2, len(full) - 9, len(full) - 1} {
		fw := &failingWriter{n: at}
		w, err := arrowio.NewWriter(fw, rec.Schema(), arrowio.WriteOptions{MaxRowGroupRows: 700, Parallelism: 4})
		if err != nil {
			if !errors.Is(err, errDiskFull) {
				t.Fatalf("NewWriter failing at %d: %v", at, err)
			}
			continue
		}
		werr := w.Write(rec)
		cerr := w.Close()
		if !errors.Is(werr, errDiskFull) && !errors.Is(cerr, errDiskFull) {
			t.Fatalf("failing at byte %d: Write %v, Close %v", at, werr, cerr)
		}
		if werr != nil && !errors.Is(w.Write(rec), arrowio.ErrWriterClosed) {
			t.Fatalf("failing at byte %d: a later Write must fail", at)
		}
	}
	// Encoding goroutines end with each row group.
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > goroutines && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > goroutines {
		t.Fatalf("%d goroutines left, had %d", n, goroutines)
	}
}

func TestWriterOutputIndependentOfParallelism(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	fields, cols := matrixColumns(t, mem, 3000, true, 6)
	defer releaseAll(cols)
	rec := record(fields, cols)
	defer rec.Release()
	want := arrowiotest.WriteFile(t, rec.Schema(), arrowio.WriteOptions{Parallelism: 1, Compression: footer.CodecZstd}, rec)
	for _, p := range []int{2, 3, 16} {
		if got := arrowiotest.WriteFile(t, rec.Schema(), arrowio.WriteOptions{Parallelism: p, Compression: footer.CodecZstd}, rec); !bytes.Equal(got, want) {
			t.Fatalf("parallelism %d writes other bytes than 1", p)
		}
	}
}

func TestNewWriterErrors(t *testing.T) {
	i32 := arrow.PrimitiveTypes.Int32
	flat := arrow.NewSchema([]arrow.Field{{Name: "a", Type: i32}, {Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	cases := []struct {
		name   string
		schema *arrow.Schema
		opts   arrowio.WriteOptions
		want   string
	}{
		{"union", arrow.NewSchema([]arrow.Field{{Name: "u", Type: arrow.SparseUnionOf([]arrow.Field{{Name: "x", Type: i32}}, []arrow.UnionTypeCode{0})}}, nil), arrowio.WriteOptions{}, `"u"`},
		{"union in a list", arrow.NewSchema([]arrow.Field{{Name: "l", Type: arrow.ListOf(arrow.SparseUnionOf([]arrow.Field{{Name: "x", Type: i32}}, []arrow.UnionTypeCode{0}))}}, nil), arrowio.WriteOptions{}, `"l.`},
		{"unknown column", flat, arrowio.WriteOptions{Columns: map[string]arrowio.ColumnOptions{"b": {}}}, `"b"`},
		{"encoding misfit", flat, arrowio.WriteOptions{Columns: map[string]arrowio.ColumnOptions{"s": {Encoding: footer.Some(footer.EncodingDeltaBinaryPacked)}}}, `"s"`},
		{"LZ4", flat, arrowio.WriteOptions{Compression: footer.CodecLZ4}, "LZ4"},
		{"zstd level", flat, arrowio.WriteOptions{Compression: footer.CodecZstd, CompressionLevel: footer.Some(99)}, "99"},
		{"page version", flat, arrowio.WriteOptions{PageVersion: 3}, "page version"},
		{"ARROW:schema", flat, arrowio.WriteOptions{KeyValueMetadata: []footer.KeyValue{{Key: arrowio.ArrowSchemaKey}}}, arrowio.ArrowSchemaKey},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := arrowio.NewWriter(io.Discard, c.schema, c.opts)
			if !errors.Is(err, arrowio.ErrUnsupported) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want ErrUnsupported naming %s", err, c.want)
			}
		})
	}
}

func TestWriterMetadata(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(8, 8))
	arr := arrowiotest.RandomArray(t, mem, arrow.BinaryTypes.String, 5000, 0.25, true, rng)
	defer arr.Release()
	fields := []arrow.Field{{Name: "s", Type: arr.DataType(), Nullable: true}}
	rec := record(fields, []arrow.Array{arr})
	defer rec.Release()
	kv := []footer.KeyValue{{Key: "k", Value: footer.Some("v")}}
	buf := arrowiotest.WriteFile(t, rec.Schema(), arrowio.WriteOptions{MaxRowGroupRows: 2000, KeyValueMetadata: kv}, rec)
	md := readMeta(t, buf)
	if !strings.HasPrefix(md.CreatedBy.Value, "quiver version ") {
		t.Errorf("created_by %q", md.CreatedBy.Value)
	}
	if len(md.KeyValueMetadata) != 2 || md.KeyValueMetadata[0].Key != arrowio.ArrowSchemaKey || md.KeyValueMetadata[1] != kv[0] {
		t.Errorf("key-value metadata %v", md.KeyValueMetadata)
	}
	if md.NumRows != 5000 || len(md.RowGroups) != 3 {
		t.Fatalf("%d rows in %d row groups, want 5000 in 3", md.NumRows, len(md.RowGroups))
	}
	offset := int64(4)
	for g, rg := range md.RowGroups {
		cc := rg.Columns[0]
		m := cc.MetaData
		if rg.FileOffset.Value != offset || m.DictionaryPageOffset.Value != offset || cc.FileOffset != offset {
			t.Errorf("row group %d: offsets %v %v %d, want %d", g, rg.FileOffset, m.DictionaryPageOffset, cc.FileOffset, offset)
		}
		if rg.Ordinal != footer.Some(int16(g)) || rg.TotalCompressedSize.Value != m.TotalCompressedSize || rg.TotalByteSize != m.TotalUncompressedSize {
			t.Errorf("row group %d: %+v", g, rg)
		}
		offset += m.TotalCompressedSize
		var nulls, bytesIn int64
		for i := g * 2000; i < min(5000, (g+1)*2000); i++ {
			if arr.IsNull(i) {
				nulls++
			} else {
				bytesIn += int64(len(arr.(*array.String).Value(i)))
			}
		}
		s := m.SizeStatistics
		if s == nil || s.UnencodedByteArrayDataBytes.Value != bytesIn || len(s.DefinitionLevelHistogram) != 2 ||
			s.DefinitionLevelHistogram[0] != nulls || s.DefinitionLevelHistogram[0]+s.DefinitionLevelHistogram[1] != rg.NumRows {
			t.Errorf("row group %d: size statistics %+v, want %d bytes, %d nulls", g, s, bytesIn, nulls)
		}
		if m.Statistics.NullCount.Value != nulls || m.Statistics.DistinctCount.Value == 0 || m.Statistics.DistinctCount.Value > 50 {
			t.Errorf("row group %d: statistics %+v", g, m.Statistics)
		}
	}
}

// TestWriterAllocationsDoNotGrowWithRows checks that a warmed-up writer
// allocates per row group and column (metadata, statistics), never per
// value: a batch of 40 times the rows costs no more allocations.
func TestWriterAllocationsDoNotGrowWithRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	fields, cols := matrixColumns(t, mem, arrowiotest.Rows(40000), true, 10)
	defer releaseAll(cols)
	big := record(fields, cols)
	defer big.Release()
	small := big.NewSlice(0, big.NumRows()/40)
	defer small.Release()
	for _, opts := range []arrowio.WriteOptions{{Parallelism: 1}, {Parallelism: 1, DisableDictionary: true, Compression: footer.CodecSnappy, PageVersion: arrowio.PageV2}} {
		w, err := arrowio.NewWriter(io.Discard, big.Schema(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(big); err != nil { // grow every buffer once
			t.Fatal(err)
		}
		allocs := func(rec arrow.RecordBatch) float64 {
			return testing.AllocsPerRun(3, func() {
				if err := w.Write(rec); err != nil {
					t.Fatal(err)
				}
			})
		}
		a, b := allocs(small), allocs(big)
		if b > a+float64(4*len(fields)) {
			t.Errorf("%+v: %v allocations for %d rows, %v for %d", opts, b, big.NumRows(), a, small.NumRows())
		}
	}
}
