package arrowio_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// TestReaderPageIndexAndBloom reads the page index and bloom filters of a
// file written with and without them, and refuses unknown row groups and
// columns.
func TestReaderPageIndexAndBloom(t *testing.T) {
	rec := indexTestBatch(memory.DefaultAllocator, 500, rand.New(rand.NewPCG(1, 1)))
	defer rec.Release()
	with := arrowiotest.WriteFile(t, rec.Schema(), arrowio.WriteOptions{DataPageRows: 100, Columns: map[string]arrowio.ColumnOptions{"s": {BloomFilter: &arrowio.BloomFilterOptions{NDV: 500}}}}, rec)
	without := arrowiotest.WriteFile(t, rec.Schema(), arrowio.WriteOptions{DisablePageIndex: true}, rec)
	r, err := arrowio.Open(bytes.NewReader(with), int64(len(with)), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ci, oi, err := r.PageIndex(0, "s")
	if err != nil || ci == nil || oi == nil || len(oi.PageLocations) != 5 || len(ci.NullPages) != 5 || !ci.NullPages[2] {
		t.Fatalf("PageIndex: %+v, %+v, %v", ci, oi, err)
	}
	if bf, err := r.BloomFilter(0, "s"); err != nil || bf == nil || bf.NumBytes() != 1024 {
		t.Fatalf("BloomFilter(s): %v, %v", bf, err)
	}
	if bf, err := r.BloomFilter(0, "id"); err != nil || bf != nil {
		t.Fatalf("BloomFilter(id): %v, %v", bf, err)
	}
	for _, c := range []struct {
		rg  int
		col string
	}{{-1, "s"}, {1, "s"}, {0, "nope"}} {
		if _, _, err := r.PageIndex(c.rg, c.col); err == nil {
			t.Errorf("PageIndex(%d, %q) succeeded", c.rg, c.col)
		}
		if _, err := r.BloomFilter(c.rg, c.col); err == nil {
			t.Errorf("BloomFilter(%d, %q) succeeded", c.rg, c.col)
		}
	}
	r2, err := arrowio.Open(bytes.NewReader(without), int64(len(without)), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if ci, oi, err := r2.PageIndex(0, "s"); ci != nil || oi != nil || err != nil {
		t.Fatalf("without page index: %v, %v, %v", ci, oi, err)
	}
	if meta := r2.Metadata().RowGroups[0].Columns[0]; meta.ColumnIndexOffset.Set || meta.OffsetIndexOffset.Set {
		t.Fatalf("DisablePageIndex wrote index offsets: %+v", meta)
	}
	one := arrowiotest.WriteFile(t, rec.Schema(), arrowio.WriteOptions{Columns: map[string]arrowio.ColumnOptions{"s": {PageIndex: footer.Some(false)}}}, rec)
	r3, err := arrowio.Open(bytes.NewReader(one), int64(len(one)), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r3.Close()
	if ci, oi, err := r3.PageIndex(0, "s"); ci != nil || oi != nil || err != nil {
		t.Fatalf("column s with its page index off: %v, %v, %v", ci, oi, err)
	}
	if ci, oi, err := r3.PageIndex(0, "id"); ci == nil || oi == nil || err != nil {
		t.Fatalf("column id: %v, %v, %v", ci, oi, err)
	}
}

// indexTestBatch returns rows of a sorted int64 "id", an optional string
// "s" (about a tenth null, one page all null), an int8 "k" and a float64
// "f".
func indexTestBatch(mem memory.Allocator, rows int, rng *rand.Rand) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "k", Type: arrow.PrimitiveTypes.Int8},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for r := range rows {
		b.Field(0).(*array.Int64Builder).Append(int64(r) * 3)
		if rng.IntN(10) == 0 || r >= 200 && r < 300 {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("v%05d", rng.IntN(rows)))
		}
		b.Field(2).(*array.Int8Builder).Append(int8(rng.IntN(200) - 100))
		if rng.IntN(5) == 0 {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.Float64Builder).Append(rng.NormFloat64())
		}
	}
	return b.NewRecordBatch()
}

