package pageindex

import (
	"testing"

	"github.com/quiverio/quiver/footer"
)

func TestParseWriter(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Writer
	}{
		{"parquet-mr version 1.8.1 (build 4aba4dae7bb0d4edbcf7923ae1339f28fd3f7fcf)", Writer{"parquet-mr", [3]int{1, 8, 1}, true}},
		{"parquet-cpp-arrow version 4.0.1", Writer{"parquet-cpp-arrow", [3]int{4, 0, 1}, true}},
		{"parquet-mr version 1.10.0rc1", Writer{"parquet-mr", [3]int{1, 10, 0}, true}},
		{"parquet-cpp-arrow version 15.0.0-SNAPSHOT", Writer{"parquet-cpp-arrow", [3]int{15, 0, 0}, true}},
		{"parquet-cpp version 1.2", Writer{"parquet-cpp", [3]int{1, 2, 0}, true}},
		{"Parquet-MR Version 1.7.0", Writer{"parquet-mr", [3]int{1, 7, 0}, true}},
		{"quiver testdata/gen", Writer{App: "quiver"}},
		{"parquet-rs version x.y", Writer{App: "parquet-rs"}},
		{"", Writer{}},
	} {
		if got := ParseWriter(c.in); got != c.want {
			t.Errorf("ParseWriter(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

// TestChunkStatsDistrustsFlawedWriters builds, for each writer of the
// table, chunk statistics carrying its flaw, and checks that ChunkStats
// leaves the flawed part out for that writer and keeps it for the first
// fixed version.
func TestChunkStatsDistrustsFlawedWriters(t *testing.T) {
	leaf := func(phys footer.Type, lt footer.LogicalType, ct footer.Optional[footer.ConvertedType]) *footer.Node {
		rep := footer.Some(footer.RepetitionOptional)
		elems := []footer.SchemaElement{
			{Name: "schema", NumChildren: footer.Some(int32(1))},
			{Name: "c", Type: footer.Some(phys), RepetitionType: rep, LogicalType: lt, ConvertedType: ct},
		}
		s, err := footer.NewSchema(elems, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s.Leaves[0]
	}
	i64 := leaf(footer.TypeInt64, footer.LogicalType{}, footer.Optional[footer.ConvertedType]{})
	str := leaf(footer.TypeByteArray, footer.LogicalType{Kind: footer.LogicalString}, footer.Some(footer.ConvertedUTF8))
	u32 := leaf(footer.TypeInt32, footer.LogicalType{Kind: footer.LogicalInteger, Integer: footer.IntType{BitWidth: 32, IsSigned: false}}, footer.Some(footer.ConvertedUint32))
	stats := func(nulls int64, lo, hi []byte) *footer.Statistics {
		return &footer.Statistics{NullCount: footer.Some(nulls), MinValue: lo, MaxValue: hi}
	}
	dict := []footer.Encoding{footer.EncodingRLEDictionary, footer.EncodingPlain}
	le := func(v uint32) []byte { return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)} }
	for _, c := range []struct {
		name          string
		leaf          *footer.Node
		md            footer.ColumnMetaData
		flawed, fixed string
		nulls, bounds bool // whether the flawed writer's null count and bounds are kept
	}{
		{"ARROW-12513 dictionary null count", str,
			footer.ColumnMetaData{NumValues: 10, Encodings: dict, Statistics: stats(0, []byte("a"), []byte("b"))},
			"parquet-cpp-arrow version 4.0.1", "parquet-cpp-arrow version 5.0.0", false, true},
		{"PARQUET-251 binary bounds", str,
			footer.ColumnMetaData{NumValues: 10, Encodings: []footer.Encoding{footer.EncodingPlain}, Statistics: stats(1, []byte("a"), []byte("b"))},
			"parquet-mr version 1.7.0", "parquet-mr version 1.10.0", true, false},
		{"PARQUET-686 unsigned bounds, parquet-mr", u32,
			footer.ColumnMetaData{NumValues: 10, Statistics: stats(1, le(1<<31), le(1))},
			"parquet-mr version 1.9.0", "parquet-mr version 1.10.0", true, false},
		{"PARQUET-686 unsigned bounds, parquet-cpp", u32,
			footer.ColumnMetaData{NumValues: 10, Statistics: stats(1, le(1<<31), le(1))},
			"parquet-cpp version 1.2.0", "parquet-cpp version 1.3.0", true, false},
		{"PARQUET-686 signed bounds stay", i64,
			footer.ColumnMetaData{NumValues: 10, Statistics: stats(1, make([]byte, 8), make([]byte, 8))},
			"parquet-mr version 1.9.0", "parquet-mr version 1.10.0", true, true},
	} {
		for _, created := range []string{c.flawed, c.fixed} {
			st := ChunkStats(&c.md, c.leaf, ParseWriter(created))
			wantNulls, wantBounds := c.nulls, c.bounds
			if created == c.fixed {
				wantNulls, wantBounds = true, true
			}
			if st.HasNullCount != wantNulls || (st.Min != nil) != wantBounds {
				t.Errorf("%s, %s: null count kept %v (want %v), bounds kept %v (want %v)",
					c.name, created, st.HasNullCount, wantNulls, st.Min != nil, wantBounds)
			}
		}
	}
	// Null counts that cannot be right are left out whoever wrote them.
	for _, n := range []int64{-1, 11} {
		md := footer.ColumnMetaData{NumValues: 10, Statistics: stats(n, nil, nil)}
		if st := ChunkStats(&md, i64, ParseWriter("parquet-cpp-arrow version 20.0.0")); st.HasNullCount || st.AllNull {
			t.Errorf("null count %d of 10 values kept: %+v", n, st)
		}
	}
}
