package schema

import (
	"encoding/json"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/footer"
)

// SortingColumnsKey is the Arrow schema metadata key that holds the
// sorting columns every row group of a file declares, as JSON (see
// [WithSortingColumns]).
const SortingColumnsKey = "PARQUET:sorting_columns"

// sortingColumn is one entry of the SortingColumnsKey value.
type sortingColumn struct {
	Column     string `json:"column"`
	Descending bool   `json:"descending"`
	NullsFirst bool   `json:"nulls_first"`
}

// WithSortingColumns returns meta without any SortingColumnsKey entry and,
// when every row group of the file declares the same non-empty sorting
// columns, all naming leaves of s, with one holding them: a JSON array of
// {"column", "descending", "nulls_first"} objects, the column a leaf's
// dotted path.
func WithSortingColumns(meta arrow.Metadata, s *footer.Schema, rgs []footer.RowGroup) arrow.Metadata {
	keys, vals := meta.Keys(), meta.Values()
	if i := meta.FindKey(SortingColumnsKey); i >= 0 {
		keys = slices.Delete(slices.Clone(keys), i, i+1)
		vals = slices.Delete(slices.Clone(vals), i, i+1)
	}
	if v, ok := sortingValue(s, rgs); ok {
		keys = append(slices.Clone(keys), SortingColumnsKey)
		vals = append(slices.Clone(vals), v)
	}
	if len(keys) == 0 {
		return arrow.Metadata{}
	}
	return arrow.NewMetadata(keys, vals)
}

// sortingValue returns the SortingColumnsKey value of a file whose row
// groups agree on their sorting columns.
func sortingValue(s *footer.Schema, rgs []footer.RowGroup) (string, bool) {
	if len(rgs) == 0 || len(rgs[0].SortingColumns) == 0 {
		return "", false
	}
	first := rgs[0].SortingColumns
	for _, rg := range rgs[1:] {
		if !slices.Equal(rg.SortingColumns, first) {
			return "", false
		}
	}
	out := make([]sortingColumn, len(first))
	for i, sc := range first {
		if sc.ColumnIdx < 0 || int(sc.ColumnIdx) >= len(s.Leaves) {
			return "", false
		}
		out[i] = sortingColumn{Column: s.Leaves[sc.ColumnIdx].DottedPath(), Descending: sc.Descending, NullsFirst: sc.NullsFirst}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return "", false
	}
	return string(b), true
}
