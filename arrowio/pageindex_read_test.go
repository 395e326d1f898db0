package arrowio_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
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
