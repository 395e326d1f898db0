package footer

import (
	"fmt"
	"strings"
)

// maxSchemaDepth bounds how deeply groups may nest. Definition and repetition
// levels are int16 in Quiver, and no real schema comes near this depth; a
// hostile footer that nests further is rejected before levels could overflow.
const maxSchemaDepth = 1000

// Schema is the tree form of a file's flat SchemaElement list.
//
// Root is the unnamed top-level group; Leaves lists the primitive columns in
// file order, so Leaves[i] describes the i-th ColumnChunk of every row group.
type Schema struct {
	Root   *Node
	Leaves []*Node
}

// Node is one field of a [Schema]: a group (with Children) or a leaf column.
type Node struct {
	// Element is the SchemaElement this node was built from.
	Element *SchemaElement
	// Name is the field name; the root's name is whatever the writer chose.
	Name string
	// Path holds the names from the root's child down to this node.
	Path []string
	// Parent is nil for the root.
	Parent   *Node
	Children []*Node
	// Repetition is RepetitionRequired for the root.
	Repetition FieldRepetitionType
	// MaxDef and MaxRep are the highest definition and repetition levels a
	// value at this node can carry.
	MaxDef, MaxRep int16

	// Leaf-only facts.

	// Column is this leaf's index in Schema.Leaves and in each row group's
	// Columns; -1 for groups.
	Column int
	// Physical is the leaf's physical type.
	Physical Type
	// TypeLength is the byte width of FIXED_LEN_BYTE_ARRAY values.
	TypeLength int32
	// Order is the sort order the writer used for this leaf's statistics;
	// Kind is zero when the footer gives no column orders.
	Order ColumnOrder
}

// IsLeaf reports whether n is a primitive column.
func (n *Node) IsLeaf() bool { return n.Column >= 0 }

// DottedPath joins Path with dots, the form ReadOptions.Columns uses.
func (n *Node) DottedPath() string { return strings.Join(n.Path, ".") }

// Logical returns the node's logical type annotation (Kind is LogicalNone
// when the element has none).
func (n *Node) Logical() LogicalType { return n.Element.LogicalType }

// Converted returns the node's legacy converted type annotation.
func (n *Node) Converted() Optional[ConvertedType] { return n.Element.ConvertedType }

// LeafByPath returns the leaf whose dotted path is path, or nil.
func (s *Schema) LeafByPath(path string) *Node {
	for _, l := range s.Leaves {
		if l.DottedPath() == path {
			return l
		}
	}
	return nil
}

