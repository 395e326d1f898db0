package arrowio_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/quiverio/quiver/arrowio"
)

// TestDictionaryStopsPaying writes a column of distinct keys and one of
// few values with dictionary encoding on and small pages: the distinct
// keys fall back to PLAIN after their first page (whose dictionary holds
// only that page's values), the repeated values stay dictionary-encoded,
// and both read back.
func TestDictionaryStopsPaying(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const n = 50_000
	keys, small := array.NewInt64Builder(mem), array.NewInt64Builder(mem)
	defer keys.Release()
	defer small.Release()
	for i := range n {
		keys.Append(int64(i) * 7919)
		small.Append(int64(i % 5))
	}
	fields := []arrow.Field{{Name: "key", Type: arrow.PrimitiveTypes.Int64}, {Name: "small", Type: arrow.PrimitiveTypes.Int64}}
	cols := []arrow.Array{keys.NewArray(), small.NewArray()}
	defer releaseAll(cols)
	buf := roundTrip(t, mem, arrowio.WriteOptions{DataPageSize: 8 << 10}, fields, cols)
	r := pqMetadata(t, buf)
	defer r.Close()
	for i, wantPlain := range []bool{true, false} {
		cc, err := r.MetaData().RowGroup(0).ColumnChunk(i)
		if err != nil {
			t.Fatal(err)
		}
		plainPages := false
		for _, st := range cc.EncodingStats() {
			plainPages = plainPages || st.PageType.String() == "DATA_PAGE" && st.Encoding == parquet.Encodings.Plain
		}
		if plainPages != wantPlain {
			t.Errorf("column %s: PLAIN data pages %v, want %v (%v)", fields[i].Name, plainPages, wantPlain, cc.EncodingStats())
		}
		// The keys' dictionary stopped at its first page: the chunk is
		// about PLAIN's size, not the dictionary's plus indices.
		if size := cc.TotalUncompressedSize(); i == 0 && size > 8*n+n/2 {
			t.Errorf("distinct keys take %d bytes uncompressed, want about PLAIN's %d", size, 8*n)
		}
	}
}
