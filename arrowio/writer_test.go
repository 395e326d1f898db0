package arrowio_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/footer"
)

// roundTrip writes the columns with opts and checks that pqarrow reads
// back the same values and types.
func roundTrip(t *testing.T, mem memory.Allocator, opts arrowio.WriteOptions, fields []arrow.Field, cols []arrow.Array) []byte {
	t.Helper()
	schema := arrow.NewSchema(fields, nil)
	rec := array.NewRecordBatch(schema, cols, int64(cols[0].Len()))
	defer rec.Release()
	buf := arrowiotest.WriteFile(t, schema, opts, rec)
	checkReadBack(t, buf, fields, cols, true)
	return buf
}

// checkReadBack checks that Quiver's reader and, when pq is set, pqarrow
// (where it reads the types) read cols back from buf.
func checkReadBack(t *testing.T, buf []byte, fields []arrow.Field, cols []arrow.Array, pq bool) {
	t.Helper()
	for i, got := range quiverRead(t, buf) {
		t.Run("quiver/"+fields[i].Name, func(t *testing.T) { arrowiotest.AssertSameValues(t, cols[i], got) })
		got.Release()
	}
	for _, f := range fields {
		if !pq || !pqarrowReads(f.Type) {
			return
		}
	}
	tbl := pqRead(t, memory.DefaultAllocator, buf) // pqarrow's own leaks are not ours
	defer tbl.Release()
	if tbl.NumRows() != int64(cols[0].Len()) {
		t.Fatalf("pqarrow reads %d rows, want %d", tbl.NumRows(), cols[0].Len())
	}
	for i, c := range cols {
		got := columnOf(t, memory.DefaultAllocator, tbl, i)
		t.Run("pqarrow/"+fields[i].Name, func(t *testing.T) { arrowiotest.AssertSameValues(t, c, got) })
		got.Release()
	}
}

func TestWriterTypesRoundTrip(t *testing.T) {
	for _, dt := range arrowiotest.FlatTypes {
		t.Run(typeName(dt), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			rng := rand.New(rand.NewPCG(1, uint64(dt.ID())))
			var fields []arrow.Field
			var cols []arrow.Array
			for _, nullable := range []bool{true, false} {
				if dt.ID() == arrow.NULL && !nullable {
					continue
				}
				for _, low := range []bool{true, false} {
					frac := 0.0
					if nullable {
						frac = 0.2
					}
					fields = append(fields, arrow.Field{Name: string(rune('a' + len(fields))), Type: dt, Nullable: nullable})
					cols = append(cols, arrowiotest.RandomArray(t, mem, dt, arrowiotest.Rows(3000), frac, low, rng))
				}
			}
			defer func() {
				for _, c := range cols {
					c.Release()
				}
			}()
			roundTrip(t, mem, arrowio.WriteOptions{}, fields, cols)
		})
	}
}

// matrixFields are the columns of the encoding and codec tests: one per
// physical type, nullable and sliced.
var matrixTypes = []arrow.DataType{
	arrow.FixedWidthTypes.Boolean, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64,
	arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, arrow.BinaryTypes.String,
	arrow.BinaryTypes.LargeBinary, &arrow.FixedSizeBinaryType{ByteWidth: 5},
	&arrow.Decimal128Type{Precision: 30, Scale: 2}, arrow.FixedWidthTypes.Float16,
}

// matrixColumns returns n rows of matrixTypes, sliced from longer arrays
// so that every column starts at a non-zero offset.
func matrixColumns(t *testing.T, mem memory.Allocator, n int, lowCard bool, seed uint64) ([]arrow.Field, []arrow.Array) {
	rng := rand.New(rand.NewPCG(seed, 7))
	var fields []arrow.Field
	var cols []arrow.Array
	for i, dt := range matrixTypes {
		full := arrowiotest.RandomArray(t, mem, dt, n+10, 0.1, lowCard, rng)
		cols = append(cols, array.NewSlice(full, 7, int64(n+7)))
		full.Release()
		fields = append(fields, arrow.Field{Name: fmt.Sprintf("c%d", i), Type: dt, Nullable: true})
	}
	return fields, cols
}

