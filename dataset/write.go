package dataset

// This file holds the partitioned writer: record batches in, a tree of
// hive partition directories of Parquet files out.

import (
	"container/list"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
)

// Defaults of zero-valued [WriteOptions] fields.
const (
	DefaultFileName          = "part-{id}-{n}.parquet"
	DefaultMaxOpenWriteFiles = 64
	DefaultRowGroupRows      = 1 << 20
	DefaultWriteBufferBytes  = 256 << 20
)

// WriteOptions configures a [Writer].
type WriteOptions struct {
	// PartitionBy names the columns whose values make the directories
	// (key=value, in this order); they are left out of the files. Values
	// are written as Spark and DuckDB write them: %XX escapes for the
	// characters Spark escapes and for space, <, > and |, nulls as
	// __HIVE_DEFAULT_PARTITION__, dates as YYYY-MM-DD and timestamps as
	// "YYYY-MM-DD hh:mm:ss[.f]". Integer, float, bool, string, binary, date
	// and timestamp columns can partition, plain or as dictionaries or
	// run-end encoded.
	PartitionBy []string
	// MaxRowsPerFile starts a new file in a partition once its file holds
	// this many rows (0: no limit).
	MaxRowsPerFile int64
	// MaxBytesPerFile closes a partition's file once the bytes written to
	// it reach this size, so a file exceeds it by at most one row group
	// and its footer (0: no limit).
	MaxBytesPerFile int64
	// MaxOpenFiles bounds the files open at once; opening one more closes
	// (completes) the least recently written one, and that partition's
	// later rows go to a new file (0: DefaultMaxOpenWriteFiles).
	MaxOpenFiles int
	// FileName is the name template of the files: "{id}" becomes an id
	// random to each Writer, so that writers sharing directories never
	// collide, and "{n}" a number counting the Writer's files, which makes
	// names unique within it. It must hold "{n}" (0: DefaultFileName).
	FileName string
	// RowGroupRows is the number of rows a file gathers before writing
	// them as a row group, whatever the sizes of the batches written
	// (0: DefaultRowGroupRows, or File.MaxRowGroupRows when smaller).
	RowGroupRows int64
	// MaxBufferedBytes bounds the bytes of the batches gathered across the
	// open files; past it, the file gathering most writes its row group
	// early (0: DefaultWriteBufferBytes).
	MaxBufferedBytes int64
	// File holds the options of every file: codec and level (per column
	// too), page size and version, dictionary, encodings, statistics, page
	// index, bloom filters, CRCs, key-value metadata, encryption.
	File arrowio.WriteOptions
}

// WrittenFile describes a file a [Writer] completed.
type WrittenFile struct {
	Path       string
	Partitions []PartitionValue
	Rows       int64
	Bytes      int64
}

// Writer writes record batches as a hive-partitioned dataset under a root
// directory of a [Sink]. Each partition's rows go to its current file,
// gathered into row groups of RowGroupRows rows; a file appears, whole, at
// its final name only when it is complete (Sink.Create's Upload commits
// it), so readers never see a partial file. After an error or Abort the
// files still open are discarded; completed files stay.
//
// A Writer is not safe for concurrent use; several Writers may write the
// same root at once.
type Writer struct {
	ctx    context.Context
	sink   Sink
	root   string
	schema *arrow.Schema
	data   *arrow.Schema // schema minus the partition columns
	part   []int         // indices of the partition columns
	keep   []int         // indices of the data columns
	opts   WriteOptions
	id     string
	n      int
	open   map[string]*outFile
	lru    list.List // of *outFile, most recently written at the front
	queued int64     // bytes gathered across open files
	files  []WrittenFile
	err    error
	closed bool
}

