package arrowio_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/quiverio/quiver/arrowio"
)

// rowGroupSizes are the row counts of the row groups rowGroupFile writes:
// all different, one of a single row and one empty, so that a group read
// in place of another shows in the row count as well as in the values.
var rowGroupSizes = []int{5, 17, 1, 40, 0, 9}

// rowGroupFile writes, with pqarrow, one row group per entry of
// rowGroupSizes, holding rows of an int64 column "id" equal to the row's
// number in the file and a nullable string column "s" ("r<id>", null
// every fourth row). It returns the file and the whole table as one
// record, which the caller releases, and the first row of each group.
func rowGroupFile(t *testing.T) (file []byte, all arrow.RecordBatch, starts []int64) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	total := int64(0)
	for _, n := range rowGroupSizes {
		starts = append(starts, total)
		total += int64(n)
	}
	for id := range total {
		b.Field(0).(*array.Int64Builder).Append(id)
		if id%4 == 3 {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprint("r", id))
		}
	}
	all = b.NewRecordBatch()
	var buf bytes.Buffer
	// Small pages, so that the larger groups hold several.
	w, err := pqarrow.NewFileWriter(schema, &buf, parquet.NewWriterProperties(parquet.WithDataPageSize(64), parquet.WithBatchSize(8)),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	for g, n := range rowGroupSizes {
		// Write starts a row group on every call.
		part := all.NewSlice(starts[g], starts[g]+int64(n))
		err := w.Write(part)
		part.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), all, starts
}

// groupRows returns the rows of the listed row groups of all, group after
// group in the order listed, as one record the caller releases.
func groupRows(t *testing.T, all arrow.RecordBatch, starts []int64, groups []int) arrow.RecordBatch {
	t.Helper()
	cols := make([]arrow.Array, all.NumCols())
	rows := int64(0)
	for _, g := range groups {
		rows += int64(rowGroupSizes[g])
	}
	for c := range cols {
		parts := []arrow.Array{}
		for _, g := range groups {
			parts = append(parts, array.NewSlice(all.Column(c), starts[g], starts[g]+int64(rowGroupSizes[g])))
		}
		if len(parts) == 0 {
			parts = append(parts, array.NewSlice(all.Column(c), 0, 0))
		}
		col, err := array.Concatenate(parts, memory.DefaultAllocator)
		releaseAll(parts)
		if err != nil {
			t.Fatal(err)
		}
		cols[c] = col
	}
	defer releaseAll(cols)
	return array.NewRecordBatch(all.Schema(), cols, rows)
}