// encodingsOf returns the encodings arrow-go reads from each column chunk
// of the file's first row group.
func encodingsOf(t *testing.T, buf []byte) [][]parquet.Encoding {
	r := pqMetadata(t, buf)
	defer r.Close()
	rg := r.MetaData().RowGroup(0)
	var out [][]parquet.Encoding
	for i := range rg.NumColumns() {
		cc, err := rg.ColumnChunk(i)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, cc.Encodings())
	}
	return out
}

func TestWriterEncodings(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	fields, cols := matrixColumns(t, mem, arrowiotest.Rows(5000), false, 1)
	defer releaseAll(cols)
	// pqarrow reads DELTA_BYTE_ARRAY only for BYTE_ARRAY ("unimplemented
	// encoding type" for FIXED_LEN_BYTE_ARRAY): that case is checked with
	// Quiver's reader alone.
	cases := []struct {
		enc  footer.Encoding
		only footer.Type // -1: every physical type the encoding fits
		pq   bool
	}{
		{footer.EncodingPlain, -1, true}, {footer.EncodingRLE, -1, true}, {footer.EncodingDeltaBinaryPacked, -1, true},
		{footer.EncodingDeltaLengthByteArray, -1, true}, {footer.EncodingDeltaByteArray, footer.TypeByteArray, true},
		{footer.EncodingDeltaByteArray, footer.TypeFixedLenByteArray, false}, {footer.EncodingByteStreamSplit, -1, true},
	}
	// The physical type of each column, from a file written with the
	// defaults; an encoding fits a column when NewWriter takes it.
	plain := record(fields, cols)
	plainFile := arrowiotest.WriteFile(t, plain.Schema(), arrowio.WriteOptions{}, plain)
	ft, err := footer.ReadFooter(bytes.NewReader(plainFile), int64(len(plainFile)))
	plain.Release()
	if err != nil {
		t.Fatal(err)
	}
	fits := func(enc footer.Encoding, f arrow.Field) bool {
		_, err := arrowio.NewWriter(io.Discard, arrow.NewSchema([]arrow.Field{f}, nil), arrowio.WriteOptions{Encoding: footer.Some(enc)})
		return err == nil
	}
	for _, c := range cases {
		for _, v := range []arrowio.PageVersion{arrowio.PageV1, arrowio.PageV2} {
			t.Run(fmt.Sprintf("%s/%d/v%d", c.enc, c.only, v), func(t *testing.T) {
				opts := arrowio.WriteOptions{PageVersion: v, DisableDictionary: true, DataPageSize: 4096, Columns: map[string]arrowio.ColumnOptions{}}
				want := map[int]bool{}
				for i, f := range fields {
					if phys := ft.Schema.Leaves[i].Physical; fits(c.enc, f) && (c.only < 0 || c.only == phys) {
						opts.Columns[f.Name] = arrowio.ColumnOptions{Encoding: footer.Some(c.enc)}
						want[i] = true
					}
				}
				if len(want) == 0 {
					t.Fatalf("no column takes %s", c.enc)
				}
				rec := record(fields, cols)
				defer rec.Release()
				buf := arrowiotest.WriteFile(t, rec.Schema(), opts, rec)
				checkReadBack(t, buf, fields, cols, c.pq)
				for i, encs := range encodingsOf(t, buf) {
					if want[i] && !slices.Contains(encs, parquet.Encoding(c.enc)) {
						t.Errorf("column %d: encodings %v lack %s", i, encs, c.enc)
					}
				}
			})
		}
	}
}

// record returns a record batch of cols that releases with the test.
func record(fields []arrow.Field, cols []arrow.Array) arrow.RecordBatch {
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(cols[0].Len()))
}

// releaseAll releases every array.
func releaseAll(cols []arrow.Array) {
	for _, c := range cols {
		c.Release()
	}
}

