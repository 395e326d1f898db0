package arrowio

import (
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/schema"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/levels"
)

// nestedField is a projected top-level field that the levels package
// assembles: a struct, list or map at any depth.
type nestedField struct {
	// node is the field's plan in the levels package's terms.
	node *levels.Node
	// leaves holds the plans of the leaf columns, in the order of the
	// node's Column indices (column order).
	leaves []*schema.FieldPlan
}

// newNestedField converts plan f into the levels package's plan and
// checks that every leaf can be decoded and the plan assembled.
func newNestedField(f *schema.FieldPlan) (*nestedField, error) {
	nf := &nestedField{}
	nf.node = nf.convert(f)
	for _, l := range nf.leaves {
		if _, err := newTarget(l.Node, l.Field.Type); err != nil {
			return nil, err
		}
	}
	if _, err := levels.NewAssembler(nf.node); err != nil {
		return nil, fmt.Errorf("%w: column %q (%s): %w", errs.ErrUnsupported, f.Node.DottedPath(), f.Field.Type, err)
	}
	return nf, nil
}

// convert returns the levels node of plan f, numbering its leaves.
func (nf *nestedField) convert(f *schema.FieldPlan) *levels.Node {
	n := &levels.Node{
		Name:         f.Node.DottedPath(),
		Type:         f.Field.Type,
		DefLevel:     f.DefLevel,
		RepLevel:     f.RepLevel,
		SlotDefLevel: f.SlotDefLevel,
		ElemDefLevel: f.ElemDefLevel,
		ElemRepLevel: f.ElemRepLevel,
		NullCorrupt:  f.NullCorrupt,
	}
	switch f.Kind {
	case schema.KindLeaf:
		n.Kind, n.Column = levels.Leaf, len(nf.leaves)
		nf.leaves = append(nf.leaves, f)
		return n
	case schema.KindStruct:
		n.Kind = levels.Struct
	case schema.KindList:
		n.Kind = levels.List
	case schema.KindMap:
		n.Kind = levels.Map
	}
	n.Children = make([]*levels.Node, len(f.Children))
	for i, c := range f.Children {
		n.Children[i] = nf.convert(c)
	}
	return n
}

// leafNodes returns the Parquet leaves column c reads, in column order.
func (c *column) leafNodes() []*footer.Node {
	if c.nested == nil {
		return []*footer.Node{c.leaf}
	}
	out := make([]*footer.Node, len(c.nested.leaves))
	for i, l := range c.nested.leaves {
		out[i] = l.Node
	}
	return out
}
