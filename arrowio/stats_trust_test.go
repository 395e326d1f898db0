package arrowio_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// TestFlawedWriterStatisticsDoNotPrune writes a dictionary-encoded string
// column with nulls, then rewrites the footer the way parquet-cpp-arrow
// before 5.0.0 wrote it (ARROW-12513): created_by naming that writer and a
// null_count of 0. A filter for the nulls must still find every one of
// them; the same footer claiming a fixed version prunes the row group, so
// the test would catch the writer check going away.
func TestFlawedWriterStatisticsDoNotPrune(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "cat", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	nulls := 0
	for i := range 1000 {
		if i%7 == 3 {
			b.AppendNull()
			nulls++
		} else {
			b.Append([]string{"red", "green", "blue"}[i%3])
		}
	}
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
	defer rec.Release()
	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, schema, arrowio.WriteOptions{DisablePageIndex: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	count := func(file []byte) int64 {
		rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Filter: pageindex.IsNull("cat")})
		if err != nil {
			t.Fatal(err)
		}
		defer rd.Close()
		tbl, err := rd.ReadTable(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		defer tbl.Release()
		return tbl.NumRows()
	}
	if got := count(buf.Bytes()); got != int64(nulls) {
		t.Fatalf("the file as written: %d null rows found, want %d", got, nulls)
	}
	for _, c := range []struct {
		createdBy string
		want      int64
	}{
		{"parquet-cpp-arrow version 4.0.1", int64(nulls)}, // flawed: statistics not trusted
		{"parquet-cpp-arrow version 5.0.0", 0},            // fixed: the (false) zero prunes
	} {
		file := withFooter(t, buf.Bytes(), func(fm *footer.FileMetaData) {
			fm.CreatedBy = footer.Some(c.createdBy)
			for i := range fm.RowGroups {
				for j := range fm.RowGroups[i].Columns {
					md := fm.RowGroups[i].Columns[j].MetaData
					if md.Statistics == nil || !md.DictionaryPageOffset.Set {
						t.Fatalf("column chunk %d/%d has no statistics or no dictionary", i, j)
					}
					md.Statistics.NullCount = footer.Some(int64(0))
				}
			}
		})
		if got := count(file); got != c.want {
			t.Errorf("created by %q with null_count 0: %d rows match IS NULL, want %d", c.createdBy, got, c.want)
		}
	}
}

// withFooter returns file with its FileMetaData changed by edit.
func withFooter(t *testing.T, file []byte, edit func(*footer.FileMetaData)) []byte {
	t.Helper()
	tail, err := footer.ReadTail(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	var fm footer.FileMetaData
	if _, err := footer.Unmarshal(tail.Meta, &fm); err != nil {
		t.Fatal(err)
	}
	edit(&fm)
	out := append([]byte(nil), file[:tail.MetaOffset]...)
	meta := footer.Marshal(nil, &fm)
	out = append(out, meta...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(meta)))
	return append(out, "PAR1"...)
}
