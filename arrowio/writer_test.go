package arrowio_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/quiverio/quiver/arrowio"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"

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

func TestWriterCodecs(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	fields, cols := matrixColumns(t, mem, arrowiotest.Rows(3000), true, 2)
	defer releaseAll(cols)
	for _, codec := range []footer.CompressionCodec{footer.CodecUncompressed, footer.CodecSnappy, footer.CodecGzip,
		footer.CodecBrotli, footer.CodecZstd, footer.CodecLZ4Raw} {
		for _, v := range []arrowio.PageVersion{arrowio.PageV1, arrowio.PageV2} {
			t.Run(fmt.Sprintf("%s/v%d", codec, v), func(t *testing.T) {
				opts := arrowio.WriteOptions{Compression: codec, PageVersion: v, DataPageSize: 2048}
				rec := record(fields, cols)
				defer rec.Release()
				buf := arrowiotest.WriteFile(t, rec.Schema(), opts, rec)
				checkReadBack(t, buf, fields, cols, true)
			})
		}
	}
}

func TestWriterPagesAndRowGroups(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	fields, cols := matrixColumns(t, mem, arrowiotest.Rows(4000), false, 3)
	defer releaseAll(cols)
	cases := []struct {
		name string
		opts arrowio.WriteOptions
	}{
		{"tiny pages", arrowio.WriteOptions{DataPageSize: 1}},
		{"page rows", arrowio.WriteOptions{DataPageRows: 333, PageVersion: arrowio.PageV2}},
		{"large pages", arrowio.WriteOptions{DataPageSize: 64 << 20}},
		{"dictionary fallback", arrowio.WriteOptions{DictionaryPageSizeLimit: 2000, DataPageSize: 3000}},
		{"row groups of 1000", arrowio.WriteOptions{MaxRowGroupRows: 1000}},
		{"row groups of 1", arrowio.WriteOptions{MaxRowGroupRows: 1, DisableDictionary: true}},
		{"row group bytes", arrowio.WriteOptions{MaxRowGroupBytes: 50000, Compression: footer.CodecSnappy}},
		{"no statistics or CRC", arrowio.WriteOptions{DisableStatistics: true, DisableCRC: true}},
		{"page statistics", arrowio.WriteOptions{PageStatistics: true, DataPageSize: 2000}},
		{"sequential", arrowio.WriteOptions{Parallelism: 1}},
	}
	if testing.Short() {
		cases = slices.DeleteFunc(cases, func(c struct {
			name string
			opts arrowio.WriteOptions
		}) bool {
			return c.opts.MaxRowGroupRows == 1
		})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := record(fields, cols)
			defer rec.Release()
			buf := arrowiotest.WriteFile(t, rec.Schema(), c.opts, rec)
			checkReadBack(t, buf, fields, cols, true)
		})
	}
}
