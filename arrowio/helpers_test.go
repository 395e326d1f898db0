package arrowio_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/footer"
)

// readPath opens path with opts, reads it whole (with ReadTable, or with
// RecordReader batches when batches is set) and closes the Reader before
// returning, so that the arrays are used after Close.
func readPath(path string, opts arrowio.ReadOptions, batches bool) (tbl arrow.Table, err error) {
	rd, err := arrowio.OpenFile(path, opts)
	if err != nil {
		return nil, err
	}
	if batches {
		tbl, err = arrowiotest.ReadBatches(rd)
	} else {
		tbl, err = rd.ReadTable(context.Background())
	}
	if cerr := rd.Close(); err == nil && cerr != nil {
		tbl.Release()
		return nil, cerr
	}
	return tbl, err
}

// fileSchema returns the Parquet schema tree of the file rd reads.
func fileSchema(t testing.TB, rd *arrowio.Reader) *footer.Schema {
	t.Helper()
	s, err := footer.NewSchema(rd.Metadata().Schema, rd.Metadata().ColumnOrders)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// chunkSpan returns the bytes [start, end) of the file a column chunk's
// pages take, from its dictionary or first data page on.
func chunkSpan(md *footer.ColumnMetaData) (start, end int64) {
	start = md.DataPageOffset
	if d, ok := md.DictionaryPageOffset.Get(); ok && d > 0 && d < start {
		start = d
	}
	return start, start + md.TotalCompressedSize
}

// typeName returns a name for dt fit for a subtest.
func typeName(dt arrow.DataType) string { return dt.String() }

// pqRead reads a Parquet file with arrow-go's pqarrow.
func pqRead(t testing.TB, mem memory.Allocator, buf []byte) arrow.Table {
	t.Helper()
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(buf), parquet.NewReaderProperties(mem), pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		t.Fatalf("pqarrow cannot read the file: %v", err)
	}
	return tbl
}

// pqarrowReads reports whether pqarrow (v18.8.0) reads columns of type dt
// back: it writes durations but refuses to read them ("no support for
// reading columns of type: duration").
func pqarrowReads(dt arrow.DataType) bool { return dt.ID() != arrow.DURATION }

// quiverRead reads every row group of a file with Quiver's Reader and
// returns each column as one array (the caller releases them), or nil
// when the reader reports the file's types as unsupported (it does not
// read every type the writer writes yet).
func quiverRead(t testing.TB, buf []byte) []arrow.Array {
	t.Helper()
	r, err := arrowio.Open(bytes.NewReader(buf), int64(len(buf)), arrowio.ReadOptions{})
	if errors.Is(err, arrowio.ErrUnsupported) {
		t.Logf("quiver reader: %v", err)
		return nil
	}
	if err != nil {
		t.Fatalf("quiver cannot open the file: %v", err)
	}
	defer r.Close()
	parts := make([][]arrow.Array, r.Schema().NumFields())
	for g := range r.NumRowGroups() {
		rec, err := r.ReadRowGroup(context.Background(), g)
		if errors.Is(err, arrowio.ErrUnsupported) {
			t.Logf("quiver reader: %v", err)
			return nil
		}
		if err != nil {
			t.Fatalf("quiver cannot read row group %d: %v", g, err)
		}
		for i := range parts {
			c := rec.Column(i)
			c.Retain()
			parts[i] = append(parts[i], c)
		}
		rec.Release()
	}
	out := make([]arrow.Array, len(parts))
	for i, p := range parts {
		if len(p) == 0 {
			out[i] = array.MakeArrayOfNull(memory.DefaultAllocator, r.Schema().Field(i).Type, 0)
			continue
		}
		a, err := array.Concatenate(p, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range p {
			c.Release()
		}
		out[i] = a
	}
	return out
}

// pqMetadata returns the file metadata arrow-go reads from buf.
func pqMetadata(t testing.TB, buf []byte) *file.Reader {
	t.Helper()
	r, err := file.NewParquetReader(bytes.NewReader(buf))
	if err != nil {
		t.Fatalf("arrow-go cannot open the file: %v", err)
	}
	return r
}

// columnOf returns column i of tbl as one array (the caller releases it).
func columnOf(t testing.TB, mem memory.Allocator, tbl arrow.Table, i int) arrow.Array {
	t.Helper()
	chunks := tbl.Column(i).Data().Chunks()
	if len(chunks) == 1 {
		chunks[0].Retain()
		return chunks[0]
	}
	a, err := array.Concatenate(chunks, mem)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