// outFile is a file being written.
type outFile struct {
	dir     string // the partition directory, "" without partitions
	parts   []PartitionValue
	path    string
	up      Upload
	cw      *countingWriter
	w       *arrowio.Writer
	rows    int64 // rows written
	pending []arrow.RecordBatch
	prows   int64
	pbytes  int64
	elem    *list.Element
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// NewWriter returns a Writer of batches of schema under root in sink (nil
// means [Local]). ctx bounds every call: once it is cancelled, Write and
// Close discard the open files and return its error.
func NewWriter(ctx context.Context, sink Sink, root string, schema *arrow.Schema, opts WriteOptions) (*Writer, error) {
	if sink == nil {
		sink = Local
	}
	if opts.FileName == "" {
		opts.FileName = DefaultFileName
	}
	if !strings.Contains(opts.FileName, "{n}") || strings.Contains(opts.FileName, "/") {
		return nil, fmt.Errorf("dataset: file name template %q must hold {n} and no /", opts.FileName)
	}
	if opts.MaxOpenFiles <= 0 {
		opts.MaxOpenFiles = DefaultMaxOpenWriteFiles
	}
	if opts.RowGroupRows <= 0 {
		opts.RowGroupRows = DefaultRowGroupRows
		if m := opts.File.MaxRowGroupRows; m > 0 && m < opts.RowGroupRows {
			opts.RowGroupRows = m
		}
	}
	if m := opts.File.MaxRowGroupRows; m <= 0 || m > opts.RowGroupRows {
		// The file writer cuts row groups of RowGroupRows whatever the
		// sizes of the gathered writes.
		opts.File.MaxRowGroupRows = opts.RowGroupRows
	}
	if opts.MaxBufferedBytes <= 0 {
		opts.MaxBufferedBytes = DefaultWriteBufferBytes
	}
	w := &Writer{ctx: ctx, sink: sink, root: strings.TrimSuffix(root, "/"), schema: schema, opts: opts, open: make(map[string]*outFile)}
	var fields []arrow.Field
	for _, name := range opts.PartitionBy {
		idx := schema.FieldIndices(name)
		if len(idx) != 1 {
			return nil, fmt.Errorf("%w: PartitionBy names %q, which is not one column of %s", ErrPartition, name, schema)
		}
		w.part = append(w.part, idx[0])
	}
	for i, f := range schema.Fields() {
		if !contains(w.part, i) {
			w.keep = append(w.keep, i)
			fields = append(fields, f)
		}
	}
	if len(fields) == 0 {
		return nil, fmt.Errorf("%w: every column is a partition column", ErrPartition)
	}
	md := schema.Metadata()
	w.data = arrow.NewSchema(fields, &md)
	var rnd [8]byte
	rand.Read(rnd[:])
	w.id = hex.EncodeToString(rnd[:])
	return w, nil
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// Write adds the rows of rec, whose schema must be the Writer's. The
// Writer keeps references to slices of rec until their row groups are
// written; the caller may release rec at once. An error discards the
// open files, names the partition and file when it concerns one, and is
// returned by every later call.
func (w *Writer) Write(rec arrow.RecordBatch) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return fmt.Errorf("dataset: write after Close")
	}
	if err := w.ctx.Err(); err != nil {
		return w.fail(nil, err)
	}
	if !rec.Schema().Equal(w.schema) {
		return fmt.Errorf("%w: got %s, want %s", arrowio.ErrSchemaMismatch, rec.Schema(), w.schema)
	}
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	cols := make([]arrow.Array, len(w.keep))
	for i, c := range w.keep {
		cols[i] = rec.Column(c)
	}
	data := array.NewRecordBatch(w.data, cols, int64(n))
	defer data.Release()
	// Slices share their batch's buffers: count each row its share.
	perRow := float64(batchBytes(data)) / float64(n)
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && w.sameKey(rec, lo, hi) {
			hi++
		}
		dir, parts, err := w.partition(rec, lo)
		if err != nil {
			return w.fail(nil, err)
		}
		s := data.NewSlice(int64(lo), int64(hi))
		err = w.add(dir, parts, s, perRow)
		s.Release()
		if err != nil {
			return err
		}
		lo = hi
	}
	return nil
}

// sameKey reports whether rows i and j of rec have the same partition.
func (w *Writer) sameKey(rec arrow.RecordBatch, i, j int) bool {
	for _, c := range w.part {
		if !sameValue(rec.Column(c), i, j) {
			return false
		}
	}
	return true
}

// sameValue reports whether elements i and j of a are equal (both null
// included).
func sameValue(a arrow.Array, i, j int) bool {
	if a.IsNull(i) || a.IsNull(j) {
		return a.IsNull(i) == a.IsNull(j)
	}
	switch a := a.(type) {
	case *array.Dictionary:
		if a.GetValueIndex(i) == a.GetValueIndex(j) {
			return true
		}
		return sameValue(a.Dictionary(), a.GetValueIndex(i), a.GetValueIndex(j))
	case *array.RunEndEncoded:
		return sameValue(a.Values(), a.GetPhysicalIndex(i), a.GetPhysicalIndex(j))
	case *array.Int64:
		return a.Value(i) == a.Value(j)
	case *array.Int32:
		return a.Value(i) == a.Value(j)
	case *array.Date32:
		return a.Value(i) == a.Value(j)
	case *array.String:
		return a.Value(i) == a.Value(j)
	case *array.LargeString:
		return a.Value(i) == a.Value(j)
	}
	x, _, _ := formatValue(a, i)
	y, _, _ := formatValue(a, j)
	return x == y
}

