package dataset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
)

var writeSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "k", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "d", Type: arrow.FixedWidthTypes.Date32},
	{Name: "v", Type: arrow.PrimitiveTypes.Float64},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

var partStrings = []string{"plain", "a/b=c %x", "", "é:ü?", "__x"}

// sourceBatches returns rows rows of writeSchema in batches of per rows,
// partition values shuffled so that every batch touches many partitions.
func sourceBatches(rows, per int, seed uint64) []arrow.RecordBatch {
	r := rand.New(rand.NewPCG(seed, 1))
	var out []arrow.RecordBatch
	b := array.NewRecordBuilder(memory.DefaultAllocator, writeSchema)
	defer b.Release()
	for i := range rows {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		if k := r.IntN(4); k == 3 {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.Int32Builder).Append(int32(k))
		}
		if j := r.IntN(len(partStrings) + 1); j == len(partStrings) {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.StringBuilder).Append(partStrings[j])
		}
		b.Field(3).(*array.Date32Builder).Append(arrow.Date32(19700 + r.IntN(2)))
		b.Field(4).(*array.Float64Builder).Append(r.Float64())
		if i%9 == 0 {
			b.Field(5).AppendNull()
		} else {
			b.Field(5).(*array.StringBuilder).Append(fmt.Sprint("n", i%31))
		}
		if (i+1)%per == 0 || i == rows-1 {
			out = append(out, b.NewRecordBatch())
		}
	}
	return out
}

// batchRows formats batches as readRows does.
func batchRows(t *testing.T, bs []arrow.RecordBatch) []string {
	rr, err := array.NewRecordReader(writeSchema, bs)
	if err != nil {
		t.Fatal(err)
	}
	return readRows(t, rr)
}

// listFiles returns the files under dir, relative and slash-separated.
func listFiles(t *testing.T, dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

// pqarrowRows reads a file with arrow-go's pqarrow.
func pqarrowRows(t *testing.T, path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(b), parquet.NewReaderProperties(memory.DefaultAllocator), pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatalf("pqarrow reading %s: %v", path, err)
	}
	defer tbl.Release()
	return tbl.NumRows()
}