// TestWriterOptions writes the matrix columns under every codec in both
// page versions (with few distinct values) and under page, row-group,
// statistics, CRC and parallelism settings, and checks that Quiver's
// reader and pqarrow read the values back.
func TestWriterOptions(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	lowFields, lowCols := matrixColumns(t, mem, arrowiotest.Rows(3000), true, 2)
	defer releaseAll(lowCols)
	fields, cols := matrixColumns(t, mem, arrowiotest.Rows(4000), false, 3)
	defer releaseAll(cols)
	type optionCase struct {
		name    string
		opts    arrowio.WriteOptions
		lowCard bool
	}
	var cases []optionCase
	for _, codec := range []footer.CompressionCodec{footer.CodecUncompressed, footer.CodecSnappy, footer.CodecGzip,
		footer.CodecBrotli, footer.CodecZstd, footer.CodecLZ4Raw} {
		for _, v := range []arrowio.PageVersion{arrowio.PageV1, arrowio.PageV2} {
			cases = append(cases, optionCase{fmt.Sprintf("%s/v%d", codec, v), arrowio.WriteOptions{Compression: codec, PageVersion: v, DataPageSize: 2048}, true})
		}
	}
	cases = append(cases,
		optionCase{"tiny pages", arrowio.WriteOptions{DataPageSize: 1}, false},
		optionCase{"page rows", arrowio.WriteOptions{DataPageRows: 333, PageVersion: arrowio.PageV2}, false},
		optionCase{"large pages", arrowio.WriteOptions{DataPageSize: 64 << 20}, false},
		optionCase{"dictionary fallback", arrowio.WriteOptions{DictionaryPageSizeLimit: 2000, DataPageSize: 3000}, false},
		optionCase{"row groups of 1000", arrowio.WriteOptions{MaxRowGroupRows: 1000}, false},
		optionCase{"row groups of 1", arrowio.WriteOptions{MaxRowGroupRows: 1, DisableDictionary: true}, false},
		optionCase{"row group bytes", arrowio.WriteOptions{MaxRowGroupBytes: 50000, Compression: footer.CodecSnappy}, false},
		optionCase{"no statistics or CRC", arrowio.WriteOptions{DisableStatistics: true, DisableCRC: true}, false},
		optionCase{"page statistics", arrowio.WriteOptions{PageStatistics: true, DataPageSize: 2000}, false},
		optionCase{"sequential", arrowio.WriteOptions{Parallelism: 1}, false},
	)
	for _, c := range cases {
		if testing.Short() && c.opts.MaxRowGroupRows == 1 {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			fields, cols := fields, cols
			if c.lowCard {
				fields, cols = lowFields, lowCols
			}
			rec := record(fields, cols)
			defer rec.Release()
			buf := arrowiotest.WriteFile(t, rec.Schema(), c.opts, rec)
			checkReadBack(t, buf, fields, cols, true)
		})
	}
}

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
// value: a row group of 40 times the rows costs no more allocations. Pages
// have no row cap here, so that the rows stay in one page per column
// (each page's statistics and index entries are allocations of its own).
func TestWriterAllocationsDoNotGrowWithRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	fields, cols := matrixColumns(t, mem, arrowiotest.Rows(40000), true, 10)
	defer releaseAll(cols)
	big := record(fields, cols)
	defer big.Release()
	small := big.NewSlice(0, big.NumRows()/40)
	defer small.Release()
	for _, opts := range []arrowio.WriteOptions{{Parallelism: 1, DataPageRows: -1}, {Parallelism: 1, DataPageRows: -1, DisableDictionary: true, Compression: footer.CodecSnappy, PageVersion: arrowio.PageV2}} {
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
				if err := w.Flush(); err != nil {
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

// TestDictionaryStopsPaying writes columns of distinct keys (int64,
// string, fixed-size binary) and one of few values with dictionary
// encoding on, with small pages (the keys' dictionary is judged at the
// end of the first page) and the default ones (judged after 16k values,
// when nearly all were new to it, long before the page ends): the
// distinct keys drop their dictionary for the whole chunk, whose pages,
// the first included, are PLAIN with no dictionary page, the repeated
// values stay dictionary-encoded, and all read back.
func TestDictionaryStopsPaying(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const n = 50_000
	keys, small := array.NewInt64Builder(mem), array.NewInt64Builder(mem)
	skeys := array.NewStringBuilder(mem)
	fkeys := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 6})
	defer keys.Release()
	defer small.Release()
	defer skeys.Release()
	defer fkeys.Release()
	for i := range n {
		keys.Append(int64(i) * 7919)
		small.Append(int64(i % 5))
		skeys.Append(fmt.Sprintf("https://example.com/item/%d", i*7919))
		fkeys.Append(fmt.Appendf(nil, "%06d", i))
	}
	fields := []arrow.Field{{Name: "key", Type: arrow.PrimitiveTypes.Int64}, {Name: "skey", Type: arrow.BinaryTypes.String},
		{Name: "fkey", Type: fkeys.Type()}, {Name: "small", Type: arrow.PrimitiveTypes.Int64}}
	cols := []arrow.Array{keys.NewArray(), skeys.NewArray(), fkeys.NewArray(), small.NewArray()}
	defer releaseAll(cols)
	plainSize := []int64{8 * n, int64(len(cols[1].(*array.String).ValueBytes()) + 4*n), 6 * n}
	for _, pageSize := range []int{8 << 10, 0} {
		buf := roundTrip(t, mem, arrowio.WriteOptions{DataPageSize: pageSize}, fields, cols)
		r := pqMetadata(t, buf)
		for i, f := range fields {
			cc, err := r.MetaData().RowGroup(0).ColumnChunk(i)
			if err != nil {
				t.Fatal(err)
			}
			distinct := i < len(plainSize)
			var plain, dict bool
			for _, st := range cc.EncodingStats() {
				plain = plain || st.PageType.String() == "DATA_PAGE" && st.Encoding == parquet.Encodings.Plain
				dict = dict || st.Encoding == parquet.Encodings.RLEDict
			}
			if plain != distinct || dict == distinct || cc.HasDictionaryPage() == distinct {
				t.Errorf("page size %d, column %s: PLAIN pages %v, dictionary-encoded pages %v, dictionary page %v (%v)",
					pageSize, f.Name, plain, dict, cc.HasDictionaryPage(), cc.EncodingStats())
			}
			// No page of the keys holds indices beside a dictionary page
			// holding their values: the chunk is about PLAIN's size.
			if size := cc.TotalUncompressedSize(); distinct && size > plainSize[i]+n/8 {
				t.Errorf("page size %d: distinct %s take %d bytes uncompressed, want about PLAIN's %d", pageSize, f.Name, size, plainSize[i])
			}
		}
		r.Close()
	}
}

