package arrowio_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/quiverio/quiver/arrowio"
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

func (p *tpred) eval(r *filterRow) bool {
	switch p.kind {
	case "and":
		for _, k := range p.kids {
			if !k.eval(r) {
				return false
			}
		}
		return true
	case "or":
		for _, k := range p.kids {
			if k.eval(r) {
				return true
			}
		}
		return false
	case "not":
		return !p.kids[0].eval(r)
	}
	v := r.value(p.col)
	switch p.kind {
	case "null":
		return v == nil
	case "notnull":
		return v != nil
	}
	if v == nil {
		return false
	}
	switch p.kind {
	case "prefix":
		s := v.(string)
		return len(s) >= len(p.vals[0].(string)) && s[:len(p.vals[0].(string))] == p.vals[0].(string)
	case "in":
		for _, w := range p.vals {
			if compareAny(v, w) == 0 {
				return true
			}
		}
		return false
	}
	return opHolds(p.op, compareAny(v, p.vals[0]))
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
				if tp.eval(&rows[i]) {
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

// filteredIDs reads buf with filter p and columns cols (which hold id)
// by RecordReader or ReadRowGroup, checks the s and f values read against
// rows, and returns the ids of the rows read.
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