// partition returns the directory of row i's partition and its values.
func (w *Writer) partition(rec arrow.RecordBatch, i int) (string, []PartitionValue, error) {
	var dir strings.Builder
	parts := make([]PartitionValue, len(w.part))
	for k, c := range w.part {
		name := w.schema.Field(c).Name
		v, ok, err := formatValue(rec.Column(c), i)
		if err != nil {
			return "", nil, fmt.Errorf("column %q: %w", name, err)
		}
		if k > 0 {
			dir.WriteByte('/')
		}
		dir.WriteString(escapePart(name))
		dir.WriteByte('=')
		if ok {
			dir.WriteString(escapePart(v))
			parts[k] = PartitionValue{Key: name, Value: v}
		} else {
			dir.WriteString(HiveDefaultPartition)
			parts[k] = PartitionValue{Key: name, Null: true}
		}
	}
	return dir.String(), parts, nil
}

// add gathers s, rows of partition dir of about perRow bytes each, into
// its file.
func (w *Writer) add(dir string, parts []PartitionValue, s arrow.RecordBatch, perRow float64) error {
	rows := s.NumRows()
	for off := int64(0); off < rows; {
		f, err := w.file(dir, parts)
		if err != nil {
			return err
		}
		take := rows - off
		if m := w.opts.MaxRowsPerFile; m > 0 {
			take = min(take, m-f.rows-f.prows)
		}
		part := s
		if off > 0 || take < rows {
			part = s.NewSlice(off, off+take)
		} else {
			part.Retain()
		}
		size := int64(float64(take) * perRow)
		f.pending = append(f.pending, part)
		f.prows += take
		f.pbytes += size
		w.queued += size
		off += take
		if f.prows >= w.opts.RowGroupRows {
			if err := w.flush(f, false); err != nil {
				return err
			}
		}
		if err := w.finishFull(f); err != nil {
			return err
		}
	}
	for w.queued > w.opts.MaxBufferedBytes {
		var big *outFile
		for _, f := range w.open {
			if big == nil || f.pbytes > big.pbytes {
				big = f
			}
		}
		if err := w.flush(big, true); err != nil {
			return err
		}
		if err := w.finishFull(big); err != nil {
			return err
		}
	}
	return nil
}

// finishFull finishes f when it holds MaxRowsPerFile rows or
// MaxBytesPerFile bytes.
func (w *Writer) finishFull(f *outFile) error {
	if m := w.opts.MaxRowsPerFile; m > 0 && f.rows+f.prows >= m {
		return w.finish(f)
	}
	if m := w.opts.MaxBytesPerFile; m > 0 && f.cw.n >= m {
		return w.finish(f)
	}
	return nil
}

// file returns the open file of partition dir, opening one when there is
// none (and closing the least recently written file if as many as
// MaxOpenFiles are open).
func (w *Writer) file(dir string, parts []PartitionValue) (*outFile, error) {
	if f := w.open[dir]; f != nil {
		w.lru.MoveToFront(f.elem)
		return f, nil
	}
	if len(w.open) >= w.opts.MaxOpenFiles {
		if err := w.finish(w.lru.Back().Value.(*outFile)); err != nil {
			return nil, err
		}
	}
	name := strings.ReplaceAll(strings.ReplaceAll(w.opts.FileName, "{id}", w.id), "{n}", strconv.Itoa(w.n))
	w.n++
	p := name
	if dir != "" {
		p = dir + "/" + name
	}
	if w.root != "" {
		p = w.root + "/" + p
	}
	f := &outFile{dir: dir, parts: parts, path: p}
	up, err := w.sink.Create(w.ctx, p)
	if err != nil {
		return nil, w.fail(f, err)
	}
	f.up = up
	f.cw = &countingWriter{w: up}
	if f.w, err = arrowio.NewWriter(f.cw, w.data, w.opts.File); err != nil {
		up.Abort()
		f.up = nil
		return nil, w.fail(f, err)
	}
	f.elem = w.lru.PushFront(f)
	w.open[dir] = f
	return f, nil
}

