package bench

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	parquetgo "github.com/parquet-go/parquet-go"
	"github.com/quiverio/quiver/arrowio"
)

// all selects every row group in a reader call; allColumns every column.
const (
	all        = -1
	allColumns = ""
)

// reader is one implementation that reads a Parquet file into memory in
// its own columnar form and returns the rows it read: column col (a
// top-level column of a flat schema, so also a leaf) or [allColumns], of
// row group rg or of [all] row groups.
type reader struct {
	name string
	read func(path, col string, rg int) (int64, error)
	// whole reports that the reader only reads whole files (col and rg
	// always all).
	whole bool
}

var readers = []reader{
	{name: "quiver", read: quiverReader(arrowio.ReadOptions{Parallelism: 1})},
	{name: "quiver-recycling", read: quiverReader(arrowio.ReadOptions{Parallelism: 1, Allocator: recycling})},
	{name: "quiver-mmap", read: quiverReader(arrowio.ReadOptions{Parallelism: 1, MemoryMap: true})},
	{name: "quiver-parallel", read: quiverReader(arrowio.ReadOptions{})},
	{name: "quiver-stream", read: quiverStreamReader(nil)},
	{name: "quiver-stream-recycling", read: quiverStreamReader(recycling)},
	{name: "pqarrow", read: func(path, col string, rg int) (int64, error) { return readPqarrow(path, col, rg, false, false) }},
	{name: "pqarrow-mmap", read: func(path, col string, rg int) (int64, error) { return readPqarrow(path, col, rg, false, true) }},
	{name: "pqarrow-parallel", read: func(path, col string, rg int) (int64, error) { return readPqarrow(path, col, rg, true, false) }},
	{name: "pqarrow-stream", read: readPqarrowStream},
	{name: "parquetgo", read: readParquetGo},
	{name: "parquetgo-table", read: readParquetGoTable},
	{name: "floor", read: readFloor, whole: true},
}

// recycling is the opt-in allocator of the quiver readers named
// -recycling (arrowio.NewRecyclingAllocator), one for all their reads as
// in a program that reads file after file: each read takes the buffers of
// the tables and batches released before it, where the default allocator
// leaves them to the garbage collector.
var recycling = arrowio.NewRecyclingAllocator()

// openQuiver opens path with quiver's arrowio reader, BatchSize 65536 and
// opts (the default allocator unless opts name one), selecting column col
// unless it is allColumns.
func openQuiver(path, col string, opts arrowio.ReadOptions) (*arrowio.Reader, error) {
	opts.BatchSize = 65536
	if col != allColumns {
		opts.Columns = []string{col}
	}
	return arrowio.OpenFile(path, opts)
}

// quiverReader returns the read of a reader that reads the selection into
// Arrow with quiver's arrowio reader (openQuiver with opts): ReadTable,
// or ReadRowGroup for one row group, the result released before it
// returns.
func quiverReader(opts arrowio.ReadOptions) func(path, col string, rg int) (int64, error) {
	return func(path, col string, rg int) (int64, error) { return readQuiver(path, col, rg, opts) }
}

// readQuiver is quiverReader's read.
func readQuiver(path, col string, rg int, opts arrowio.ReadOptions) (int64, error) {
	r, err := openQuiver(path, col, opts)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	if rg != all {
		rec, err := r.ReadRowGroup(context.Background(), rg)
		if err != nil {
			return 0, err
		}
		defer rec.Release()
		return rec.NumRows(), nil
	}
	tbl, err := r.ReadTable(context.Background())
	if err != nil {
		return 0, err
	}
	defer tbl.Release()
	return tbl.NumRows(), nil
}

// quiverStreamReader returns the read of a reader that streams the
// selection through quiver's RecordReader (openQuiver, one goroutine,
// memory from mem, nil for the default allocator), releasing each batch
// before the next, as a query engine consuming batches does: the like of
// parquet-go's columnar path, which reads values into reused buffers.
func quiverStreamReader(mem memory.Allocator) func(path, col string, rg int) (int64, error) {
	return func(path, col string, rg int) (int64, error) { return readQuiverStream(path, col, rg, mem) }
}

// readQuiverStream is quiverStreamReader's read.
func readQuiverStream(path, col string, rg int, mem memory.Allocator) (int64, error) {
	opts := arrowio.ReadOptions{Parallelism: 1, Allocator: mem}
	if rg != all {
		opts.RowGroups = []int{rg}
	}
	r, err := openQuiver(path, col, opts)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	rr, err := r.RecordReader(context.Background())
	if err != nil {
		return 0, err
	}
	return drainBatches(rr)
}

// drainBatches reads every batch of rr, releases it and returns the rows read.
func drainBatches(rr array.RecordReader) (int64, error) {
	defer rr.Release()
	var rows int64
	for rr.Next() {
		rows += rr.RecordBatch().NumRows()
	}
	return rows, rr.Err()
}

