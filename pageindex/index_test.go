package pageindex

import (
	"encoding/binary"
	"testing"

	"github.com/quiverio/quiver/footer"
)

func le64(v int64) []byte { return binary.LittleEndian.AppendUint64(nil, uint64(v)) }

// TestIndexBuilder builds indexes for ascending, descending and unordered
// pages, with a null page, and checks every field.
func TestIndexBuilder(t *testing.T) {
	schema := testSchema(t)
	leaf := schema.LeafByPath("i")
	cases := []struct {
		bounds [][2]int64
		want   footer.BoundaryOrder
	}{
		{[][2]int64{{1, 5}, {5, 9}, {9, 9}}, footer.BoundaryAscending},
		{[][2]int64{{7, 9}, {3, 8}, {-4, 2}}, footer.BoundaryDescending},
		{[][2]int64{{1, 5}, {0, 9}, {2, 3}}, footer.BoundaryUnordered},
	}
	b := NewIndexBuilder(leaf)
	for _, c := range cases {
		b.Reset()
		for p, bd := range c.bounds {
			b.AddPage(PageEntry{Offset: int64(100 * p), Size: 90, FirstRow: int64(10 * p), NullCount: 1, NonNull: 9,
				Min: le64(bd[0]), Max: le64(bd[1]), DefHistogram: []int64{1, 9}})
			if p == 1 {
				b.AddPage(PageEntry{Offset: 1000, Size: 10, FirstRow: int64(10*p + 5), NullCount: 5, DefHistogram: []int64{5, 0}})
			}
		}
		ci, oi := b.Finish(4)
		if ci.BoundaryOrder != c.want {
			t.Errorf("bounds %v: %s, want %s", c.bounds, ci.BoundaryOrder, c.want)
		}
		if len(oi.PageLocations) != 4 || oi.PageLocations[0].Offset != 4 || oi.PageLocations[2].FirstRowIndex != 15 || oi.UnencodedByteArrayDataBytes != nil {
			t.Errorf("offset index %+v", oi)
		}
		if !ci.NullPages[2] || ci.NullPages[1] || len(ci.MinValues[2]) != 0 || ci.NullCounts[2] != 5 || len(ci.DefinitionLevelHistograms) != 8 {
			t.Errorf("column index %+v", ci)
		}
	}
	b.Reset()
	b.AddPage(PageEntry{Size: 10, NonNull: 3}) // values without bounds: no column index
	if ci, oi := b.Finish(0); ci != nil || oi == nil {
		t.Errorf("page without bounds: %v, %v", ci, oi)
	}
	b.Reset()
	if ci, oi := b.Finish(0); ci != nil || oi != nil {
		t.Errorf("no pages: %v, %v", ci, oi)
	}
}

func TestIndexPagesRejects(t *testing.T) {
	oi := func(first ...int64) *footer.OffsetIndex {
		x := &footer.OffsetIndex{}
		for _, f := range first {
			x.PageLocations = append(x.PageLocations, footer.PageLocation{FirstRowIndex: f})
		}
		return x
	}
	for _, c := range []struct {
		ci   *footer.ColumnIndex
		oi   *footer.OffsetIndex
		good bool
	}{
		{nil, oi(0, 5), true},
		{nil, oi(), false},
		{nil, oi(1, 5), false},
		{nil, oi(0, 5, 5), false},
		{nil, oi(0, 10), false}, // past the 10 rows
		{&footer.ColumnIndex{NullPages: []bool{false}, MinValues: [][]byte{nil}, MaxValues: [][]byte{nil}}, oi(0, 5), false},
		{&footer.ColumnIndex{NullPages: []bool{false, true}, MinValues: [][]byte{le64(1), {}}, MaxValues: [][]byte{le64(2), {}}, NullCounts: []int64{0, 5}}, oi(0, 5), true},
	} {
		if _, ok := IndexPages(c.ci, c.oi, 10); ok != c.good {
			t.Errorf("IndexPages(%+v, %+v) = %v", c.ci, c.oi, ok)
		}
	}
}

func TestChunkStats(t *testing.T) {
	schema := testSchema(t)
	i, s := schema.LeafByPath("i"), schema.LeafByPath("s")
	legacy := &footer.ColumnMetaData{NumValues: 10, Statistics: &footer.Statistics{Min: le64(1), Max: le64(4), NullCount: footer.Some(int64(10))}}
	if st := ChunkStats(legacy, i, Writer{}); st.Min == nil || !st.AllNull {
		t.Errorf("legacy int64 bounds: %+v", st)
	}
	if st := ChunkStats(&footer.ColumnMetaData{Statistics: &footer.Statistics{Min: []byte("a"), Max: []byte("b")}}, s, Writer{}); st.Min != nil {
		t.Errorf("legacy string bounds used: %+v", st)
	}
	if st := ChunkStats(&footer.ColumnMetaData{NumValues: 3}, s, Writer{}); st.HasNullCount || st.Min != nil {
		t.Errorf("no statistics: %+v", st)
	}
}

func TestRangesOps(t *testing.T) {
	a := Ranges{{0, 5}, {10, 20}}
	b := Ranges{{3, 12}, {19, 30}}
	if got := Intersect(a, b); len(got) != 3 || got[0] != (Range{3, 5}) || got[1] != (Range{10, 12}) || got[2] != (Range{19, 20}) {
		t.Errorf("Intersect = %v", got)
	}
	if got := Union(a, b); len(got) != 1 || got[0] != (Range{0, 30}) {
		t.Errorf("Union = %v", got)
	}
	if got := Complement(a, 25); len(got) != 2 || got[0] != (Range{5, 10}) || got[1] != (Range{20, 25}) || got.Rows() != 10 {
		t.Errorf("Complement = %v", got)
	}
	if Full(0) != nil || Full(3).Rows() != 3 {
		t.Error("Full")
	}
}

func TestSplitPlain(t *testing.T) {
	src := []byte{2, 0, 0, 0, 'h', 'i', 0, 0, 0, 0, 1, 0, 0, 0, 'x'}
	vals, err := SplitPlain(footer.TypeByteArray, 0, 3, src)
	if err != nil || len(vals) != 3 || string(vals[0]) != "hi" || len(vals[1]) != 0 || string(vals[2]) != "x" {
		t.Fatalf("SplitPlain = %q, %v", vals, err)
	}
	for _, c := range []struct {
		t     footer.Type
		width int32
		count int
		src   []byte
	}{
		{footer.TypeByteArray, 0, 4, src},
		{footer.TypeByteArray, 0, 1, []byte{9, 0, 0, 0, 1}},
		{footer.TypeInt64, 0, 2, make([]byte, 15)},
		{footer.TypeFixedLenByteArray, 0, 1, []byte{1}},
		{footer.TypeBoolean, 0, 1, []byte{1}},
		{footer.TypeInt32, 0, -1, nil},
	} {
		if _, err := SplitPlain(c.t, c.width, c.count, c.src); err == nil {
			t.Errorf("SplitPlain(%s, %d, %d, %v) succeeded", c.t, c.width, c.count, c.src)
		}
	}
}
