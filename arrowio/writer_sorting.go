package arrowio

import (
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/arrowio/internal/schema"
	"github.com/quiverio/quiver/footer"
)

// SortingColumnsKey is the Arrow schema metadata key under which a Reader
// gives the sorting columns that every row group of the file declares
// (none when they differ between row groups, or a row group has none):
// a JSON array of {"column": dotted path, "descending": bool,
// "nulls_first": bool} objects, in sort-key order. It replaces an entry
// of that name in the file's metadata.
const SortingColumnsKey = schema.SortingColumnsKey

// sortingColumns checks that each sorting column names a distinct leaf of
// tree and returns them as the footer holds them.
func sortingColumns(tree *footer.Schema, cols []SortingColumn) ([]footer.SortingColumn, error) {
	if len(cols) == 0 {
		return nil, nil
	}
	out := make([]footer.SortingColumn, 0, len(cols))
	seen := make(map[int]bool, len(cols))
	for _, sc := range cols {
		n := tree.LeafByPath(sc.Column)
		if n == nil {
			return nil, fmt.Errorf("%w: WriteOptions.SortingColumns names %q, which is not a leaf column", errs.ErrUnsupported, sc.Column)
		}
		if seen[n.Column] {
			return nil, fmt.Errorf("%w: WriteOptions.SortingColumns names %q twice", errs.ErrUnsupported, sc.Column)
		}
		seen[n.Column] = true
		out = append(out, footer.SortingColumn{ColumnIdx: int32(n.Column), Descending: sc.Descending, NullsFirst: sc.NullsFirst})
	}
	return out, nil
}
