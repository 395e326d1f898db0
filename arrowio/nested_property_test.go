package arrowio_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/arrowio/internal/page"

	"github.com/quiverio/quiver/arrowio/internal/codec"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
	"github.com/quiverio/quiver/levels"
	"github.com/quiverio/quiver/levels/levelstest"
)

// nestedCase is one random file of the property tests: a record of random
// nested columns (sliced out of larger arrays) and the pqarrow file that
// holds it.
type nestedCase struct {
	rec  arrow.RecordBatch
	file []byte
}

// randNestedCase builds case c: one to three top-level fields of random
// nested types (depth up to 4: struct, list, large_list,
// fixed_size_list, map; nulls at every level, empty lists), rows sliced
// from arrays of random length, written by pqarrow with its schema stored,
// in row groups and pages of random size, dictionary on or off.
func randNestedCase(t *testing.T, mem memory.Allocator, c int) nestedCase {
	t.Helper()
	r := rand.New(rand.NewPCG(6, uint64(c)))
	fields := make([]arrow.Field, 1+r.IntN(3))
	for i := range fields {
		fields[i], _ = pqarrowWritable(arrow.Field{Name: fmt.Sprintf("c%d", i), Type: levelstest.RandType(r, 4, false), Nullable: r.IntN(3) != 0})
	}
	n := r.IntN(120)
	lo := r.IntN(n/4 + 1)
	hi := n - r.IntN(n/4+1)
	hi = max(hi, lo)
	groups := 1 + r.IntN(max(hi-lo, 1)+8)
	if slices.ContainsFunc(fields, func(f arrow.Field) bool { return holds(f.Type, arrow.FIXED_SIZE_LIST) }) {
		// pqarrow's writer reads a fixed-size list's child from its
		// first slot whatever the array's offset (and it slices the
		// record per row group), so such records go unsliced, whole.
		lo, hi, groups = 0, n, n+1
	}
	cols := make([]arrow.Array, len(fields))
	for i, f := range fields {
		a := levelstest.RandArray(r, mem, f, n, nil, false)
		cols[i] = array.NewSlice(a, int64(lo), int64(hi))
		a.Release()
	}
	schema := arrow.NewSchema(fields, nil)
	rec := array.NewRecordBatch(schema, cols, int64(hi-lo))
	for _, a := range cols {
		a.Release()
	}
	props := []parquet.WriterProperty{
		parquet.WithMaxRowGroupLength(int64(groups)),
		parquet.WithDataPageSize(int64(64 + r.IntN(4096))),
		parquet.WithDictionaryDefault(r.IntN(2) == 0),
		parquet.WithBatchSize(int64(1 + r.IntN(64))),
		parquet.WithAllocator(mem),
	}
	if r.IntN(2) == 0 {
		props = append(props, parquet.WithDataPageVersion(parquet.DataPageV2))
	}
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(schema, &buf, parquet.NewWriterProperties(props...),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithAllocator(mem)))
	if err != nil {
		rec.Release()
		t.Fatalf("pqarrow writer for %s: %v", schema, err)
	}
	if err := w.Write(rec); err != nil {
		rec.Release()
		t.Fatalf("pqarrow write of %s: %v", schema, err)
	}
	if err := w.Close(); err != nil {
		rec.Release()
		t.Fatalf("pqarrow close: %v", err)
	}
	return nestedCase{rec: rec, file: buf.Bytes()}
}

