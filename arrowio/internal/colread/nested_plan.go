package colread

import (
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/schema"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/quiverio/quiver/levels"
)

// NestedField is a projected top-level field that the levels package
// assembles: a struct, list or map at any depth.
type NestedField struct {
	// Node is the field's plan in the levels package's terms.
	Node *levels.Node
	// Leaves holds the plans of the leaf columns, in the order of the
	// node's Column indices (column order).
	Leaves []*schema.FieldPlan
}

// NewNestedField converts plan f into the levels package's plan and
// checks that every leaf can be decoded and the plan assembled.
func NewNestedField(f *schema.FieldPlan) (*NestedField, error) {
	nf := &NestedField{}
	nf.Node = nf.convert(f)
	for _, l := range nf.Leaves {
		if _, err := NewTarget(l.Node, l.Field.Type); err != nil {
			return nil, err
		}
	}
	if _, err := levels.NewAssembler(nf.Node); err != nil {
		return nil, fmt.Errorf("%w: column %q (%s): %w", errs.ErrUnsupported, f.Node.DottedPath(), f.Field.Type, err)
	}
	return nf, nil
}

// convert returns the levels node of plan f, numbering its leaves.
func (nf *NestedField) convert(f *schema.FieldPlan) *levels.Node {
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
		n.Kind, n.Column = levels.Leaf, len(nf.Leaves)
		nf.Leaves = append(nf.Leaves, f)
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
