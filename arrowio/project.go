package arrowio

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/footer"
)

// project maps the file's schema to Arrow, applies ReadOptions.Columns and
// checks that the reader can decode every projected field.
func project(ft *footer.Footer, opts *ReadOptions) (*arrow.Schema, []column, error) {
	p, err := newSchemaPlan(ft.Schema, ft.Meta.KeyValueMetadata, opts.Mapping).project(opts.Columns)
	if err != nil {
		return nil, nil, err
	}
	cols := make([]column, 0, len(p.fields))
	for _, f := range p.fields {
		if f.kind != kindLeaf {
			nf, err := newNestedField(f)
			if err != nil {
				return nil, nil, err
			}
			cols = append(cols, column{field: f.field, nested: nf})
			continue
		}
		if slices.Contains(opts.Dictionary, f.field.Name) {
			if err := asDictionary(f); err != nil {
				return nil, nil, err
			}
		}
		if _, err := newTarget(f.node, f.field.Type); err != nil {
			return nil, nil, err
		}
		cols = append(cols, column{field: f.field, leaf: f.node})
	}
	return arrow.NewSchema(planFields(p.fields), ptrMeta(p.schema.Metadata())), cols, nil
}

// asDictionary changes a string or binary leaf's type to a dictionary of
// it, for ReadOptions.Dictionary.
func asDictionary(f *fieldPlan) error {
	switch f.field.Type.ID() {
	case arrow.DICTIONARY:
	case arrow.STRING, arrow.BINARY, arrow.LARGE_STRING, arrow.LARGE_BINARY:
		f.field.Type = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: f.field.Type}
	default:
		return fmt.Errorf("%w: column %q of type %s cannot read as a dictionary", ErrUnsupported, f.field.Name, f.field.Type)
	}
	return nil
}

func ptrMeta(m arrow.Metadata) *arrow.Metadata { return &m }
