package arrowiotest

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/quiverio/quiver/arrowio"
)

// WriteFile writes recs with Quiver's Writer and opts and returns the file.
func WriteFile(t testing.TB, schema *arrow.Schema, opts arrowio.WriteOptions, recs ...arrow.RecordBatch) []byte {
	t.Helper()
	_, file := WriteClosed(t, schema, opts, recs...)
	return file
}

// WriteClosed is WriteFile that also returns the closed Writer, for its
// Metadata and Metrics.
func WriteClosed(t testing.TB, schema *arrow.Schema, opts arrowio.WriteOptions, recs ...arrow.RecordBatch) (*arrowio.Writer, []byte) {
	t.Helper()
	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, schema, opts)
	if err != nil {
		t.Fatalf("NewWriter: %v", err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return w, buf.Bytes()
}

// WriteTempFile writes batches record batches made (and released) one by
// one by mk to a file in the test's temporary directory and returns its
// path.
func WriteTempFile(t testing.TB, schema *arrow.Schema, opts arrowio.WriteOptions, batches int, mk func(b int) arrow.RecordBatch) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := arrowio.NewWriter(f, schema, opts)
	if err != nil {
		t.Fatal(err)
	}
	for b := range batches {
		rec := mk(b)
		err := w.Write(rec)
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// WritePqarrow writes rec with arrow-go's pqarrow, the ARROW:schema entry
// stored, and returns the file.
func WritePqarrow(t testing.TB, rec arrow.RecordBatch, opts ...parquet.WriterProperty) []byte {
	t.Helper()
	return WritePqarrowWith(t, rec, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()), opts...)
}

// WritePqarrowWith writes rec with arrow-go's pqarrow and Arrow writer
// properties props, and returns the file.
func WritePqarrowWith(t testing.TB, rec arrow.RecordBatch, props pqarrow.ArrowWriterProperties, opts ...parquet.WriterProperty) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(rec.Schema(), &buf, parquet.NewWriterProperties(opts...), props)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// ReadTable reads file whole with Quiver's Reader and opts; the caller
// releases the table.
func ReadTable(t testing.TB, file []byte, opts arrowio.ReadOptions) arrow.Table {
	t.Helper()
	rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	tbl, err := rd.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// RecordReaders are the readers ReadBatches takes: arrowio.Reader and
// the scan package's file reader behind it.
type RecordReaders interface {
	Schema() *arrow.Schema
	RecordReader(ctx context.Context) (array.RecordReader, error)
}

// ReadBatches reads rd through its RecordReader into a table of one chunk
// per batch; the caller releases it.
func ReadBatches(rd RecordReaders) (arrow.Table, error) {
	rr, err := rd.RecordReader(context.Background())
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	var recs []arrow.RecordBatch
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	for rr.Next() {
		rec := rr.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	if err := rr.Err(); err != nil {
		return nil, err
	}
	return array.NewTableFromRecords(rd.Schema(), recs), nil
}

// Range is a byte range [Start, End) of a file.
type Range struct{ Start, End int64 }

// CountingReaderAt counts and records the byte ranges read through it.
type CountingReaderAt struct {
	R     io.ReaderAt
	mu    sync.Mutex
	Bytes int64
	Reads []Range
}

// ReadAt reads from R, recording the range.
func (c *CountingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	c.mu.Lock()
	c.Bytes += int64(len(p))
	c.Reads = append(c.Reads, Range{Start: off, End: off + int64(len(p))})
	c.mu.Unlock()
	return c.R.ReadAt(p, off)
}

// Reset forgets the reads so far (those of the footer, say).
func (c *CountingReaderAt) Reset() {
	c.mu.Lock()
	c.Bytes, c.Reads = 0, nil
	c.mu.Unlock()
}
