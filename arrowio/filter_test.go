package arrowio_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/arrowio/internal/scan"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
	"github.com/quiverio/quiver/internal/tri"
	"github.com/quiverio/quiver/pageindex"
)

// filterRow is one row of the filter property test's data, as Go values
// (nil for null).
type filterRow struct {
	id int64
	s  *string
	k  *int32
	f  *float64
}

// filterData returns random rows: a unique id (sorted or shuffled), a
// low-cardinality optional string, an optional int32 and an optional
// float64 (with NaNs).
func filterData(rng *rand.Rand, n int) []filterRow {
	rows := make([]filterRow, n)
	sorted := rng.IntN(2) == 0
	nullRate := []float64{0, 0.2, 0.95}[rng.IntN(3)]
	for i := range rows {
		r := &rows[i]
		r.id = int64(i)
		if !sorted {
			r.id = int64(rng.IntN(1<<30))*1024 + int64(i)
		}
		if rng.Float64() >= nullRate {
			s := fmt.Sprintf("%c%c", 'a'+rng.IntN(5), 'a'+rng.IntN(5))
			r.s = &s
		}
		if rng.Float64() >= nullRate {
			k := int32(rng.IntN(100) - 50)
			if sorted {
				k = int32(i / 16)
			}
			r.k = &k
		}
		if rng.Float64() >= nullRate {
			f := float64(rng.IntN(40)) / 4
			if rng.IntN(50) == 0 {
				f = math.NaN()
			}
			r.f = &f
		}
	}
	return rows
}

var filterSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "k", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

func filterBatch(mem memory.Allocator, rows []filterRow) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, filterSchema)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.Int64Builder).Append(r.id)
		if r.s == nil {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(*r.s)
		}
		if r.k == nil {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.Int32Builder).Append(*r.k)
		}
		if r.f == nil {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.Float64Builder).Append(*r.f)
		}
	}
	return b.NewRecordBatch()
}

// tpred is a predicate of the test's own, evaluated on filterRows
// independently of pageindex.
type tpred struct {
	kind string // cmp, in, null, notnull, prefix, and, or, not
	col  string
	op   pageindex.Op
	vals []any // int64, float64 or string
	kids []*tpred
}

func randomTPred(rng *rand.Rand, depth int) *tpred {
	if depth > 0 && rng.IntN(3) == 0 {
		p := &tpred{kind: []string{"and", "or", "not"}[rng.IntN(3)]}
		for range 1 + rng.IntN(2) {
			p.kids = append(p.kids, randomTPred(rng, depth-1))
		}
		if p.kind == "not" {
			p.kids = p.kids[:1]
		}
		return p
	}
	col := []string{"id", "s", "k", "f"}[rng.IntN(4)]
	lit := func() any {
		switch col {
		case "id":
			return int64(rng.IntN(600) - 20)
		case "k":
			return int64(rng.IntN(120) - 60)
		case "f":
			return float64(rng.IntN(44)-2) / 4
		}
		return fmt.Sprintf("%c%c", 'a'+rng.IntN(6), 'a'+rng.IntN(5))
	}
	switch rng.IntN(8) {
	case 0:
		return &tpred{kind: "null", col: col}
	case 1:
		return &tpred{kind: "notnull", col: col}
	case 2:
		p := &tpred{kind: "in", col: col}
		for range rng.IntN(4) {
			p.vals = append(p.vals, lit())
		}
		return p
	case 3:
		if col == "s" {
			return &tpred{kind: "prefix", col: col, vals: []any{string(rune('a' + rng.IntN(6)))}}
		}
	}
	return &tpred{kind: "cmp", col: col, op: pageindex.Op(1 + rng.IntN(6)), vals: []any{lit()}}
}

func literalOf(v any) pageindex.Literal {
	switch v := v.(type) {
	case int64:
		return pageindex.Int(v)
	case float64:
		return pageindex.Float(v)
	}
	return pageindex.String(v.(string))
}

func (p *tpred) build() pageindex.Predicate {
	var kids []pageindex.Predicate
	for _, k := range p.kids {
		kids = append(kids, k.build())
	}
	switch p.kind {
	case "and":
		return pageindex.And(kids...)
	case "or":
		return pageindex.Or(kids...)
	case "not":
		return pageindex.Not(kids[0])
	case "null":
		return pageindex.IsNull(p.col)
	case "notnull":
		return pageindex.IsNotNull(p.col)
	case "prefix":
		return pageindex.HasPrefix(p.col, p.vals[0].(string))
	case "in":
		var lits []pageindex.Literal
		for _, v := range p.vals {
			lits = append(lits, literalOf(v))
		}
		return pageindex.In(p.col, lits...)
	}
	return pageindex.Compare(p.col, p.op, literalOf(p.vals[0]))
}