// A partitioned write reads back to its rows, with files within their
// limits that pqarrow reads too.
func TestWriteRoundTrip(t *testing.T) {
	src := sourceBatches(20000, 1500, 1)
	want := batchRows(t, src)
	// With two files open and rows of 8 partitions shuffled, almost every
	// row closes a file: fewer rows.
	few := sourceBatches(500, 100, 1)
	for _, tc := range []struct {
		name string
		opts WriteOptions
		src  []arrow.RecordBatch
	}{
		{"partitioned", WriteOptions{PartitionBy: []string{"k", "s", "d"}}, nil},
		{"max rows", WriteOptions{PartitionBy: []string{"s"}, MaxRowsPerFile: 700, RowGroupRows: 300}, nil},
		{"max bytes", WriteOptions{PartitionBy: []string{"d"}, MaxBytesPerFile: 30 << 10, RowGroupRows: 500,
			File: arrowio.WriteOptions{Compression: footer.CodecZstd}}, nil},
		{"two open", WriteOptions{PartitionBy: []string{"k", "d"}, MaxOpenFiles: 2, FileName: "f{n}.parquet"}, few},
		{"small buffer", WriteOptions{PartitionBy: []string{"k"}, MaxBufferedBytes: 16 << 10}, nil},
		{"unpartitioned", WriteOptions{MaxRowsPerFile: 6000, File: arrowio.WriteOptions{Compression: footer.CodecSnappy, PageVersion: arrowio.PageV2}}, nil},
		{"one big batch", WriteOptions{RowGroupRows: 3000}, sourceBatches(20000, 20000, 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			src, want := src, want
			if tc.src != nil {
				src, want = tc.src, batchRows(t, tc.src)
			}
			rr, _ := array.NewRecordReader(writeSchema, src)
			sink := &trackingSink{Sink: Local}
			files, err := Write(context.Background(), sink, dir, rr, tc.opts)
			rr.Release()
			if err != nil {
				t.Fatal(err)
			}
			if m := max(tc.opts.MaxOpenFiles, 1); tc.opts.MaxOpenFiles > 0 && sink.peak > m {
				t.Errorf("%d files open at once", sink.peak)
			}
			on := listFiles(t, dir)
			if len(on) != len(files) {
				t.Errorf("%d files on disk, %d reported", len(on), len(files))
			}
			var rows int64
			for _, f := range files {
				rows += f.Rows
				if m := tc.opts.MaxRowsPerFile; m > 0 && f.Rows > m {
					t.Errorf("%s: %d rows", f.Path, f.Rows)
				}
				st, err := os.Stat(f.Path)
				if err != nil || st.Size() != f.Bytes {
					t.Errorf("%s: size %v, reported %d", f.Path, err, f.Bytes)
				}
				if m := tc.opts.MaxBytesPerFile; m > 0 && f.Bytes > m+12<<10 {
					t.Errorf("%s: %d bytes", f.Path, f.Bytes)
				}
				if n := pqarrowRows(t, f.Path); n != f.Rows {
					t.Errorf("%s: pqarrow reads %d rows, %d written", f.Path, n, f.Rows)
				}
				if m := tc.opts.RowGroupRows; m > 0 {
					checkRowGroups(t, f.Path, m)
				}
			}
			if rows != int64(len(want)) {
				t.Errorf("%d rows written", rows)
			}
			if tc.opts.MaxRowsPerFile > 0 || tc.opts.MaxBytesPerFile > 0 || tc.opts.MaxOpenFiles > 0 {
				if parts := len(tc.opts.PartitionBy); len(files) <= map[int]int{0: 1, 1: 6}[parts] {
					t.Errorf("only %d files", len(files))
				}
			}
			ds, err := Open(context.Background(), nil, []string{dir}, Options{
				PartitionTypes: map[string]arrow.DataType{"k": arrow.PrimitiveTypes.Int32, "s": arrow.BinaryTypes.String}, PartitionEncoding: PartitionPlain})
			if err != nil {
				t.Fatal(err)
			}
			rr, _ = ds.RecordReader(context.Background())
			if got := readRows(t, rr); !slices.Equal(got, want) {
				t.Errorf("read back %d rows, wrote %d; first %q vs %q", len(got), len(want), got[0], want[0])
			}
		})
	}
}

// checkRowGroups fails t unless every row group of the file at path but
// the last holds rows rows, and the last at most that.
func checkRowGroups(t *testing.T, path string, rows int64) {
	t.Helper()
	rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	rgs := rd.Metadata().RowGroups
	for i, rg := range rgs {
		if rg.NumRows > rows || (i < len(rgs)-1 && rg.NumRows != rows) {
			t.Errorf("%s: row group %d of %d holds %d rows, want %d", path, i, len(rgs), rg.NumRows, rows)
		}
	}
}