// pqarrowWritable returns f with the nulls pqarrow's writer rejects taken
// out: it refuses a null fixed-size list (a null list must be empty, and
// a fixed-size list's slot never is), so fixed-size lists, and the structs
// whose nulls would make theirs null, are made non-nullable; and it writes
// no string or binary views, which become string and binary. fixed
// reports whether f's slots hold a fixed-size list's.
func pqarrowWritable(f arrow.Field) (out arrow.Field, fixed bool) {
	switch t := f.Type.(type) {
	case *arrow.FixedSizeListType:
		e, _ := pqarrowWritable(t.ElemField())
		f.Type, f.Nullable = arrow.FixedSizeListOfField(t.Len(), e), false
		return f, true
	case *arrow.StructType:
		fs := make([]arrow.Field, t.NumFields())
		for i, c := range t.Fields() {
			var cf bool
			fs[i], cf = pqarrowWritable(c)
			fixed = fixed || cf
		}
		f.Type, f.Nullable = arrow.StructOf(fs...), f.Nullable && !fixed
		return f, fixed
	case *arrow.MapType:
		k, _ := pqarrowWritable(t.KeyField())
		v, _ := pqarrowWritable(t.ItemField())
		f.Type = arrow.MapOfFields(k, v)
	case *arrow.ListType:
		e, _ := pqarrowWritable(t.ElemField())
		f.Type = arrow.ListOfField(e)
	case *arrow.LargeListType:
		e, _ := pqarrowWritable(t.ElemField())
		f.Type = arrow.LargeListOfField(e)
	case *arrow.StringViewType: // pqarrow writes no views
		f.Type = arrow.BinaryTypes.String
	case *arrow.BinaryViewType:
		f.Type = arrow.BinaryTypes.Binary
	}
	return f, false
}

// holds reports whether dt, or a type nested in it, has one of ids.
func holds(dt arrow.DataType, ids ...arrow.Type) bool {
	if slices.Contains(ids, dt.ID()) {
		return true
	}
	switch t := dt.(type) {
	case *arrow.StructType:
		return slices.ContainsFunc(t.Fields(), func(f arrow.Field) bool { return holds(f.Type, ids...) })
	case *arrow.MapType:
		return holds(t.Elem(), ids...)
	case arrow.ListLikeType:
		return holds(t.Elem(), ids...)
	}
	return false
}

// nestedCases is the number of random files the property tests write.
func nestedCases() int {
	if testing.Short() {
		return 40
	}
	return 300
}

// TestNestedPropertyPqarrow writes random nested records with pqarrow and
// reads them with quiver, with ReadTable and with a RecordReader of random
// batch size: every column equals the record written, and no batch holds
// more rows than asked.
func TestNestedPropertyPqarrow(t *testing.T) {
	for c := range nestedCases() {
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			nc := randNestedCase(t, mem, c)
			defer nc.rec.Release()
			batch := 1 + rand.New(rand.NewPCG(7, uint64(c))).IntN(40)
			for _, bs := range []int{0, batch} {
				got := readNestedFile(t, mem, nc.file, bs)
				compareNested(t, nc.rec, got, bs)
				got.Release()
				checkReadMemory(t, fmt.Sprintf("batch %d", bs), func(mem memory.Allocator) (arrow.Table, error) {
					return readNestedFile(t, mem, nc.file, bs), nil
				})
			}
		})
	}
}

// readNestedFile reads file with quiver: with ReadTable when batch is 0,
// otherwise with a RecordReader of that batch size, checking that no
// batch exceeds it.
func readNestedFile(t *testing.T, mem memory.Allocator, file []byte, batch int) arrow.Table {
	t.Helper()
	rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Allocator: mem, BatchSize: batch, Parallelism: 1})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer rd.Close()
	if batch == 0 {
		tbl, err := rd.ReadTable(context.Background())
		if err != nil {
			t.Fatalf("ReadTable: %v", err)
		}
		return tbl
	}
	tbl, err := arrowiotest.ReadBatches(rd)
	if err != nil {
		t.Fatalf("RecordReader (batch %d): %v", batch, err)
	}
	if tbl.NumCols() > 0 {
		for _, b := range tbl.Column(0).Data().Chunks() { // a chunk per batch
			if b.Len() > batch {
				t.Errorf("batch of %d rows for BatchSize %d", b.Len(), batch)
			}
		}
	}
	return tbl
}

// compareNested checks that table got holds rec's columns, value for
// value (NaNs equal) and type for type.
func compareNested(t *testing.T, rec arrow.RecordBatch, got arrow.Table, batch int) {
	t.Helper()
	if got.NumRows() != rec.NumRows() || got.NumCols() != rec.NumCols() {
		t.Fatalf("batch %d: %d rows x %d columns, wrote %d x %d", batch, got.NumRows(), got.NumCols(), rec.NumRows(), rec.NumCols())
	}
	for i := range int(rec.NumCols()) {
		want := arrow.NewChunked(rec.Column(i).DataType(), []arrow.Array{rec.Column(i)})
		g := got.Column(i).Data()
		if !arrow.TypeEqual(g.DataType(), want.DataType()) {
			t.Errorf("batch %d: column %d: type %s, wrote %s", batch, i, g.DataType(), want.DataType())
		} else if !array.ChunkedApproxEqual(g, want, array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
			t.Errorf("batch %d: column %d (%s) differs\nquiver: %v\n wrote: %v", batch, i, want.DataType(), g.Chunks(), rec.Column(i))
		}
		want.Release()
	}
}

