package levels

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
)

// Kind says how a [Node]'s array is built from the levels of the leaves
// below it.
type Kind uint8

// Node kinds.
const (
	// Leaf is one leaf column: its values, with a slot per entry that
	// reaches it.
	Leaf Kind = iota
	// Struct has one child per field of its struct type; the children
	// have the struct's slots.
	Struct
	// List has one child, the element: Type is a list, large_list,
	// fixed_size_list, list_view or large_list_view.
	List
	// Map has one child, the non-null entries struct of the key and the
	// value; it is assembled like a list of that struct.
	Map
)

// String returns the kind's name.
func (k Kind) String() string {
	switch k {
	case Leaf:
		return "leaf"
	case Struct:
		return "struct"
	case List:
		return "list"
	case Map:
		return "map"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Node describes one Arrow field of a nested column and how the
// definition level d and repetition level r of every leaf entry below it
// decide its slots, nulls and list lengths:
//
//   - The entry gives the node a slot when r <= RepLevel and
//     d >= SlotDefLevel (SlotDefLevel is the definition level at which
//     the nearest enclosing list has an element, 0 outside lists). A
//     top-level node (RepLevel 0, SlotDefLevel 0) has a slot per row.
//   - The slot holds a value when d >= DefLevel and is null otherwise.
//     With NullCorrupt set, d == DefLevel-1 is corrupt instead (an
//     optional Parquet node behind a non-nullable Arrow field, such as an
//     optional map key).
//   - A List or Map node gains an element when r <= ElemRepLevel and
//     d >= ElemDefLevel; ElemDefLevel is DefLevel+1 and ElemRepLevel is
//     RepLevel+1. A present list with no element has d == DefLevel.
//   - A fixed_size_list of size n holds exactly n elements when present;
//     when null, its child has n null slots there (as Arrow lays it out).
//
// A Struct's children have its SlotDefLevel and RepLevel; a List's or
// Map's child has SlotDefLevel ElemDefLevel and RepLevel ElemRepLevel. A
// Leaf's DefLevel and RepLevel are the maximum levels of its column.
type Node struct {
	Kind Kind
	// Name is the field's name, for error messages.
	Name string
	// Type is the field's Arrow type. An extension type is built with the
	// layout of its storage type.
	Type                             arrow.DataType
	DefLevel, RepLevel, SlotDefLevel int16
	// ElemDefLevel and ElemRepLevel are set for List and Map nodes.
	ElemDefLevel, ElemRepLevel int16
	NullCorrupt                bool
	Children                   []*Node
	// Column is a Leaf's index among the leaf columns of the tree, which
	// are numbered 0, 1, ... in any order.
	Column int
}

// layout is how a node's Arrow array is laid out.
type layout uint8

const (
	layoutNull layout = iota
	layoutBool
	layoutFixed // width bytes per value
	layoutBinary32
	layoutBinary64
	// layoutBinaryView is string_view and binary_view: 16-byte views
	// (width) into data buffers the values keep.
	layoutBinaryView
	layoutStruct
	layoutList32
	layoutList64
	layoutView32
	layoutView64
	layoutFixedList
	layoutMap
)

// plan is a Node checked and prepared for assembly.
type plan struct {
	*Node
	layout   layout
	width    int // bytes per value (layoutFixed, layoutBinaryView)
	size     int // elements per list (layoutFixedList)
	parent   *plan
	children []*plan
	// rep is the column of the first leaf below the node, whose levels
	// decide the node's slots.
	rep int
	// pad gives, for an entry with d < SlotDefLevel, the null slots the
	// node gets from a null fixed_size_list above it (reached through
	// structs and fixed-size lists only): padCount[d] slots when
	// r <= padRep[d]. nil when no fixed-size list is above.
	padCount []int
	padRep   []int16
	// elemDef and elemRep are ElemDefLevel and ElemRepLevel for lists and
	// maps, and levels no entry reaches for other kinds, so that a pass
	// can count elements without asking the kind.
	elemDef, elemRep int16
}

// compile checks the tree below root and prepares its plans. leaves
// receives each Leaf's plan at its Column index.
func compile(root *Node) (*plan, []*plan, error) {
	if root == nil {
		return nil, nil, fmt.Errorf("%w: no root node", ErrPlan)
	}
	if root.SlotDefLevel != 0 || root.RepLevel != 0 {
		return nil, nil, fmt.Errorf("%w: top-level field %q has slot definition level %d and repetition level %d, want 0 and 0",
			ErrPlan, root.Name, root.SlotDefLevel, root.RepLevel)
	}
	var leaves []*plan
	p, err := compileNode(root, nil, &leaves, 0)
	if err != nil {
		return nil, nil, err
	}
	for i, l := range leaves {
		if l == nil {
			return nil, nil, fmt.Errorf("%w: leaf columns are numbered up to %d but %d has no leaf", ErrPlan, len(leaves)-1, i)
		}
	}
	return p, leaves, nil
}

// maxDepth bounds the nesting a plan may have; Parquet schemas nest far
// less, and the bound keeps recursion over plans shallow.
const maxDepth = 256

func compileNode(n *Node, parent *plan, leaves *[]*plan, depth int) (*plan, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%w: nesting deeper than %d", ErrPlan, maxDepth)
	}
	if n == nil || n.Type == nil {
		return nil, fmt.Errorf("%w: a node without a type below %q", ErrPlan, parentName(parent))
	}
	p := &plan{Node: n, parent: parent, elemDef: math.MaxInt16, elemRep: -1}
	if n.SlotDefLevel < 0 || n.RepLevel < 0 || n.DefLevel < n.SlotDefLevel {
		return nil, fmt.Errorf("%w: field %q: definition level %d below its slot level %d (repetition level %d)",
			ErrPlan, n.Name, n.DefLevel, n.SlotDefLevel, n.RepLevel)
	}
	st := storage(n.Type)
	if err := p.setLayout(st); err != nil {
		return nil, err
	}
	switch n.Kind {
	case Leaf:
		if len(n.Children) != 0 {
			return nil, fmt.Errorf("%w: leaf %q has children", ErrPlan, n.Name)
		}
		if n.Column < 0 || n.Column > 1<<20 {
			return nil, fmt.Errorf("%w: leaf %q has column %d", ErrPlan, n.Name, n.Column)
		}
		for len(*leaves) <= n.Column {
			*leaves = append(*leaves, nil)
		}
		if (*leaves)[n.Column] != nil {
			return nil, fmt.Errorf("%w: leaves %q and %q share column %d", ErrPlan, (*leaves)[n.Column].Name, n.Name, n.Column)
		}
		(*leaves)[n.Column] = p
		p.rep = n.Column
	case Struct:
		fields := st.(*arrow.StructType).Fields()
		if len(n.Children) == 0 || len(n.Children) != len(fields) {
			return nil, fmt.Errorf("%w: struct %q has %d children for %d fields", ErrPlan, n.Name, len(n.Children), len(fields))
		}
		for i, c := range n.Children {
			if c == nil || c.SlotDefLevel != n.SlotDefLevel || c.RepLevel != n.RepLevel || c.DefLevel < n.DefLevel ||
				!arrow.TypeEqual(c.Type, fields[i].Type) {
				return nil, fmt.Errorf("%w: field %d of struct %q does not nest in it", ErrPlan, i, n.Name)
			}
		}
	case List, Map:
		if len(n.Children) != 1 || n.Children[0] == nil {
			return nil, fmt.Errorf("%w: %s %q needs one child", ErrPlan, n.Kind, n.Name)
		}
		c := n.Children[0]
		if n.ElemDefLevel != n.DefLevel+1 || n.ElemRepLevel != n.RepLevel+1 ||
			c.SlotDefLevel != n.ElemDefLevel || c.RepLevel != n.ElemRepLevel || c.DefLevel < n.ElemDefLevel {
			return nil, fmt.Errorf("%w: %s %q (levels %d/%d, elements %d/%d) and its element (levels %d/%d, slot %d) do not nest",
				ErrPlan, n.Kind, n.Name, n.DefLevel, n.RepLevel, n.ElemDefLevel, n.ElemRepLevel, c.DefLevel, c.RepLevel, c.SlotDefLevel)
		}
		if !arrow.TypeEqual(c.Type, elemType(st)) {
			return nil, fmt.Errorf("%w: element %s of %s %q is not its type's %s", ErrPlan, c.Type, n.Kind, n.Name, elemType(st))
		}
		if n.Kind == Map && (c.Kind != Struct || len(c.Children) != 2 || c.DefLevel != c.SlotDefLevel) {
			return nil, fmt.Errorf("%w: map %q needs a non-null entries struct of two fields", ErrPlan, n.Name)
		}
		p.elemDef, p.elemRep = n.ElemDefLevel, n.ElemRepLevel
	default:
		return nil, fmt.Errorf("%w: field %q has kind %s", ErrPlan, n.Name, n.Kind)
	}
	p.setPadding()
	p.children = make([]*plan, len(n.Children))
	for i, c := range n.Children {
		cp, err := compileNode(c, p, leaves, depth+1)
		if err != nil {
			return nil, err
		}
		p.children[i] = cp
	}
	if n.Kind != Leaf {
		p.rep = p.children[0].rep
	}
	return p, nil
}

func parentName(p *plan) string {
	if p == nil {
		return ""
	}
	return p.Name
}

// storage returns dt's storage type when it is an extension type.
func storage(dt arrow.DataType) arrow.DataType {
	for {
		ext, ok := dt.(arrow.ExtensionType)
		if !ok {
			return dt
		}
		dt = ext.StorageType()
	}
}

// elemType returns the element type of a list-like or map type.
func elemType(st arrow.DataType) arrow.DataType {
	switch t := st.(type) {
	case *arrow.MapType:
		return t.Elem()
	case arrow.ListLikeType:
		return t.Elem()
	}
	return nil
}

// setLayout derives p's layout from st, its storage type, and checks that
// it matches p's kind.
func (p *plan) setLayout(st arrow.DataType) error {
	want := Leaf
	switch st.ID() {
	case arrow.STRUCT:
		p.layout, want = layoutStruct, Struct
	case arrow.MAP:
		p.layout, want = layoutMap, Map
	case arrow.LIST:
		p.layout, want = layoutList32, List
	case arrow.LARGE_LIST:
		p.layout, want = layoutList64, List
	case arrow.LIST_VIEW:
		p.layout, want = layoutView32, List
	case arrow.LARGE_LIST_VIEW:
		p.layout, want = layoutView64, List
	case arrow.FIXED_SIZE_LIST:
		p.layout, want = layoutFixedList, List
		p.size = int(st.(*arrow.FixedSizeListType).Len())
		if p.size < 0 {
			return fmt.Errorf("%w: fixed_size_list %q of size %d", ErrPlan, p.Name, p.size)
		}
	case arrow.NULL:
		p.layout = layoutNull
	case arrow.BOOL:
		p.layout = layoutBool
	case arrow.STRING, arrow.BINARY:
		p.layout = layoutBinary32
	case arrow.LARGE_STRING, arrow.LARGE_BINARY:
		p.layout = layoutBinary64
	case arrow.STRING_VIEW, arrow.BINARY_VIEW:
		p.layout, p.width = layoutBinaryView, arrow.ViewHeaderSizeBytes
	default:
		fw, ok := st.(arrow.FixedWidthDataType)
		if !ok || fw.BitWidth() < 8 || fw.BitWidth()%8 != 0 || st.ID() == arrow.DICTIONARY {
			return fmt.Errorf("%w: field %q of type %s", ErrUnsupported, p.Name, p.Type)
		}
		p.layout, p.width = layoutFixed, fw.BitWidth()/8
	}
	if p.Kind != want {
		return fmt.Errorf("%w: field %q of type %s is a %s node, want %s", ErrPlan, p.Name, p.Type, p.Kind, want)
	}
	return nil
}

// setPadding fills p's padding tables from the fixed-size lists above it.
func (p *plan) setPadding() {
	count := 1
	for a := p.parent; a != nil; a = a.parent {
		if a.layout == layoutStruct {
			continue
		}
		if a.layout != layoutFixedList {
			return
		}
		count *= max(a.size, 0)
		if count > 1<<24 {
			count = 1 << 24 // larger fixed-size lists fail the length checks of the pass
		}
		if p.padCount == nil {
			p.padCount = make([]int, p.SlotDefLevel)
			p.padRep = make([]int16, p.SlotDefLevel)
		}
		// A null slot of a: a.SlotDefLevel <= d < a.DefLevel, r <= a.RepLevel.
		for d := a.SlotDefLevel; d < a.DefLevel && int(d) < len(p.padCount); d++ {
			p.padCount[d], p.padRep[d] = count, a.RepLevel
		}
	}
}
