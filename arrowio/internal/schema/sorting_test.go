package schema

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/footer"
)

func TestWithSortingColumns(t *testing.T) {
	s, err := footer.NewSchema([]footer.SchemaElement{rootEl(2),
		leafEl("a", footer.RepetitionRequired, footer.TypeInt32),
		groupEl("g", footer.RepetitionOptional, 1),
		leafEl("b", footer.RepetitionOptional, footer.TypeInt64)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sorted := []footer.SortingColumn{{ColumnIdx: 1, Descending: true}, {ColumnIdx: 0, NullsFirst: true}}
	stale := arrow.NewMetadata([]string{"x", SortingColumnsKey}, []string{"1", "old"})
	for _, c := range []struct {
		name string
		rgs  []footer.RowGroup
		want string // "" for no key
	}{
		{"agree", []footer.RowGroup{{SortingColumns: sorted}, {SortingColumns: sorted}},
			`[{"column":"g.b","descending":true,"nulls_first":false},{"column":"a","descending":false,"nulls_first":true}]`},
		{"differ", []footer.RowGroup{{SortingColumns: sorted}, {SortingColumns: sorted[:1]}}, ""},
		{"one without", []footer.RowGroup{{SortingColumns: sorted}, {}}, ""},
		{"no row groups", nil, ""},
		{"column out of range", []footer.RowGroup{{SortingColumns: []footer.SortingColumn{{ColumnIdx: 2}}}}, ""},
		{"negative column", []footer.RowGroup{{SortingColumns: []footer.SortingColumn{{ColumnIdx: -1}}}}, ""},
	} {
		got := WithSortingColumns(stale, s, c.rgs)
		v, ok := got.GetValue(SortingColumnsKey)
		if c.want == "" && ok || c.want != "" && v != c.want {
			t.Errorf("%s: %s = %q (%v), want %q", c.name, SortingColumnsKey, v, ok, c.want)
		}
		if x, _ := got.GetValue("x"); x != "1" {
			t.Errorf("%s: other keys lost: %v", c.name, got)
		}
	}
}
