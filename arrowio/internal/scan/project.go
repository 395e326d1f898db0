package scan

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/arrowio/internal/colread"
	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/arrowio/internal/schema"
	"github.com/quiverio/quiver/footer"
)

// project maps the file's schema to Arrow, applies ReadOptions.Columns and
// checks that the reader can decode every projected field.
func project(ft *footer.Footer, opts *Options) (*arrow.Schema, []column, error) {
	p, err := schema.NewPlan(ft.Schema, ft.Meta.KeyValueMetadata, opts.Mapping).Project(opts.Columns)
	if err != nil {
		return nil, nil, err
	}
	cols := make([]column, 0, len(p.Fields))
	for _, f := range p.Fields {
		if f.Kind != schema.KindLeaf {
			nf, err := colread.NewNestedField(f)
			if err != nil {
				return nil, nil, err
			}
			cols = append(cols, column{field: f.Field, Nested: nf})
			continue
		}
		if slices.Contains(opts.Dictionary, f.Field.Name) {
			if err := asDictionary(f); err != nil {
				return nil, nil, err
			}
		}
		if _, err := colread.NewTarget(f.Node, f.Field.Type); err != nil {
			return nil, nil, err
		}
		cols = append(cols, column{field: f.Field, leaf: f.Node})
	}
	meta := schema.WithSortingColumns(p.Schema.Metadata(), ft.Schema, ft.Meta.RowGroups)
	return arrow.NewSchema(schema.PlanFields(p.Fields), ptrMeta(meta)), cols, nil
}

// asDictionary changes a string or binary leaf's type to a dictionary of
// it, for ReadOptions.Dictionary.
func asDictionary(f *schema.FieldPlan) error {
	switch f.Field.Type.ID() {
	case arrow.DICTIONARY:
	case arrow.STRING, arrow.BINARY, arrow.LARGE_STRING, arrow.LARGE_BINARY:
		f.Field.Type = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: f.Field.Type}
	default:
		return fmt.Errorf("%w: column %q of type %s cannot read as a dictionary", errs.ErrUnsupported, f.Field.Name, f.Field.Type)
	}
	return nil
}

func ptrMeta(m arrow.Metadata) *arrow.Metadata { return &m }