// readPqarrowStream streams the selection through pqarrow's RecordReader
// (BatchSize 65536, serial, Go allocator), each batch released by the
// reader before the next.
func readPqarrowStream(path, col string, rg int) (int64, error) {
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return 0, err
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 65536}, memory.DefaultAllocator)
	if err != nil {
		return 0, err
	}
	leaf := all
	if col != allColumns {
		if leaf = rdr.MetaData().Schema.ColumnIndexByName(col); leaf < 0 {
			return 0, fmt.Errorf("pqarrow: no column %q", col)
		}
	}
	rr, err := fr.GetRecordReader(context.Background(), pick(leaf, rdr.MetaData().Schema.NumColumns()), pick(rg, rdr.NumRowGroups()))
	if err != nil {
		return 0, err
	}
	return drainBatches(rr)
}

// readPqarrow reads the selection into an arrow.Table with pqarrow
// (BatchSize 65536, Go allocator), serially or with Parallel set, from the
// file or (mmap) from its memory mapping.
func readPqarrow(path, col string, rg int, parallel, mmap bool) (int64, error) {
	rdr, err := file.OpenParquetFile(path, mmap)
	if err != nil {
		return 0, err
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 65536, Parallel: parallel}, memory.DefaultAllocator)
	if err != nil {
		return 0, err
	}
	var tbl arrow.Table
	if col == allColumns && rg == all {
		tbl, err = fr.ReadTable(context.Background())
	} else {
		leaf := all
		if col != allColumns {
			if leaf = rdr.MetaData().Schema.ColumnIndexByName(col); leaf < 0 {
				return 0, fmt.Errorf("pqarrow: no column %q", col)
			}
		}
		tbl, err = fr.ReadRowGroups(context.Background(), pick(leaf, rdr.MetaData().Schema.NumColumns()), pick(rg, rdr.NumRowGroups()))
	}
	if err != nil {
		return 0, err
	}
	defer tbl.Release()
	return tbl.NumRows(), nil
}

// pick returns []int{i}, or 0..n-1 when i is all.
func pick(i, n int) []int {
	if i != all {
		return []int{i}
	}
	s := make([]int, n)
	for j := range s {
		s[j] = j
	}
	return s
}

// readParquetGo reads the selection with parquet-go's columnar API: every
// page of every selected column chunk, its values read through the typed
// reader the page offers (ReadInt64s, ReadDoubles, ReadByteArrays, ...) or
// else ReadValues, into buffers reused across pages. It checks that the
// values read add up to the column chunks' value counts.
func readParquetGo(path, col string, rg int) (int64, error) {
	return readParquetGoInto(path, col, rg, &pgBuffers{})
}

// readParquetGoTable reads the selection as readParquetGo does, but into
// memory that holds all of it when the read ends, as a whole-table read
// does: each column chunk's values go straight into a slice of the
// chunk's value count (byte arrays into one buffer per chunk, grown as
// they arrive), and every slice is kept until the last chunk is read.
// Pages are released and reused as in readParquetGo, except those read
// through ReadValues (nullable columns), which are kept with the values
// that point into them.
func readParquetGoTable(path, col string, rg int) (int64, error) {
	return readParquetGoInto(path, col, rg, &pgBuffers{whole: true})
}

// readParquetGoInto is readParquetGo reading values into bufs.
func readParquetGoInto(path, col string, rg int, bufs *pgBuffers) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	pf, err := parquetgo.OpenFile(f, st.Size())
	if err != nil {
		return 0, err
	}
	var leaves []int
	if col != allColumns {
		lc, ok := pf.Schema().Lookup(col)
		if !ok {
			return 0, fmt.Errorf("parquetgo: no column %q", col)
		}
		leaves = []int{lc.ColumnIndex}
	}
	return readParquetGoFile(pf, leaves, rg, bufs)
}

// readParquetGoFile reads the leaf columns leaves (nil: all) of row group
// rg (or all) of the opened file pf into bufs, as readParquetGoInto does.
func readParquetGoFile(pf *parquetgo.File, leaves []int, rg int, bufs *pgBuffers) (int64, error) {
	var rows int64
	for i, g := range pf.RowGroups() {
		if rg != all && i != rg {
			continue
		}
		rows += g.NumRows()
		for j, cc := range g.ColumnChunks() {
			if leaves != nil && !slices.Contains(leaves, j) {
				continue
			}
			n, err := bufs.readChunk(cc)
			if err != nil {
				return 0, fmt.Errorf("row group %d column %d: %w", i, j, err)
			}
			if n != cc.NumValues() {
				return 0, fmt.Errorf("row group %d column %d: read %d values, chunk has %d", i, j, n, cc.NumValues())
			}
		}
	}
	return rows, nil
}

// pgBuffers are the typed buffers readParquetGo reads values into.
type pgBuffers struct {
	bools  []bool
	i32    []int32
	i64    []int64
	f32    []float32
	f64    []float64
	bytes  []byte
	values []parquetgo.Value

	// whole gives each column chunk buffers of its own, sized for all of
	// its values, and keeps them (in kept) instead of reusing them: the
	// values of the chunk being read go to its buffers from index at
	// (byte offset at for byte arrays), of which size values fit.
	whole    bool
	kept     []any
	at, size int
}