// Writers sharing a root never collide, and a name that exists is an
// error, not an overwrite.
func TestWriteConcurrent(t *testing.T) {
	dir := t.TempDir()
	src := sourceBatches(4000, 1000, 2)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			rr, _ := array.NewRecordReader(writeSchema, src)
			defer rr.Release()
			_, errs[i] = Write(context.Background(), nil, dir, rr, WriteOptions{PartitionBy: []string{"k"}, MaxRowsPerFile: 300})
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	ds, err := Open(context.Background(), nil, []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := ds.CountRows(context.Background()); n != 16000 || err != nil {
		t.Errorf("%d rows, %v", n, err)
	}
	// Without {id}, a second writer meets the first's names.
	opts := WriteOptions{PartitionBy: []string{"k"}, FileName: "data_{n}.parquet"}
	for i := range 2 {
		rr, _ := array.NewRecordReader(writeSchema, src)
		_, err := Write(context.Background(), nil, dir+"/fixed", rr, opts)
		rr.Release()
		if i == 1 && (!errors.Is(err, fs.ErrExist) || !strings.Contains(err.Error(), "data_0.parquet")) {
			t.Errorf("second writer: %v", err)
		}
	}
	for _, f := range listFiles(t, dir) {
		if strings.Contains(f, "/.") {
			t.Errorf("temporary file left: %s", f)
		}
	}
}

// trackingSink counts the uploads open at once.
type trackingSink struct {
	Sink
	mu         sync.Mutex
	open, peak int
}

func (s *trackingSink) Create(ctx context.Context, p string) (Upload, error) {
	u, err := s.Sink.Create(ctx, p)
	if err == nil {
		s.mu.Lock()
		s.open++
		s.peak = max(s.peak, s.open)
		s.mu.Unlock()
		u = &trackedUpload{Upload: u, s: s}
	}
	return u, err
}

type trackedUpload struct {
	Upload
	s *trackingSink
}

func (u *trackedUpload) end() {
	u.s.mu.Lock()
	u.s.open--
	u.s.mu.Unlock()
}

func (u *trackedUpload) Commit() error { defer u.end(); return u.Upload.Commit() }
func (u *trackedUpload) Abort() error  { defer u.end(); return u.Upload.Abort() }

// failingSink fails every write once after bytes bytes have been written
// through it, or when the context is cancelled.
type failingSink struct {
	Sink
	mu        sync.Mutex
	left      int64
	committed func() // called after every commit
}

func (s *failingSink) Create(ctx context.Context, p string) (Upload, error) {
	u, err := s.Sink.Create(ctx, p)
	if err != nil {
		return nil, err
	}
	return &failingUpload{Upload: u, s: s}, nil
}

type failingUpload struct {
	Upload
	s *failingSink
}

var errDiskFull = errors.New("disk full")

func (u *failingUpload) Commit() error {
	err := u.Upload.Commit()
	if u.s.committed != nil {
		u.s.committed()
	}
	return err
}

func (u *failingUpload) Write(p []byte) (int, error) {
	u.s.mu.Lock()
	u.s.left -= int64(len(p))
	left := u.s.left
	u.s.mu.Unlock()
	if left < 0 {
		return 0, errDiskFull
	}
	return u.Upload.Write(p)
}

// A write that fails or is cancelled leaves only complete files, and says
// which partition and file it was writing.
func TestWriteFailure(t *testing.T) {
	src := sourceBatches(20000, 1000, 3)
	for _, cancel := range []bool{false, true} {
		dir := t.TempDir()
		ctx, stop := context.WithCancel(context.Background())
		sink := &failingSink{Sink: Local, left: 200 << 10}
		if cancel {
			sink.left = 1 << 40
			sink.committed = stop
		}
		rr, _ := array.NewRecordReader(writeSchema, src)
		files, err := Write(ctx, sink, dir, rr, WriteOptions{PartitionBy: []string{"s"}, RowGroupRows: 500, MaxRowsPerFile: 2000})
		rr.Release()
		stop()
		switch {
		case cancel && !errors.Is(err, context.Canceled):
			t.Errorf("cancelled: %v", err)
		case !cancel && (!errors.Is(err, errDiskFull) || !strings.Contains(err.Error(), "partition s=") || !strings.Contains(err.Error(), ".parquet")):
			t.Errorf("failed: %v", err)
		}
		t.Logf("cancel=%v: %v", cancel, err)
		on := listFiles(t, dir)
		if len(on) != len(files) || len(files) == 0 {
			t.Errorf("%d files on disk, %d complete: %q", len(on), len(files), on)
		}
		for _, f := range files {
			if n := pqarrowRows(t, f.Path); n != f.Rows {
				t.Errorf("%s: %d rows, want %d", f.Path, n, f.Rows)
			}
		}
	}
}

// A read error of the batches aborts the write.
func TestWriteReadError(t *testing.T) {
	dir := t.TempDir()
	rr := &failingReader{RecordReader: mustReader(sourceBatches(3000, 1000, 4)), after: 2}
	_, err := Write(context.Background(), nil, dir, rr, WriteOptions{PartitionBy: []string{"k"}})
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("error %v", err)
	}
	if on := listFiles(t, dir); len(on) != 0 {
		t.Errorf("files left: %q", on)
	}
}

func mustReader(bs []arrow.RecordBatch) array.RecordReader {
	rr, err := array.NewRecordReader(bs[0].Schema(), bs)
	if err != nil {
		panic(err)
	}
	return rr
}

type failingReader struct {
	array.RecordReader
	after int
}

func (r *failingReader) Next() bool {
	if r.after == 0 {
		return false
	}
	r.after--
	return r.RecordReader.Next()
}

func (r *failingReader) Err() error {
	if r.after == 0 {
		return io.ErrUnexpectedEOF
	}
	return nil
}