// value returns row r's value of col (nil for null).
func (r *filterRow) value(col string) any {
	switch col {
	case "id":
		return r.id
	case "s":
		if r.s != nil {
			return *r.s
		}
	case "k":
		if r.k != nil {
			return int64(*r.k)
		}
	case "f":
		if r.f != nil {
			return *r.f
		}
	}
	return nil
}

// compareAny compares two values of one kind: -1, 0, 1, or 2 when
// unordered (NaN).
func compareAny(a, b any) int {
	switch a := a.(type) {
	case int64:
		b := b.(int64)
		return map[bool]int{true: -1, false: 0}[a < b] + map[bool]int{true: 1, false: 0}[a > b]
	case float64:
		b := b.(float64)
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		case a == b:
			return 0
		}
		return 2
	}
	as, bs := a.(string), b.(string)
	return map[bool]int{true: -1, false: 0}[as < bs] + map[bool]int{true: 1, false: 0}[as > bs]
}

// eval evaluates p on r in SQL's three-valued logic.
func (p *tpred) eval(r *filterRow) tri.Value {
	switch p.kind {
	case "and", "or":
		out := tri.Known(p.kind == "and")
		for _, k := range p.kids {
			if p.kind == "and" {
				out = min(out, k.eval(r))
			} else {
				out = max(out, k.eval(r))
			}
		}
		return out
	case "not":
		return tri.Not(p.kids[0].eval(r))
	}
	v := r.value(p.col)
	switch p.kind {
	case "null":
		return tri.Known(v == nil)
	case "notnull":
		return tri.Known(v != nil)
	}
	if v == nil {
		return tri.Unknown
	}
	switch p.kind {
	case "prefix":
		s := v.(string)
		return tri.Known(len(s) >= len(p.vals[0].(string)) && s[:len(p.vals[0].(string))] == p.vals[0].(string))
	case "in":
		for _, w := range p.vals {
			if compareAny(v, w) == 0 {
				return tri.True
			}
		}
		return tri.False
	}
	return tri.Known(opHolds(p.op, compareAny(v, p.vals[0])))
}