const pgBatch = 4096

// retire moves the buffers of the chunk read last, if any, to b.kept,
// byte buffers cut to the bytes read.
func (b *pgBuffers) retire() {
	if b.bytes != nil {
		b.bytes = b.bytes[:b.at]
	}
	b.kept = append(b.kept, b.bools, b.i32, b.i64, b.f32, b.f64, b.bytes, b.values)
	*b = pgBuffers{whole: true, kept: b.kept}
}

// readChunk reads every value of cc and returns how many it read.
func (b *pgBuffers) readChunk(cc parquetgo.ColumnChunk) (int64, error) {
	if b.whole {
		b.retire()
		b.size = int(cc.NumValues())
	}
	pages := cc.Pages()
	defer pages.Close()
	var n int64
	for {
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		k, err := b.readPage(p)
		if b.whole && b.values != nil {
			b.kept = append(b.kept, p) // the values read point into the page
		} else {
			parquetgo.Release(p)
		}
		n += k
		if err != nil {
			return n, err
		}
	}
}

func (b *pgBuffers) readPage(p parquetgo.Page) (int64, error) {
	switch r := p.Values().(type) {
	case parquetgo.BooleanReader:
		return readTyped(b, &b.bools, r.ReadBooleans)
	case parquetgo.Int32Reader:
		return readTyped(b, &b.i32, r.ReadInt32s)
	case parquetgo.Int64Reader:
		return readTyped(b, &b.i64, r.ReadInt64s)
	case parquetgo.FloatReader:
		return readTyped(b, &b.f32, r.ReadFloats)
	case parquetgo.DoubleReader:
		return readTyped(b, &b.f64, r.ReadDoubles)
	case parquetgo.ByteArrayReader:
		return b.readByteArrays(r)
	case parquetgo.FixedLenByteArrayReader:
		if b.whole {
			if b.bytes == nil {
				b.bytes = make([]byte, b.size*p.Type().Length())
			}
			return drain(func() (int, error) {
				n, err := r.ReadFixedLenByteArrays(b.bytes[b.at:])
				b.at += n * p.Type().Length()
				return n, err
			})
		}
		b.bytes = grow(b.bytes, 64<<10)
		return drain(func() (int, error) { return r.ReadFixedLenByteArrays(b.bytes) })
	default:
		return readTyped(b, &b.values, r.ReadValues)
	}
}

// readTyped reads a page's values with read into *buf: again and again
// into its first pgBatch values, or with b.whole after the chunk's values
// read so far, in a buffer of all of them.
func readTyped[T any](b *pgBuffers, buf *[]T, read func([]T) (int, error)) (int64, error) {
	if !b.whole {
		*buf = grow(*buf, pgBatch)
		return drain(func() (int, error) { return read(*buf) })
	}
	if *buf == nil {
		*buf = make([]T, b.size)
	}
	return drain(func() (int, error) {
		if b.at == len(*buf) {
			return 0, fmt.Errorf("parquetgo: page holds more than the chunk's %d values", b.size)
		}
		n, err := read((*buf)[b.at:])
		b.at += n
		return n, err
	})
}

// readByteArrays reads a page's byte arrays (each after its 4-byte
// length, as parquet-go writes them): again and again into one reused
// buffer, or with b.whole after the chunk's bytes read so far, in a buffer
// grown to twice its size whenever the next value does not fit.
func (b *pgBuffers) readByteArrays(r parquetgo.ByteArrayReader) (int64, error) {
	if !b.whole {
		b.bytes = grow(b.bytes, 64<<10)
		return drain(func() (int, error) {
			n, err := r.ReadByteArrays(b.bytes)
			if errors.Is(err, io.ErrShortBuffer) {
				b.bytes = make([]byte, 2*len(b.bytes))
				err = nil
			}
			return n, err
		})
	}
	if b.bytes == nil {
		b.bytes = make([]byte, 1<<20)
	}
	return drain(func() (int, error) {
		n, err := r.ReadByteArrays(b.bytes[b.at:])
		for range n {
			b.at += 4 + int(binary.LittleEndian.Uint32(b.bytes[b.at:]))
		}
		if errors.Is(err, io.ErrShortBuffer) || n == 0 && err == nil { // the next value does not fit
			grown := make([]byte, 2*len(b.bytes))
			copy(grown, b.bytes[:b.at])
			b.bytes, err = grown, nil
		}
		return n, err
	})
}

// drain calls read until it returns io.EOF and sums the values it read.
func drain(read func() (int, error)) (int64, error) {
	var total int64
	for {
		n, err := read()
		total += int64(n)
		if errors.Is(err, io.EOF) {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// grow returns s, lengthened to n elements if shorter, when its capacity
// holds n, else a new slice of n. Capacity, not length: the floor reslices
// its buffers to each chunk, and a buffer cut to a small chunk must not be
// replaced when a larger one follows.
func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:max(len(s), n)]
	}
	return make([]T, n)
}
