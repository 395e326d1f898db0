package arrowio_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/pageindex"
)

// TestFilterWithNestedColumns filters a file whose projected columns
// include a list and a struct (read by their leaves' pages that hold the
// selected rows) by a flat column and by a field of the struct, and
// compares every row with a brute-force filter.
func TestFilterWithNestedColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "pt", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true}), Nullable: true},
	}, nil)
	rng := rand.New(rand.NewPCG(6, 6))
	b := array.NewRecordBuilder(mem, schema)
	for i := range 3000 {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		lb := b.Field(1).(*array.ListBuilder)
		if rng.IntN(8) == 0 {
			lb.AppendNull()
		} else {
			lb.Append(true)
			for range rng.IntN(4) {
				lb.ValueBuilder().(*array.StringBuilder).Append(fmt.Sprint("t", rng.IntN(9)))
			}
		}
		sb := b.Field(2).(*array.StructBuilder)
		if rng.IntN(8) == 0 {
			sb.AppendNull()
		} else {
			sb.Append(true)
			sb.FieldBuilder(0).(*array.Int32Builder).Append(int32(i % 100))
		}
	}
	rec := b.NewRecordBatch()
	b.Release()
	files := map[string][]byte{
		"quiver":   arrowiotest.WriteFile(t, schema, arrowio.WriteOptions{DataPageRows: 128, MaxRowGroupRows: 1000}, rec),
		"arrow-go": writeArrowGo(t, rec, 1000),
	}
	rec.Release()
	for writer, file := range files {
		t.Run(writer, func(t *testing.T) { checkNestedFilters(t, mem, file) })
	}
}

// checkNestedFilters compares filtered reads of file, whose first column
// is id, with brute-force filters.
func checkNestedFilters(t *testing.T, mem memory.Allocator, file []byte) {
	preds := []pageindex.Predicate{
		pageindex.Eq("id", pageindex.Int(1234)),
		pageindex.Or(pageindex.Less("id", pageindex.Int(40)), pageindex.In("id", pageindex.Int(999), pageindex.Int(2500))),
		pageindex.And(pageindex.GreaterEq("id", pageindex.Int(700)), pageindex.Less("id", pageindex.Int(2100))),
		pageindex.Eq("id", pageindex.Int(-5)),
	}
	rng := rand.New(rand.NewPCG(uint64(len(file)), 3))
	for range 12 {
		lo := int64(rng.IntN(3000))
		preds = append(preds, pageindex.Or(pageindex.And(pageindex.GreaterEq("id", pageindex.Int(lo)), pageindex.Less("id", pageindex.Int(lo+int64(rng.IntN(300))))),
			pageindex.In("id", pageindex.Int(int64(rng.IntN(3000))), pageindex.Int(int64(rng.IntN(3000))))))
	}
	for _, p := range preds {
		got, want := filteredRows(t, file, arrowio.ReadOptions{Filter: p, Allocator: mem}), bruteForce(t, file, p)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: got %d rows, want %d:\n%q\n%q", p, len(got), len(want), got, want)
		}
	}
	for _, p := range []pageindex.Predicate{
		pageindex.Eq("pt.x", pageindex.Int(3)),
		pageindex.IsNull("pt.x"),
		pageindex.Not(pageindex.Less("pt.x", pageindex.Int(50))),
		pageindex.And(pageindex.Less("id", pageindex.Int(900)), pageindex.In("pt.x", pageindex.Int(7), pageindex.Int(8))),
	} {
		want := bruteForce(t, file, p)
		if got := filteredRows(t, file, arrowio.ReadOptions{Filter: p, Allocator: mem}); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: got %d rows, want %d", p, len(got), len(want))
		}
		// Not projected: only the ids of the same rows come back.
		var ids []string
		for _, row := range want {
			ids = append(ids, strings.SplitN(row, "|", 2)[0]+"|")
		}
		if got := filteredRows(t, file, arrowio.ReadOptions{Filter: p, Allocator: mem, Columns: []string{"id"}}); fmt.Sprint(got) != fmt.Sprint(ids) {
			t.Fatalf("%s, id only: got %d rows, want %d", p, len(got), len(ids))
		}
	}
	if _, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Filter: pageindex.Eq("tags.list.element", pageindex.String("t1"))}); !errors.Is(err, pageindex.ErrUnsupported) {
		t.Errorf("a filter on a list element: %v, want pageindex.ErrUnsupported", err)
	}
}

// TestFilterDictionaryColumn filters on a string column read as an Arrow
// dictionary, projected and not, against a brute-force filter.
func TestFilterDictionaryColumn(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rows := filterData(rand.New(rand.NewPCG(2, 9)), 700)
	rec := filterBatch(mem, rows)
	file := arrowiotest.WriteFile(t, filterSchema, arrowio.WriteOptions{DataPageRows: 50, MaxRowGroupRows: 300}, rec)
	rec.Release()
	p := pageindex.Or(pageindex.HasPrefix("s", "b"), pageindex.Eq("s", pageindex.String("cc")))
	want := bruteForce(t, file, p)
	got := filteredRows(t, file, arrowio.ReadOptions{Filter: p, Allocator: mem, Dictionary: []string{"s"}})
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s: got %d rows, want %d", p, len(got), len(want))
	}
	var ids []int64
	for _, r := range rows {
		if r.s != nil && ((*r.s)[0] == 'b' || *r.s == "cc") {
			ids = append(ids, r.id)
		}
	}
	gotIDs := filteredRows(t, file, arrowio.ReadOptions{Filter: p, Allocator: mem, Dictionary: []string{"s"}, Columns: []string{"id"}})
	if fmt.Sprint(gotIDs) != fmt.Sprint(idRows(ids)) {
		t.Fatalf("%s, id only: got %v, want %v", p, gotIDs, ids)
	}
}

// idRows formats ids as filteredRows formats rows of the id column.
func idRows(ids []int64) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = fmt.Sprint(id) + "|"
	}
	return out
}
