package arrowio_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/duckdb"
	"github.com/quiverio/quiver/levels/levelstest"
)

// duckTypes are the flat column types of the DuckDB interop table: every
// type DuckDB reads from Parquet (it has no 256-bit decimals, no
// nanosecond intervals and no null-typed columns) and arrow-go writes (it
// has no 32- and 64-bit decimals and no views).
var duckTypes = []arrow.DataType{
	arrow.FixedWidthTypes.Boolean,
	arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64,
	arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64,
	arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
	&arrow.Decimal128Type{Precision: 9, Scale: 2}, &arrow.Decimal128Type{Precision: 18, Scale: 3},
	&arrow.Decimal128Type{Precision: 38, Scale: 5},
	arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString, arrow.BinaryTypes.Binary,
	&arrow.FixedSizeBinaryType{ByteWidth: 5},
	arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Time64us,
	&arrow.TimestampType{Unit: arrow.Millisecond}, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"},
	&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String},
}

// duckNested are the nested columns of the DuckDB interop table.
var duckNested = []arrow.DataType{
	arrow.ListOf(arrow.PrimitiveTypes.Int64),
	arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true}),
	arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64),
	arrow.ListOf(arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		arrow.Field{Name: "y", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true})),
}

// duckTable returns a record of n rows: a row id, then every duckTypes and
// duckNested column with random values and nulls.
func duckTable(t *testing.T, mem memory.Allocator, n int) arrow.RecordBatch {
	rng := rand.New(rand.NewPCG(11, 12))
	ids := array.NewInt64Builder(mem)
	defer ids.Release()
	for i := range n {
		ids.Append(int64(i))
	}
	fields := []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}
	cols := []arrow.Array{ids.NewArray()}
	for i, dt := range duckTypes {
		fields = append(fields, arrow.Field{Name: fmt.Sprintf("c%d", i), Type: dt, Nullable: true})
		cols = append(cols, arrowiotest.RandomArray(t, mem, dt, n, 0.1, i%2 == 0, rng))
	}
	for i, dt := range duckNested {
		f := arrow.Field{Name: fmt.Sprintf("n%d", i), Type: dt, Nullable: true}
		fields = append(fields, f)
		cols = append(cols, levelstest.RandArray(rng, mem, f, n, nil, false)) // arrow-go refuses null lists that hold values
	}
	defer releaseAll(cols)
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n))
}

// duckEncodings returns per-column encodings other than PLAIN for every
// column of schema whose type has one.
func duckEncodings(schema *arrow.Schema) map[string]arrowio.ColumnOptions {
	cols := make(map[string]arrowio.ColumnOptions)
	off := footer.Some(false)
	for _, f := range schema.Fields() {
		var enc footer.Encoding
		switch f.Type.ID() {
		case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
			arrow.DATE32, arrow.TIME64, arrow.TIMESTAMP:
			enc = footer.EncodingDeltaBinaryPacked
		case arrow.STRING, arrow.LARGE_STRING, arrow.FIXED_SIZE_BINARY:
			enc = footer.EncodingDeltaByteArray
		case arrow.BINARY:
			enc = footer.EncodingDeltaLengthByteArray
		case arrow.FLOAT32, arrow.FLOAT64: // DuckDB reads BYTE_STREAM_SPLIT of floats only
			enc = footer.EncodingByteStreamSplit
		default:
			continue
		}
		cols[f.Name] = arrowio.ColumnOptions{Dictionary: off, Encoding: footer.Some(enc)}
	}
	return cols
}