// TestDictionaryEncodedPageRows writes 50,000 rows of a column of few
// values and one of distinct keys: by default the dictionary-encoded
// pages hold at most DefaultDictionaryEncodedPageRows rows while the
// keys' PLAIN pages are cut by size alone (one page here); with
// DataPageRows negative no page is cut by rows, and with it set every
// page is.
func TestDictionaryEncodedPageRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const n = 50_000
	keys, small := array.NewInt64Builder(mem), array.NewInt64Builder(mem)
	defer keys.Release()
	defer small.Release()
	for i := range n {
		keys.Append(int64(i) * 7919)
		small.Append(int64(i % 5))
	}
	fields := []arrow.Field{{Name: "key", Type: arrow.PrimitiveTypes.Int64}, {Name: "small", Type: arrow.PrimitiveTypes.Int64}}
	cols := []arrow.Array{keys.NewArray(), small.NewArray()}
	defer releaseAll(cols)
	d := arrowio.DefaultDictionaryEncodedPageRows
	for _, c := range []struct {
		rows       int
		key, small []int64 // first rows of the pages
	}{
		{0, []int64{0}, []int64{0, int64(d), int64(2 * d)}},
		{-1, []int64{0}, []int64{0}},
		{30_000, []int64{0, 30_000}, []int64{0, 30_000}},
	} {
		buf := roundTrip(t, mem, arrowio.WriteOptions{DataPageRows: c.rows}, fields, cols)
		rd, err := arrowio.Open(bytes.NewReader(buf), int64(len(buf)), arrowio.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string][]int64{"key": c.key, "small": c.small} {
			_, oi, err := rd.PageIndex(0, name)
			if err != nil || oi == nil {
				t.Fatalf("DataPageRows %d: offset index of %s: %v", c.rows, name, err)
			}
			var got []int64
			for _, p := range oi.PageLocations {
				got = append(got, p.FirstRowIndex)
			}
			if !slices.Equal(got, want) {
				t.Errorf("DataPageRows %d, column %s: pages start at rows %v, want %v", c.rows, name, got, want)
			}
		}
		rd.Close()
	}
}
