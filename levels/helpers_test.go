package levels

import "github.com/apache/arrow-go/v18/arrow"

// planFor returns the plan Parquet's usual mapping gives field f: a
// nullable field is an optional node (one definition level), a list or
// map is a three-level group whose repeated node adds a definition and a
// repetition level, and a map's key is required.
func planFor(f arrow.Field) *Node {
	col := 0
	return planNode(f, 0, 0, 0, &col, true)
}

// requiredPlan is planFor with every node required, whatever the
// field's nullability: a null anywhere is an error to shred.
func requiredPlan(f arrow.Field) *Node {
	col := 0
	return planNode(f, 0, 0, 0, &col, false)
}

func planNode(f arrow.Field, base, slot, rep int16, col *int, optional bool) *Node {
	d := base
	if f.Nullable && optional {
		d++
	}
	n := &Node{Name: f.Name, Type: f.Type, DefLevel: d, RepLevel: rep, SlotDefLevel: slot}
	switch t := storage(f.Type).(type) {
	case *arrow.StructType:
		n.Kind = Struct
		for _, c := range t.Fields() {
			n.Children = append(n.Children, planNode(c, d, slot, rep, col, optional))
		}
	case *arrow.MapType:
		n.Kind, n.ElemDefLevel, n.ElemRepLevel = Map, d+1, rep+1
		entries := &Node{Kind: Struct, Name: "entries", Type: t.Elem(), DefLevel: d + 1, RepLevel: rep + 1, SlotDefLevel: d + 1}
		for _, c := range t.Elem().(*arrow.StructType).Fields() {
			entries.Children = append(entries.Children, planNode(c, d+1, d+1, rep+1, col, optional))
		}
		n.Children = []*Node{entries}
	case arrow.ListLikeType:
		n.Kind, n.ElemDefLevel, n.ElemRepLevel = List, d+1, rep+1
		n.Children = []*Node{planNode(t.ElemField(), d+1, d+1, rep+1, col, optional)}
	default:
		n.Kind, n.Column = Leaf, *col
		*col++
	}
	return n
}
