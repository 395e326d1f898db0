package arrowio_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/levels/levelstest"
)

// TestNestedWriteRoundTrip writes random nested records (depth up to 4,
// every container kind including list views, nulls at every level, null
// lists over child slots of garbage, sliced input) with quiver's Writer in
// pages and row groups of random size, and reads them back with quiver
// and, where pqarrow reads the types, with pqarrow: both equal the record.
func TestNestedWriteRoundTrip(t *testing.T) {
	cases := nestedCases()
	for c := range cases {
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			r := rand.New(rand.NewPCG(9, uint64(c)))
			fields := make([]arrow.Field, 1+r.IntN(3))
			for i := range fields {
				fields[i] = arrow.Field{Name: fmt.Sprintf("c%d", i), Type: levelstest.RandType(r, 4, true), Nullable: r.IntN(3) != 0}
			}
			n := r.IntN(120)
			lo := r.IntN(n/4 + 1)
			hi := max(lo, n-r.IntN(n/4+1))
			cols := make([]arrow.Array, len(fields))
			for i, f := range fields {
				a := levelstest.RandArray(r, mem, f, n, nil, true)
				cols[i] = array.NewSlice(a, int64(lo), int64(hi))
				a.Release()
			}
			rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(hi-lo))
			for _, a := range cols {
				a.Release()
			}
			defer rec.Release()
			opts := arrowio.WriteOptions{
				DataPageSize:      64 + r.IntN(2048),
				MaxRowGroupRows:   int64(1 + r.IntN(hi-lo+8)),
				DisableDictionary: r.IntN(2) == 0,
				Compression:       footer.CodecSnappy,
				Parallelism:       1 + r.IntN(2),
			}
			if r.IntN(2) == 0 {
				opts.PageVersion = arrowio.PageV2
			}
			var buf bytes.Buffer
			w, err := arrowio.NewWriter(&buf, rec.Schema(), opts)
			if err != nil {
				t.Fatalf("NewWriter(%s): %v", rec.Schema(), err)
			}
			if err := w.Write(rec); err != nil {
				t.Fatalf("Write: %v", err)
			}
			if err := w.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			for _, bs := range []int{0, 1 + r.IntN(30)} {
				got := readNestedFile(t, mem, buf.Bytes(), bs)
				compareNested(t, rec, got, bs)
				got.Release()
			}
			if slices.ContainsFunc(fields, func(f arrow.Field) bool {
				// pqarrow does not read list views back as such.
				return holds(f.Type, arrow.LIST_VIEW, arrow.LARGE_LIST_VIEW, arrow.FIXED_SIZE_LIST)
			}) {
				// pqarrow reads list views as lists, and fails on a null
				// fixed-size list ("expected all lists to be of size").
				return
			}
			pq, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("pqarrow cannot open quiver's file: %v", err)
			}
			defer pq.Close()
			fr, err := pqarrow.NewFileReader(pq, pqarrow.ArrowReadProperties{}, mem)
			if err != nil {
				t.Fatalf("pqarrow: %v", err)
			}
			tbl, err := fr.ReadTable(context.Background())
			if err != nil {
				t.Fatalf("pqarrow cannot read quiver's file: %v", err)
			}
			defer tbl.Release()
			for i := range int(tbl.NumCols()) {
				// pqarrow adds field ids to the fields: compare by value.
				g, ok := asTypeOf(tbl.Column(i).Data(), rec.Column(i).DataType())
				if !ok && holds(rec.Column(i).DataType(), arrow.STRING_VIEW, arrow.BINARY_VIEW) {
					// pqarrow reads string and binary views back as
					// string and binary, which print the same.
					g, ok = tbl.Column(i).Data(), true
					g.Retain()
				}
				if !ok {
					t.Errorf("pqarrow: column %d: type %s, wrote %s", i, tbl.Column(i).DataType(), rec.Column(i).DataType())
					continue
				}
				// pqarrow fills the children of a null struct with
				// values where the record (and quiver) has nulls, which
				// array.Equal sees: compare the rows as printed.
				if gs, ws := rowStrings(g.Chunks()), rowStrings([]arrow.Array{rec.Column(i)}); !slices.Equal(gs, ws) {
					t.Errorf("pqarrow: column %d differs\npqarrow: %v\n  wrote: %v", i, gs, ws)
				}
				g.Release()
			}
		})
	}
}

// rowStrings prints each row of the arrays, one after another.
func rowStrings(arrs []arrow.Array) []string {
	var out []string
	for _, a := range arrs {
		for i := range a.Len() {
			sl := array.NewSlice(a, int64(i), int64(i+1))
			out = append(out, sl.String())
			sl.Release()
		}
	}
	return out
}