// TestDuckDBReadsWrittenFiles writes one table of flat and nested columns
// with every codec, both page versions and dictionary, PLAIN and the
// other encodings, and checks that DuckDB reads each file to exactly the
// rows it reads from arrow-go's file of the same table. DuckDB also
// rewrites the table, and Quiver reads DuckDB's file equal to the table.
func TestDuckDBReadsWrittenFiles(t *testing.T) {
	duckdb.Script(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := duckTable(t, mem, arrowiotest.Rows(3000))
	defer rec.Release()
	dir := t.TempDir()

	refPath := filepath.Join(dir, "arrow-go.parquet")
	if err := os.WriteFile(refPath, arrowiotest.WritePqarrow(t, rec), 0o644); err != nil {
		t.Fatal(err)
	}

	type config struct {
		name  string
		opts  arrowio.WriteOptions
		batch int64 // rows per Write call; 0 for one call
	}
	var configs []config
	for _, codec := range []footer.CompressionCodec{footer.CodecUncompressed, footer.CodecSnappy, footer.CodecGzip,
		footer.CodecZstd, footer.CodecBrotli, footer.CodecLZ4Raw} {
		configs = append(configs, config{codec.String() + "/v1", arrowio.WriteOptions{Compression: codec, DataPageSize: 4 << 10}, 0})
	}
	configs = append(configs,
		config{"v2/dict", arrowio.WriteOptions{PageVersion: arrowio.PageV2, Compression: footer.CodecZstd, DataPageSize: 4 << 10}, 0},
		config{"v1/plain", arrowio.WriteOptions{DisableDictionary: true, Compression: footer.CodecSnappy}, 0},
		config{"v2/plain", arrowio.WriteOptions{PageVersion: arrowio.PageV2, DisableDictionary: true}, 0},
		config{"v1/encodings", arrowio.WriteOptions{Columns: duckEncodings(rec.Schema()), DataPageSize: 4 << 10}, 0},
		config{"v2/encodings", arrowio.WriteOptions{PageVersion: arrowio.PageV2, Columns: duckEncodings(rec.Schema()), Compression: footer.CodecZstd}, 0},
		config{"row-groups", arrowio.WriteOptions{MaxRowGroupRows: 700, DataPageRows: 100}, 0},
		config{"row-group-bytes", arrowio.WriteOptions{MaxRowGroupBytes: 32 << 10, Compression: footer.CodecSnappy}, 97},
		config{"row-group-rows-streamed", arrowio.WriteOptions{MaxRowGroupRows: 1000, PageVersion: arrowio.PageV2}, 300},
		config{"sorting-columns", arrowio.WriteOptions{SortingColumns: []arrowio.SortingColumn{{Column: "id"}, {Column: "n1.b", Descending: true, NullsFirst: true}}}, 0},
	)
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, "/", "-")+".parquet")
			batches := []arrow.RecordBatch{rec}
			if c.batch > 0 {
				batches = nil
				for lo := int64(0); lo < rec.NumRows(); lo += c.batch {
					s := rec.NewSlice(lo, min(rec.NumRows(), lo+c.batch))
					defer s.Release()
					batches = append(batches, s)
				}
			}
			file := arrowiotest.WriteFile(t, rec.Schema(), c.opts, batches...)
			if err := os.WriteFile(path, file, 0o644); err != nil {
				t.Fatal(err)
			}
			if c.batch > 0 || c.opts.SortingColumns != nil {
				compareWithArrowGo(t, file)
			}
			a, b := duckdb.Quote(path), duckdb.Quote(refPath)
			rows := duckdb.Query(t, fmt.Sprintf(`select
				(select count(*) from read_parquet(%[1]s)) as ours,
				(select count(*) from read_parquet(%[2]s)) as theirs,
				(select count(*) from (select * from read_parquet(%[1]s) except all select * from read_parquet(%[2]s))) as only_ours,
				(select count(*) from (select * from read_parquet(%[2]s) except all select * from read_parquet(%[1]s))) as only_theirs`, a, b))
			if len(rows) != 1 {
				t.Fatalf("duckdb returned %d rows", len(rows))
			}
			r := rows[0]
			want := fmt.Sprint(rec.NumRows())
			if fmt.Sprint(r["ours"]) != want || fmt.Sprint(r["theirs"]) != want || fmt.Sprint(r["only_ours"]) != "0" || fmt.Sprint(r["only_theirs"]) != "0" {
				t.Errorf("DuckDB: %v rows of %s (want %s), %v rows not in arrow-go's file, %v of arrow-go's rows missing", r["ours"], c.name, want, r["only_ours"], r["only_theirs"])
			}
		})
	}

	t.Run("duckdb-written", func(t *testing.T) {
		path := filepath.Join(dir, "duckdb.parquet")
		duckdb.Query(t, fmt.Sprintf("copy (select * from read_parquet(%s) order by id) to %s (format parquet, row_group_size 1000)",
			duckdb.Quote(refPath), duckdb.Quote(path)))
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		compareWithArrowGo(t, b)
	})
}

// compareWithArrowGo reads file with Quiver and with pqarrow and checks
// that every column is equal.
func compareWithArrowGo(t *testing.T, b []byte) {
	t.Helper()
	rd, err := arrowio.Open(bytes.NewReader(b), int64(len(b)), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	got, err := rd.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	pf, err := file.NewParquetReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1 << 16}, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	want, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()
	if got.NumRows() != want.NumRows() || got.NumCols() != want.NumCols() {
		t.Fatalf("quiver read %d rows x %d columns, arrow-go %d x %d", got.NumRows(), got.NumCols(), want.NumRows(), want.NumCols())
	}
	for i := range int(want.NumCols()) {
		g, w := got.Column(i).Data(), want.Column(i).Data()
		if !arrow.TypeEqual(g.DataType(), w.DataType()) {
			t.Errorf("column %s: quiver type %s, arrow-go %s", want.Schema().Field(i).Name, g.DataType(), w.DataType())
			continue
		}
		if !array.ChunkedEqual(g, w) {
			t.Errorf("column %s differs between quiver and arrow-go", want.Schema().Field(i).Name)
		}
	}
}
