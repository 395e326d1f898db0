package arrowio

import (
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
		if _, err := newTarget(f.node, f.field.Type); err != nil {
			return nil, nil, err
		}
		cols = append(cols, column{field: f.field, leaf: f.node})
	}
	return p.schema, cols, nil
}
