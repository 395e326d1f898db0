package schema

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/quiverio/quiver/footer"
)

// ErrUnknownColumn reports a ReadOptions.Columns path that names no field
// of the file's schema.
var ErrUnknownColumn = errors.New("arrowio: unknown column")

// project returns the plan restricted to the columns paths select, or p
// itself when paths is nil.
//
// A path is the dotted Parquet path of a schema node, the form
// footer.Node.DottedPath gives: "a", "a.b", "a.list.element",
// "m.key_value.key". Selecting a group selects every leaf below it. A map
// is read whole when any of its leaves is selected (an Arrow map has both
// keys and values); a struct keeps only the fields with selected leaves,
// and an extension type over a struct so pruned becomes its storage.
// Fields keep the file's order whatever the order of paths. When names
// containing dots make two nodes share a path, the first in schema order
// is meant. A path that names no node is an error wrapping
// [ErrUnknownColumn] that quotes it. A variant pruned to some of its
// columns reads as the storage struct of those, with the VARIANT
// annotation in the PARQUET:logical_type field metadata; a selected
// variant that keeps its type returns its FieldPlan.Err, if any.
func (p *Plan) Project(paths []string) (*Plan, error) {
	if paths == nil {
		if err := plansError(p.Fields); err != nil {
			return nil, err
		}
		return p, nil
	}
	byPath := make(map[string]*footer.Node)
	indexNodes(p.parquet.Root.Children, byPath)
	selected := make([]bool, len(p.parquet.Leaves))
	for _, path := range paths {
		n, ok := byPath[path]
		if !ok {
			return nil, fmt.Errorf("%w: %q is not a column path of the file's schema", ErrUnknownColumn, path)
		}
		markLeaves(n, selected)
	}
	out := &Plan{parquet: p.parquet}
	for _, f := range p.Fields {
		if c := prune(f, nil, selected, false); c != nil {
			out.Fields = append(out.Fields, c)
		}
	}
	meta := p.Schema.Metadata()
	out.Schema = arrow.NewSchema(PlanFields(out.Fields), &meta)
	out.Leaves = collectLeaves(out.Fields, nil)
	if err := plansError(out.Fields); err != nil {
		return nil, err
	}
	return out, nil
}

// indexNodes records the dotted path of every node below, keeping the
// first node of each path.
func indexNodes(nodes []*footer.Node, byPath map[string]*footer.Node) {
	for _, n := range nodes {
		if path := n.DottedPath(); byPath[path] == nil {
			byPath[path] = n
		}
		indexNodes(n.Children, byPath)
	}
}

// markLeaves marks every leaf at or below n.
func markLeaves(n *footer.Node, selected []bool) {
	if n.IsLeaf() {
		selected[n.Column] = true
		return
	}
	for _, c := range n.Children {
		markLeaves(c, selected)
	}
}

// anySelected reports whether a leaf below plan f is selected.
func anySelected(f *FieldPlan, selected []bool) bool {
	if f.Kind == KindLeaf {
		return selected[f.Column]
	}
	for _, c := range f.Children {
		if anySelected(c, selected) {
			return true
		}
	}
	return false
}

// prune returns a copy of plan f under parent holding only the selected
// leaves (all of them when whole is set), or nil when none is below f.
func prune(f, parent *FieldPlan, selected []bool, whole bool) *FieldPlan {
	if !whole && !anySelected(f, selected) {
		return nil
	}
	c := *f
	c.Parent = parent
	if f.Kind == KindLeaf {
		return &c
	}
	whole = whole || f.Kind == KindMap
	c.Children = make([]*FieldPlan, 0, len(f.Children))
	for _, k := range f.Children {
		if kc := prune(k, &c, selected, whole); kc != nil {
			c.Children = append(c.Children, kc)
		}
	}
	if !whole {
		c.Field.Type = WithChildren(f.Field.Type, PlanFields(c.Children))
		if isVariant(f.Field.Type) && !isVariant(c.Field.Type) {
			c.Field.Metadata = mergeMetadata(c.Field.Metadata, metadataOf(LogicalTypeKey, f.Node.Logical().String()))
		}
	}
	return &c
}