// TestRowGroupsSelectValues writes row groups of different sizes with
// pqarrow and reads a single group, several, a reordered list (the
// Reader visits ReadOptions.RowGroups in the order listed), the empty
// group and an empty (non-nil) selection, through ReadTable (one chunk
// per selected group, holding exactly that group's rows), RecordReader
// (batches that never span two groups and hold the expected rows in
// order) and ReadRowGroup (which reads any group, selected or not),
// sequentially and in parallel, comparing the values row for row.
func TestRowGroupsSelectValues(t *testing.T) {
	file, all, starts := rowGroupFile(t)
	defer all.Release()
	ctx := context.Background()

	rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rd.NumRowGroups() != len(rowGroupSizes) {
		t.Fatalf("file has %d row groups, want %d", rd.NumRowGroups(), len(rowGroupSizes))
	}
	for g, n := range rowGroupSizes {
		if got := rd.Metadata().RowGroups[g].NumRows; got != int64(n) {
			t.Fatalf("row group %d holds %d rows, want %d", g, got, n)
		}
	}
	rd.Close()

	selections := [][]int{
		nil, // every group, in file order
		{2},
		{3},
		{4},
		{1, 3, 5},
		{5, 0, 3},
		{3, 2, 1, 0},
		{0, 4, 2},
		{},
	}
	for _, sel := range selections {
		want := sel
		if sel == nil {
			want = []int{0, 1, 2, 3, 4, 5}
		}
		for _, par := range []int{1, 4} {
			desc := fmt.Sprintf("RowGroups %v, Parallelism %d", sel, par)
			t.Run(desc, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				exp := groupRows(t, all, starts, want)
				defer exp.Release()
				rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{RowGroups: sel, Allocator: mem, Parallelism: par, BatchSize: 4})
				if err != nil {
					t.Fatal(err)
				}
				defer rd.Close()

				tbl, err := rd.ReadTable(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if tbl.NumRows() != exp.NumRows() {
					t.Errorf("ReadTable: %d rows, want %d", tbl.NumRows(), exp.NumRows())
				}
				arrowiotest.CheckTable(t, "ReadTable", tbl, exp)
				for c := range int(tbl.NumCols()) {
					chunks := tbl.Column(c).Data().Chunks()
					if len(chunks) != len(want) {
						t.Errorf("ReadTable column %d: %d chunks, want one per selected group (%d)", c, len(chunks), len(want))
						continue
					}
					for k, g := range want {
						part := array.NewSlice(all.Column(c), starts[g], starts[g]+int64(rowGroupSizes[g]))
						if !array.Equal(chunks[k], part) {
							t.Errorf("ReadTable column %d chunk %d: %v, want row group %d: %v", c, k, chunks[k], g, part)
						}
						part.Release()
					}
				}
				tbl.Release()

				rr, err := rd.RecordReader(ctx)
				if err != nil {
					t.Fatal(err)
				}
				defer rr.Release()
				k, left := 0, 0 // the group the next batch comes from, its rows not yet returned
				row := int64(0)
				for rr.Next() {
					rec := rr.RecordBatch()
					for left == 0 && k < len(want) {
						left = rowGroupSizes[want[k]]
						k++
					}
					if int(rec.NumRows()) > min(left, 4) {
						t.Fatalf("RecordReader: a batch of %d rows at row %d, where group %d has %d left (BatchSize 4)", rec.NumRows(), row, want[k-1], left)
					}
					left -= int(rec.NumRows())
					for c := range int(rec.NumCols()) {
						part := array.NewSlice(exp.Column(c), row, row+rec.NumRows())
						if !array.Equal(rec.Column(c), part) {
							t.Errorf("RecordReader batch at row %d, column %d: %v, want %v", row, c, rec.Column(c), part)
						}
						part.Release()
					}
					row += rec.NumRows()
				}
				if err := rr.Err(); err != nil {
					t.Fatal(err)
				}
				if row != exp.NumRows() {
					t.Errorf("RecordReader: %d rows, want %d", row, exp.NumRows())
				}

				// ReadRowGroup ignores the selection: every group reads.
				for g := range rowGroupSizes {
					rec, err := rd.ReadRowGroup(ctx, g)
					if err != nil {
						t.Fatalf("ReadRowGroup(%d): %v", g, err)
					}
					one := groupRows(t, all, starts, []int{g})
					if rec.NumRows() != int64(rowGroupSizes[g]) {
						t.Errorf("ReadRowGroup(%d): %d rows, want %d", g, rec.NumRows(), rowGroupSizes[g])
					}
					for c := range int(rec.NumCols()) {
						if !array.Equal(rec.Column(c), one.Column(c)) {
							t.Errorf("ReadRowGroup(%d) column %d: %v, want %v", g, c, rec.Column(c), one.Column(c))
						}
					}
					one.Release()
					rec.Release()
				}
			})
		}
	}
}

// TestRowGroupsOutOfRange checks that a row group index past the last
// group or negative, in ReadOptions.RowGroups (even after valid ones) or
// given to ReadRowGroup, is an error naming that index, and that
// ReadRowGroup's error leaves the Reader usable.
func TestRowGroupsOutOfRange(t *testing.T) {
	file, all, _ := rowGroupFile(t)
	all.Release()
	n := len(rowGroupSizes)
	for _, sel := range [][]int{{n}, {-1}, {0, 2, 99}, {1, -7, 2}} {
		bad := sel[len(sel)-1]
		for _, g := range sel {
			if g < 0 || g >= n {
				bad = g
			}
		}
		rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{RowGroups: sel})
		if err == nil {
			rd.Close()
			t.Errorf("RowGroups %v: Open succeeded", sel)
			continue
		}
		if want := fmt.Sprintf("row group %d selected, the file has %d", bad, n); !strings.Contains(err.Error(), want) {
			t.Errorf("RowGroups %v: error %q does not say %q", sel, err, want)
		}
	}

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	for _, g := range []int{n, n + 100, -1} {
		rec, err := rd.ReadRowGroup(context.Background(), g)
		if err == nil {
			rec.Release()
			t.Errorf("ReadRowGroup(%d) succeeded", g)
			continue
		}
		if want := fmt.Sprintf("row group %d of %d", g, n); !strings.Contains(err.Error(), want) {
			t.Errorf("ReadRowGroup(%d): error %q does not say %q", g, err, want)
		}
	}
	rec, err := rd.ReadRowGroup(context.Background(), n-1)
	if err != nil {
		t.Fatalf("ReadRowGroup(%d) after the errors: %v", n-1, err)
	}
	defer rec.Release()
	if rec.NumRows() != int64(rowGroupSizes[n-1]) {
		t.Errorf("ReadRowGroup(%d): %d rows, want %d", n-1, rec.NumRows(), rowGroupSizes[n-1])
	}
}
