package arrowio

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
// [ErrUnknownColumn] that quotes it.
func (p *schemaPlan) project(paths []string) (*schemaPlan, error) {
	if paths == nil {
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
	out := &schemaPlan{parquet: p.parquet}
	for _, f := range p.fields {
		if c := prune(f, nil, selected, false); c != nil {
			out.fields = append(out.fields, c)
		}
	}
	meta := p.schema.Metadata()
	out.schema = arrow.NewSchema(planFields(out.fields), &meta)
	out.leaves = collectLeaves(out.fields, nil)
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
func anySelected(f *fieldPlan, selected []bool) bool {
	if f.kind == kindLeaf {
		return selected[f.column]
	}
	for _, c := range f.children {
		if anySelected(c, selected) {
			return true
		}
	}
	return false
}

// prune returns a copy of plan f under parent holding only the selected
// leaves (all of them when whole is set), or nil when none is below f.
func prune(f, parent *fieldPlan, selected []bool, whole bool) *fieldPlan {
	if !whole && !anySelected(f, selected) {
		return nil
	}
	c := *f
	c.parent = parent
	if f.kind == kindLeaf {
		return &c
	}
	whole = whole || f.kind == kindMap
	c.children = make([]*fieldPlan, 0, len(f.children))
	for _, k := range f.children {
		if kc := prune(k, &c, selected, whole); kc != nil {
			c.children = append(c.children, kc)
		}
	}
	if !whole {
		c.field.Type = withChildren(f.field.Type, planFields(c.children))
	}
	return &c
}