// NewSchema builds the tree for elems, the depth-first SchemaElement list of
// a FileMetaData, and attaches orders (the footer's column_orders, one per
// leaf, or nil) to the leaves. The returned nodes point into elems.
//
// A malformed list is an error wrapping [ErrCorrupt] that names the element:
// a root that is not a group, a group that declares no children or more
// children than the list holds, elements left over after the tree, a leaf
// without a physical type, a non-root element without a repetition type, a
// nesting deeper than the levels can count, an invalid physical type, or a column order count that
// differs from the leaf count.
func NewSchema(elems []SchemaElement, orders []ColumnOrder) (*Schema, error) {
	if len(elems) == 0 {
		return nil, fmt.Errorf("%w: schema: no elements", ErrCorrupt)
	}
	root := &elems[0]
	nc, isGroup := root.NumChildren.Get()
	if !isGroup {
		if root.Type.Set {
			return nil, fmt.Errorf("%w: schema: root element %q is a primitive, not a group", ErrCorrupt, root.Name)
		}
		// A root with neither type nor child count is read as an empty group.
		nc = 0
	}
	if nc < 0 || int(nc) > len(elems)-1 {
		return nil, fmt.Errorf("%w: schema: root declares %d children, %d elements follow", ErrCorrupt, nc, len(elems)-1)
	}
	s := &Schema{Root: &Node{Element: root, Name: root.Name, Repetition: RepetitionRequired, Column: -1}}
	nodes := make([]Node, len(elems)-1) // one allocation for every non-root node

	// Depth-first over the flat list with an explicit stack of open groups,
	// so a hostile footer cannot exhaust the goroutine stack.
	type open struct {
		n    *Node
		left int32 // children still to come
	}
	stack := []open{{s.Root, nc}}
	next := 1
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.left == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		top.left--
		if next >= len(elems) {
			return nil, fmt.Errorf("%w: schema: group %q declares more children than the list holds", ErrCorrupt, top.n.Name)
		}
		e := &elems[next]
		n := &nodes[next-1]
		next++
		if err := initNode(n, e, top.n); err != nil {
			return nil, fmt.Errorf("%w: schema element %d (%q): %w", ErrCorrupt, next-1, e.Name, err)
		}
		top.n.Children = append(top.n.Children, n)
		if k, ok := e.NumChildren.Get(); ok && !(k == 0 && e.Type.Set) {
			if k <= 0 || int(k) > len(elems)-next {
				return nil, fmt.Errorf("%w: schema element %d (%q): group declares %d children, %d elements follow", ErrCorrupt, next-1, e.Name, k, len(elems)-next)
			}
			if len(stack) >= maxSchemaDepth {
				return nil, fmt.Errorf("%w: schema element %d (%q): groups nest deeper than %d", ErrCorrupt, next-1, e.Name, maxSchemaDepth)
			}
			n.Children = make([]*Node, 0, k)
			stack = append(stack, open{n, k})
			continue
		}
		if !e.Type.Set {
			return nil, fmt.Errorf("%w: schema element %d (%q): neither a group nor a typed leaf", ErrCorrupt, next-1, e.Name)
		}
		n.Column = len(s.Leaves)
		n.Physical = e.Type.Value
		if n.Physical < TypeBoolean || n.Physical > TypeFixedLenByteArray {
			return nil, fmt.Errorf("%w: schema element %d (%q): invalid physical type %v", ErrCorrupt, next-1, e.Name, n.Physical)
		}
		if n.Physical == TypeFixedLenByteArray {
			tl, ok := e.TypeLength.Get()
			if !ok || tl <= 0 {
				return nil, fmt.Errorf("%w: schema element %d (%q): FIXED_LEN_BYTE_ARRAY needs a positive type_length, has %d", ErrCorrupt, next-1, e.Name, tl)
			}
			n.TypeLength = tl
		}
		s.Leaves = append(s.Leaves, n)
	}
	if next != len(elems) {
		return nil, fmt.Errorf("%w: schema: %d elements follow the end of the tree", ErrCorrupt, len(elems)-next)
	}
	if orders != nil {
		if len(orders) != len(s.Leaves) {
			return nil, fmt.Errorf("%w: schema: %d column orders for %d leaf columns", ErrCorrupt, len(orders), len(s.Leaves))
		}
		for i, l := range s.Leaves {
			l.Order = orders[i]
		}
	}
	return s, nil
}

// initNode fills n from e under parent: name, path and levels.
func initNode(n *Node, e *SchemaElement, parent *Node) error {
	rep, ok := e.RepetitionType.Get()
	if !ok {
		return fmt.Errorf("no repetition type")
	}
	*n = Node{
		Element:    e,
		Name:       e.Name,
		Parent:     parent,
		Repetition: rep,
		MaxDef:     parent.MaxDef,
		MaxRep:     parent.MaxRep,
		Column:     -1,
	}
	n.Path = make([]string, len(parent.Path)+1)
	copy(n.Path, parent.Path)
	n.Path[len(parent.Path)] = e.Name
	switch rep {
	case RepetitionRequired:
	case RepetitionOptional:
		n.MaxDef++
	case RepetitionRepeated:
		n.MaxDef++
		n.MaxRep++
	default:
		return fmt.Errorf("unknown repetition type %v", rep)
	}
	return nil
}
