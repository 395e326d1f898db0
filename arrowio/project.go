package arrowio

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/footer"
)

// project maps the file's schema to Arrow, applies ReadOptions.Columns and
// checks that the reader can decode every projected field.
func project(ft *footer.Footer, opts *ReadOptions) (*arrow.Schema, []column, error) {
	p, err := newSchemaPlan(ft.Schema, ft.Meta.KeyValueMetadata, opts.Mapping)
	if err != nil {
		return nil, nil, err
	}
	if p, err = p.project(opts.Columns); err != nil {
		return nil, nil, err
	}
	cols := make([]column, 0, len(p.fields))
	for _, f := range p.fields {
		if f.kind != kindLeaf || f.node.MaxRep > 0 || f.node.MaxDef > 1 {
			return nil, nil, fmt.Errorf("%w: column %q is nested (%s); nested columns are not readable yet", ErrUnsupported, f.field.Name, f.field.Type)
		}
		if _, err := newTarget(f.node, f.field.Type); err != nil {
			return nil, nil, err
		}
		cols = append(cols, column{field: f.field, leaf: f.node})
	}
	return p.schema, cols, nil
}