// TestNestedShredMatchesPqarrowLevels shreds the records of the property
// test with the levels package, using the plan quiver's reader derives
// from the written file, and compares each leaf's definition and
// repetition levels with the ones pqarrow wrote, read from the file's
// pages.
func TestNestedShredMatchesPqarrowLevels(t *testing.T) {
	for c := range nestedCases() {
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			nc := randNestedCase(t, mem, c)
			defer nc.rec.Release()
			rd, err := arrowio.Open(bytes.NewReader(nc.file), int64(len(nc.file)), arrowio.ReadOptions{Allocator: mem})
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer rd.Close()
			for i, col := range arrowio.FileOf(rd).Cols {
				if col.Nested == nil {
					continue
				}
				sh, err := levels.NewShredder(col.Nested.Node)
				if err != nil {
					t.Fatalf("column %d: shredder: %v", i, err)
				}
				cols, err := sh.Shred(mem, nc.rec.Column(i))
				if err != nil {
					t.Fatalf("column %d: shred: %v", i, err)
				}
				defer func() {
					for _, c := range cols {
						c.Values.Release()
					}
				}()
				for j, l := range col.Nested.Leaves {
					def, rep := writtenLevels(t, nc.file, rd, l.Node)
					if l.Node.MaxDef == 0 {
						// No definition levels on the page; the
						// shredder may give zeros, one per row.
						def = make([]int16, len(cols[j].Def))
					}
					if !slices.Equal(def, cols[j].Def) {
						t.Errorf("leaf %s: definition levels\nshredded: %v\n  pqarrow: %v", l.Node.DottedPath(), cols[j].Def, def)
					}
					if l.Node.MaxRep > 0 && !slices.Equal(rep, cols[j].Rep) {
						t.Errorf("leaf %s: repetition levels\nshredded: %v\n  pqarrow: %v", l.Node.DottedPath(), cols[j].Rep, rep)
					}
				}
			}
		})
	}
}

// writtenLevels decodes the definition and repetition levels of every
// data page of leaf in file, row group after row group.
func writtenLevels(t *testing.T, file []byte, rd *arrowio.Reader, leaf *footer.Node) (def, rep []int16) {
	t.Helper()
	var (
		dec kernels.RLEDecoder
		d   codec.Decompressor
		buf []byte
	)
	for rg, g := range rd.Metadata().RowGroups {
		if g.NumRows == 0 {
			continue // pqarrow writes an empty record's chunks without pages
		}
		md := g.Columns[leaf.Column].MetaData
		start, length, err := page.ChunkRange(md, int64(len(file)), false)
		if err != nil {
			t.Fatalf("row group %d: %v", rg, err)
		}
		it := page.Iterator{Data: file[start : start+length], Base: start}
		for {
			p, ok, err := it.Next()
			if err != nil {
				t.Fatalf("row group %d: %v", rg, err)
			}
			if !ok {
				break
			}
			if p.Header.Type == footer.PageTypeDictionary {
				continue
			}
			buf = slices.Grow(buf[:0], int(p.Header.UncompressedPageSize))
			dp, err := page.SplitData(&p, md.Codec, &d, buf, leaf.MaxDef, leaf.MaxRep)
			if err != nil {
				t.Fatalf("row group %d: %v", rg, err)
			}
			for _, s := range []struct {
				src []byte
				max int16
				out *[]int16
			}{{dp.DefLevels, leaf.MaxDef, &def}, {dp.RepLevels, leaf.MaxRep, &rep}} {
				if s.max == 0 {
					continue
				}
				at := len(*s.out)
				*s.out = append(*s.out, make([]int16, dp.NumValues)...)
				dec.Reset(s.src, levels.Width(s.max))
				if _, err := dec.DecodeLevels((*s.out)[at:], s.max); err != nil {
					t.Fatalf("row group %d: levels: %v", rg, err)
				}
			}
		}
	}
	return def, rep
}