// TestPageIndexWrittenForArrowGo writes pages of 100 rows with page indexes
// and bloom filters, and checks with arrow-go's readers that each page's
// location, first row, null count and bounds match the data, that the
// sorted column is ascending, and that the bloom filters hold every value.
func TestPageIndexWrittenForArrowGo(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(3, 4))
	const rows = 1000
	rec := indexTestBatch(mem, rows, rng)
	defer rec.Release()
	bloom := &arrowio.BloomFilterOptions{FPP: 0.01}
	for _, v := range []arrowio.PageVersion{arrowio.PageV1, arrowio.PageV2} {
		buf := arrowiotest.WriteFile(t, rec.Schema(), arrowio.WriteOptions{
			DataPageRows: 100, PageVersion: v, MaxRowGroupRows: 600,
			Columns: map[string]arrowio.ColumnOptions{"s": {BloomFilter: bloom}, "k": {BloomFilter: bloom}, "id": {BloomFilter: &arrowio.BloomFilterOptions{Bytes: 4096}}},
		}, rec)
		fr := pqMetadata(t, buf)
		pir := fr.GetPageIndexReader()
		bfr := fr.GetBloomFilterReader()
		firstRow := 0
		for g := range fr.NumRowGroups() {
			rgr, err := pir.RowGroup(g)
			if err != nil {
				t.Fatal(err)
			}
			bloomRG, err := bfr.RowGroup(g)
			if err != nil {
				t.Fatal(err)
			}
			n := int(fr.MetaData().RowGroup(g).NumRows())
			for c := range 4 {
				ci, err := rgr.GetColumnIndex(c)
				if err != nil {
					t.Fatalf("row group %d column %d: %v", g, c, err)
				}
				oi, err := rgr.GetOffsetIndex(c)
				if err != nil {
					t.Fatal(err)
				}
				locs := oi.GetPageLocations()
				if len(locs) != (n+99)/100 || len(ci.GetNullPages()) != len(locs) {
					t.Fatalf("row group %d column %d: %d pages, %d column index entries", g, c, len(locs), len(ci.GetNullPages()))
				}
				for p, loc := range locs {
					lo, hi := int(loc.FirstRowIndex), min(n, int(loc.FirstRowIndex)+100)
					if lo != p*100 {
						t.Fatalf("page %d starts at row %d", p, lo)
					}
					checkPageBounds(t, rec.Column(c), firstRow+lo, firstRow+hi, ci, p)
				}
				if c == 0 && ci.GetBoundaryOrder() != metadata.Ascending {
					t.Errorf("sorted column: boundary order %v", ci.GetBoundaryOrder())
				}
				if c == 1 {
					if got := oi.GetUnencodedByteArrayDataBytes(); len(got) != len(locs) {
						t.Errorf("unencoded byte array bytes %v", got)
					}
				}
				if c == 3 {
					continue // no bloom filter
				}
				bf, err := bloomRG.GetColumnBloomFilter(c)
				if err != nil || bf == nil {
					t.Fatalf("row group %d column %d: bloom filter %v, %v", g, c, bf, err)
				}
				for r := firstRow; r < firstRow+n; r++ {
					h, ok := physicalHash(rec.Column(c), r)
					if ok && !bf.CheckHash(h) {
						t.Fatalf("row group %d column %d row %d: value missing from the bloom filter", g, c, r)
					}
				}
			}
			firstRow += n
		}
	}
}

// physicalHash returns the bloom hash of row r of arr, false for nulls.
func physicalHash(arr arrow.Array, r int) (uint64, bool) {
	if arr.IsNull(r) {
		return 0, false
	}
	switch a := arr.(type) {
	case *array.Int64:
		return pageindex.HashInt64(a.Value(r)), true
	case *array.Int8:
		return pageindex.HashInt32(int32(a.Value(r))), true
	case *array.String:
		return pageindex.HashBytes([]byte(a.Value(r))), true
	}
	return 0, false
}

// checkPageBounds checks entry p of ci against rows [lo, hi) of arr.
func checkPageBounds(t *testing.T, arr arrow.Array, lo, hi int, ci metadata.ColumnIndex, p int) {
	t.Helper()
	nulls := 0
	var vals []string
	for r := lo; r < hi; r++ {
		if arr.IsNull(r) {
			nulls++
			continue
		}
		vals = append(vals, arrowiotest.Canonical(arr, r))
	}
	if got := ci.GetNullCounts()[p]; got != int64(nulls) {
		t.Errorf("page %d: null count %d, want %d", p, got, nulls)
	}
	if ci.GetNullPages()[p] != (len(vals) == 0) {
		t.Errorf("page %d: null page %v with %d values", p, ci.GetNullPages()[p], len(vals))
	}
	if len(vals) == 0 {
		return
	}
	var min, max string
	switch typed := ci.(type) {
	case *metadata.TypedColumnIndex[int64]:
		min, max = fmt.Sprint(typed.MinValues()[p]), fmt.Sprint(typed.MaxValues()[p])
	case *metadata.TypedColumnIndex[int32]:
		min, max = fmt.Sprint(typed.MinValues()[p]), fmt.Sprint(typed.MaxValues()[p])
	case *metadata.TypedColumnIndex[float64]:
		min, max = fmt.Sprint(typed.MinValues()[p]), fmt.Sprint(typed.MaxValues()[p])
	default:
		min, max = string(ci.GetMinValues()[p]), string(ci.GetMaxValues()[p])
	}
	if !slices.Contains(vals, min) || !slices.Contains(vals, max) {
		t.Errorf("page %d: bounds %s, %s are not among its values", p, min, max)
	}
}