// writeArrowGo writes rows with pqarrow: small pages, page index and bloom
// filters on. Its bloom filters free their memory in finalizers, so it
// writes with the default allocator rather than the test's checked one.
func writeArrowGo(t testing.TB, rec arrow.RecordBatch, rgRows int64) []byte {
	tbl := array.NewTableFromRecords(rec.Schema(), []arrow.RecordBatch{rec})
	defer tbl.Release()
	var buf bytes.Buffer
	props := parquet.NewWriterProperties(parquet.WithPageIndexEnabled(true), parquet.WithBloomFilterEnabled(true),
		parquet.WithDataPageSize(256), parquet.WithBatchSize(40), parquet.WithMaxRowGroupLength(rgRows))
	if err := pqarrow.WriteTable(tbl, &buf, rgRows, props, pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestFilterMatchesBruteForce writes random data with quiver (every
// other quiver file without page indexes) and with arrow-go (page indexes
// and bloom filters on), reads it back with random
// predicates as filters and checks that exactly the rows the predicate
// holds for come back, in order, with their values.
func TestFilterMatchesBruteForce(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(21, 5))
	files, preds := 12, 40
	if testing.Short() {
		files, preds = 4, 25
	}
	bloom := &arrowio.BloomFilterOptions{FPP: 0.05}
	for fi := range files {
		rows := filterData(rng, 50+rng.IntN(600))
		rec := filterBatch(mem, rows)
		rgRows := int64(100 + rng.IntN(400))
		var buf []byte
		writer := "quiver"
		if fi%2 == 0 {
			buf = arrowiotest.WriteFile(t, filterSchema, arrowio.WriteOptions{DataPageRows: 1 + rng.IntN(60), MaxRowGroupRows: rgRows,
				PageVersion: arrowio.PageVersion(1 + rng.IntN(2)), DisablePageIndex: fi%4 == 2,
				Columns: map[string]arrowio.ColumnOptions{"s": {BloomFilter: bloom}, "k": {BloomFilter: bloom}, "id": {BloomFilter: bloom}}}, rec)
		} else {
			writer = "arrow-go"
			buf = writeArrowGo(t, rec, rgRows)
		}
		rec.Release()
		for range preds {
			tp := randomTPred(rng, 3)
			p := tp.build()
			var want []int64
			for i := range rows {
				if tp.eval(&rows[i]) == tri.True {
					want = append(want, rows[i].id)
				}
			}
			cols := [][]string{nil, {"id"}, {"f", "id"}, {"s", "id"}}[rng.IntN(4)]
			got := filteredIDs(t, mem, buf, p, cols, rng.IntN(2) == 0, rows)
			if !slices.Equal(got, want) {
				t.Fatalf("%s file %d, filter %s, columns %v: got %d rows %v, want %d rows %v", writer, fi, p, cols, len(got), got, len(want), want)
			}
		}
	}
}

// filteredIDs reads buf with filter p and columns cols (nil or holding
// id) by RecordReader or ReadRowGroup, checks the s and f values read
// against rows (when rows is not nil), and returns the ids of the rows
// read.
func filteredIDs(t *testing.T, mem memory.Allocator, buf []byte, p pageindex.Predicate, cols []string, byRecords bool, rows []filterRow) []int64 {
	t.Helper()
	r, err := arrowio.Open(bytes.NewReader(buf), int64(len(buf)), arrowio.ReadOptions{Filter: p, Columns: cols, Allocator: mem, BatchSize: 37})
	if err != nil {
		t.Fatalf("Open with filter %s: %v", p, err)
	}
	defer r.Close()
	byID := make(map[int64]*filterRow, len(rows))
	for i := range rows {
		byID[rows[i].id] = &rows[i]
	}
	var out []int64
	take := func(rec arrow.RecordBatch) {
		idCol := rec.Schema().FieldIndices("id")[0]
		for k := range int(rec.NumRows()) {
			id := rec.Column(idCol).(*array.Int64).Value(k)
			out = append(out, id)
			if rows == nil {
				continue
			}
			for c, f := range rec.Schema().Fields() {
				col := rec.Column(c)
				want := byID[id].value(f.Name)
				var got any
				switch a := col.(type) {
				case *array.String:
					got = a.Value(k)
				case *array.Float64:
					got = a.Value(k)
				default:
					continue
				}
				if col.IsNull(k) {
					got = nil
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("filter %s: row %d column %s is %v, want %v", p, id, f.Name, got, want)
				}
			}
		}
	}
	if byRecords {
		rr, err := r.RecordReader(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer rr.Release()
		for rr.Next() {
			take(rr.RecordBatch())
		}
		if err := rr.Err(); err != nil {
			t.Fatalf("filter %s: %v", p, err)
		}
		return out
	}
	for g := range r.NumRowGroups() {
		rec, err := r.ReadRowGroup(context.Background(), g)
		if err != nil {
			t.Fatalf("filter %s, row group %d: %v", p, g, err)
		}
		take(rec)
		rec.Release()
	}
	return out
}

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

// readCorpus reads a corpus file into memory.
func readCorpus(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus.Dir(t), "data", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// filteredRows reads buf with opts and returns each row as a string.
func filteredRows(t *testing.T, buf []byte, opts arrowio.ReadOptions) []string {
	t.Helper()
	r, err := arrowio.Open(bytes.NewReader(buf), int64(len(buf)), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tbl, err := r.ReadTable(context.Background())
	if err != nil {
		t.Fatalf("filter %v: %v", opts.Filter, err)
	}
	defer tbl.Release()
	tr := array.NewTableReader(tbl, 1<<20)
	defer tr.Release()
	var out []string
	for tr.Next() {
		rec := tr.RecordBatch()
		for k := range int(rec.NumRows()) {
			out = append(out, recordRow(rec, k))
		}
	}
	return out
}

// recordRow formats row k of rec.
func recordRow(rec arrow.RecordBatch, k int) string {
	s := ""
	for _, c := range rec.Columns() {
		if c.IsNull(k) {
			s += "null|"
		} else {
			s += arrowiotest.Canonical(c, k) + "|"
		}
	}
	return s
}

// bruteForce reads buf whole and keeps the rows p selects.
func bruteForce(t *testing.T, buf []byte, p pageindex.Predicate) []string {
	t.Helper()
	return bruteForceWith(t, buf, p, arrowio.ReadOptions{})
}

// bruteForceWith is bruteForce reading with opts.
func bruteForceWith(t *testing.T, buf []byte, p pageindex.Predicate, opts arrowio.ReadOptions) []string {
	t.Helper()
	r, err := arrowio.Open(bytes.NewReader(buf), int64(len(buf)), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := pageindex.Bind(p, fileSchema(t, r))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for g := range r.NumRowGroups() {
		rec, err := r.ReadRowGroup(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		cols := make([]arrow.Array, len(b.Leaves()))
		for i, l := range b.Leaves() {
			if cols[i], err = scan.LeafArray(rec.Column(rec.Schema().FieldIndices(l.Path[0])[0]), l, memory.DefaultAllocator); err != nil {
				t.Fatal(err)
			}
		}
		sel, err := b.Select(cols, int(rec.NumRows()))
		scan.ReleaseArrays(cols)
		if err != nil {
			t.Fatal(err)
		}
		for k, s := range sel {
			if s {
				out = append(out, recordRow(rec, k))
			}
		}
		rec.Release()
	}
	return out
}

// TestFilterCorpusBloomFiles filters the parquet-mr file whose bloom
// filter has no bloom_filter_length and its parquet-rs rewrite that has
// one: every stored string is found, absent strings are not, and the
// filters read both ways hold every value.
func TestFilterCorpusBloomFiles(t *testing.T) {
	for _, name := range []string{"data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet"} {
		buf := readCorpus(t, name)
		all := filteredRows(t, buf, arrowio.ReadOptions{})
		r, err := arrowio.Open(bytes.NewReader(buf), int64(len(buf)), arrowio.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ft, err := footer.ReadFooter(bytes.NewReader(buf), int64(len(buf)))
		if err != nil {
			t.Fatal(err)
		}
		md := r.Metadata().RowGroups[0].Columns[0].MetaData
		off, ok := md.BloomFilterOffset.Get()
		if !ok {
			t.Fatalf("%s: no bloom filter", name)
		}
		for _, length := range []int32{0, md.BloomFilterLength.Or(0)} {
			bf, err := pageindex.ReadBloom(bytes.NewReader(buf), off, length, ft.MetaOffset)
			if err != nil {
				t.Fatalf("%s: bloom filter (length %d): %v", name, length, err)
			}
			for _, row := range all {
				if !bf.Check(pageindex.HashBytes([]byte(row[:len(row)-1]))) {
					t.Errorf("%s: %q missing from the bloom filter", name, row)
				}
			}
		}
		r.Close()
		for _, v := range []string{"Hello", "today", "dog", "absent", "Hello!", ""} {
			p := pageindex.Eq("String", pageindex.String(v))
			got, want := filteredRows(t, buf, arrowio.ReadOptions{Filter: p}), bruteForce(t, buf, p)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: %s: got %q, want %q", name, p, got, want)
			}
		}
	}
}

// TestFilterCorpusTinyPages filters alltypes_tiny_pages.parquet (parquet-mr,
// hundreds of pages per column, column and offset indexes) with random
// predicates and compares with a brute-force filter of the whole file.
func TestFilterCorpusTinyPages(t *testing.T) {
	buf := readCorpus(t, "alltypes_tiny_pages.parquet")
	rng := rand.New(rand.NewPCG(7, 7))
	n := 60
	if testing.Short() {
		n = 15
	}
	for range n {
		var p pageindex.Predicate
		switch rng.IntN(5) {
		case 0:
			p = pageindex.Compare("id", pageindex.Op(1+rng.IntN(6)), pageindex.Int(int64(rng.IntN(7400))))
		case 1:
			p = pageindex.And(pageindex.GreaterEq("id", pageindex.Int(int64(rng.IntN(7000)))), pageindex.Less("id", pageindex.Int(int64(rng.IntN(7400)))))
		case 2:
			p = pageindex.Or(pageindex.Eq("int_col", pageindex.Int(int64(rng.IntN(10)))), pageindex.In("bigint_col", pageindex.Int(int64(10*rng.IntN(10)))))
		case 3:
			p = pageindex.HasPrefix("date_string_col", fmt.Sprintf("%02d/", 1+rng.IntN(12)))
		default:
			p = pageindex.And(pageindex.Eq("string_col", pageindex.String(fmt.Sprint(rng.IntN(10)))), pageindex.Greater("double_col", pageindex.Float(float64(rng.IntN(90)))))
		}
		got, want := filteredRows(t, buf, arrowio.ReadOptions{Filter: p}), bruteForce(t, buf, p)
		if len(got) != len(want) || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: got %d rows, want %d", p, len(got), len(want))
		}
	}
}