// flush hands f's gathered rows to its file writer, which cuts them into
// row groups of RowGroupRows; end closes the row group they leave open,
// to free the memory it holds early.
func (w *Writer) flush(f *outFile, end bool) error {
	if len(f.pending) == 0 {
		return nil
	}
	rec := f.pending[0]
	if len(f.pending) > 1 {
		var err error
		if rec, err = concatBatches(w.data, f.pending); err != nil {
			return w.fail(f, err)
		}
	} else {
		rec.Retain()
	}
	for _, b := range f.pending {
		b.Release()
	}
	f.pending = f.pending[:0]
	w.queued -= f.pbytes
	f.rows += f.prows
	f.prows, f.pbytes = 0, 0
	err := f.w.Write(rec)
	rec.Release()
	if err == nil && end {
		err = f.w.Flush()
	}
	if err != nil {
		return w.fail(f, err)
	}
	return nil
}

// concatBatches joins batches of schema s into one.
func concatBatches(s *arrow.Schema, bs []arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, s.NumFields())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	var rows int64
	parts := make([]arrow.Array, len(bs))
	for i := range cols {
		for j, b := range bs {
			parts[j] = b.Column(i)
		}
		c, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			return nil, err
		}
		cols[i] = c
	}
	for _, b := range bs {
		rows += b.NumRows()
	}
	return array.NewRecordBatch(s, cols, rows), nil
}

// finish completes f: its last row group, its footer, and the commit that
// makes it appear.
func (w *Writer) finish(f *outFile) error {
	if err := w.flush(f, false); err != nil {
		return err
	}
	w.drop(f)
	if err := f.w.Close(); err != nil {
		f.up.Abort()
		return w.fail(f, err)
	}
	if err := f.up.Commit(); err != nil {
		return w.fail(nil, fmt.Errorf("%s (partition %s): commit: %w", f.path, f.partText(), err))
	}
	w.files = append(w.files, WrittenFile{Path: f.path, Partitions: f.parts, Rows: f.rows, Bytes: f.cw.n})
	return nil
}

// drop forgets open file f.
func (w *Writer) drop(f *outFile) {
	if w.open[f.dir] == f {
		delete(w.open, f.dir)
		w.lru.Remove(f.elem)
	}
	for _, b := range f.pending {
		b.Release()
	}
	w.queued -= f.pbytes
	f.pending, f.prows, f.pbytes = nil, 0, 0
}

func (f *outFile) partText() string {
	if f.dir == "" {
		return "none"
	}
	return f.dir
}

// fail discards every open file and sets and returns the Writer's error:
// err, naming f's file and partition when f is not nil.
func (w *Writer) fail(f *outFile, err error) error {
	if f != nil {
		err = fmt.Errorf("%s (partition %s): %w", f.path, f.partText(), err)
	}
	var aborted []string
	for e := w.lru.Front(); e != nil; e = e.Next() {
		o := e.Value.(*outFile)
		aborted = append(aborted, o.path)
		o.up.Abort()
	}
	for _, o := range w.open {
		w.drop(o)
	}
	if len(aborted) > 0 && f == nil {
		err = fmt.Errorf("%w (discarded unfinished %s)", err, strings.Join(aborted, ", "))
	}
	w.err = fmt.Errorf("dataset: write: %w", err)
	return w.err
}

// Close completes every open file, in the order they were opened, and
// returns the first error (which discards the files not yet complete).
// Closing again returns the same result.
func (w *Writer) Close() error {
	if w.closed || w.err != nil {
		return w.err
	}
	w.closed = true
	if err := w.ctx.Err(); err != nil {
		return w.fail(nil, err)
	}
	for w.lru.Len() > 0 {
		if err := w.finish(w.lru.Back().Value.(*outFile)); err != nil {
			return err
		}
	}
	return nil
}

// Abort discards the open files; the files already complete stay.
func (w *Writer) Abort() {
	if w.err == nil && !w.closed {
		w.fail(nil, errors.New("aborted"))
	}
	w.closed = true
}

// Files returns the files completed so far, in the order they were.
func (w *Writer) Files() []WrittenFile { return append([]WrittenFile(nil), w.files...) }

// Write writes every batch of rr under root in sink (nil means [Local])
// with a [Writer] and closes it; it returns the files written. On an error
// (a failed read of rr included) or cancellation the open files are
// discarded, and the files already complete are returned with the error.
func Write(ctx context.Context, sink Sink, root string, rr array.RecordReader, opts WriteOptions) ([]WrittenFile, error) {
	w, err := NewWriter(ctx, sink, root, rr.Schema(), opts)
	if err != nil {
		return nil, err
	}
	for rr.Next() {
		if err := w.Write(rr.RecordBatch()); err != nil {
			return w.Files(), err
		}
	}
	if err := rr.Err(); err != nil {
		w.Abort()
		return w.Files(), fmt.Errorf("dataset: write: reading the batches: %w", err)
	}
	err = w.Close()
	return w.Files(), err
}
