package arrowio_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
)

func TestSortingColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := streamRecord(t, mem, 3000)
	defer rec.Release()
	opts := arrowio.WriteOptions{MaxRowGroupRows: 1000, SortingColumns: []arrowio.SortingColumn{
		{Column: "id"}, {Column: "point.x", Descending: true, NullsFirst: true}}}
	file := arrowiotest.WriteFile(t, rec.Schema(), opts, rec)

	// Every row group declares them, as arrow-go reads them.
	pf := pqMetadata(t, file)
	defer pf.Close()
	want := []parquet.SortingColumn{{ColumnIdx: 0}, {ColumnIdx: 5, Descending: true, NullsFirst: true}}
	for g := range pf.NumRowGroups() {
		got := pf.MetaData().RowGroup(g).SortingColumns()
		if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
			t.Errorf("row group %d: arrow-go reads sorting columns %+v, want %+v", g, got, want)
		}
	}
	// Quiver's reader gives them in the schema metadata.
	tbl := arrowiotest.ReadTable(t, file, arrowio.ReadOptions{})
	defer tbl.Release()
	v, ok := tbl.Schema().Metadata().GetValue(arrowio.SortingColumnsKey)
	if wantV := `[{"column":"id","descending":false,"nulls_first":false},{"column":"point.x","descending":true,"nulls_first":true}]`; !ok || v != wantV {
		t.Errorf("schema metadata %s = %q, want %q", arrowio.SortingColumnsKey, v, wantV)
	}
	arrowiotest.CheckTable(t, "quiver", tbl, rec)

	// A key carried in from an Arrow schema is dropped when the row
	// groups declare nothing.
	meta := arrow.NewMetadata([]string{arrowio.SortingColumnsKey, "other"}, []string{`[{"column":"id"}]`, "kept"})
	stale := arrow.NewSchema(rec.Schema().Fields(), &meta)
	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, stale, arrowio.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	st := arrowiotest.ReadTable(t, buf.Bytes(), arrowio.ReadOptions{})
	defer st.Release()
	if st.Schema().Metadata().FindKey(arrowio.SortingColumnsKey) >= 0 {
		t.Errorf("a file without sorting columns reads with %s", arrowio.SortingColumnsKey)
	}
	if v, _ := st.Schema().Metadata().GetValue("other"); v != "kept" {
		t.Errorf("other metadata lost: %v", st.Schema().Metadata())
	}
}

func TestSortingColumnsRejected(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := streamRecord(t, mem, 1)
	defer rec.Release()
	for _, c := range []struct {
		cols []arrowio.SortingColumn
		want string
	}{
		{[]arrowio.SortingColumn{{Column: "nope"}}, `"nope", which is not a leaf`},
		{[]arrowio.SortingColumn{{Column: "point"}}, `"point", which is not a leaf`},
		{[]arrowio.SortingColumn{{Column: "id"}, {Column: "word"}, {Column: "id", Descending: true}}, `"id" twice`},
	} {
		_, err := arrowio.NewWriter(io.Discard, rec.Schema(), arrowio.WriteOptions{SortingColumns: c.cols})
		if !errors.Is(err, arrowio.ErrUnsupported) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("SortingColumns %+v: %v, want ErrUnsupported saying %s", c.cols, err, c.want)
		}
	}
}
