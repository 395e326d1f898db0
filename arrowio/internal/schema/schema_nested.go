package schema

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/quiverio/quiver/footer"
)

// planBuilder turns the nodes of a footer.Schema into fieldPlans.
type planBuilder struct {
	opts *Options
	kv   []footer.KeyValue // the file's key-value metadata
}

// groupKind is what a group's annotation asks it to become.
type groupKind uint8

const (
	groupStruct groupKind = iota
	groupList
	groupMap
)

// groupAnnotation classifies group n by its LogicalType, or by its
// ConvertedType when the LogicalType is absent or says nothing about
// nesting. MAP_KEY_VALUE outside a MAP counts as MAP (LogicalTypes.md,
// Maps, backward-compatibility rules); inside one, the map builder never
// asks.
func groupAnnotation(n *footer.Node) groupKind {
	switch n.Logical().Kind {
	case footer.LogicalList:
		return groupList
	case footer.LogicalMap:
		return groupMap
	case footer.LogicalVariant, footer.LogicalFile:
		return groupStruct
	}
	if ct, ok := n.Converted().Get(); ok {
		switch ct {
		case footer.ConvertedList:
			return groupList
		case footer.ConvertedMap, footer.ConvertedMapKeyValue:
			return groupMap
		}
	}
	return groupStruct
}

// field maps n, a child of a group, to the plan of the Arrow field it
// becomes. slotDef is the definition level at which the nearest enclosing
// list has an element (0 outside lists).
//
// A repeated n outside a LIST or MAP is "a required list of required
// elements where the element type is the type of the field"
// (LogicalTypes.md, Nested Types): list<name: T not null> not null, where
// T is n's own type (a LIST- or MAP-annotated n thus gives a list of lists
// or maps, the 2-level form rule 3 describes).
func (b *planBuilder) field(n *footer.Node, slotDef int16, parent *FieldPlan) *FieldPlan {
	if n.Repetition != footer.RepetitionRepeated {
		return b.typed(n, slotDef, parent, n.Repetition == footer.RepetitionOptional, true)
	}
	list := &FieldPlan{
		Kind: KindList, Node: n, Parent: parent, Column: -1,
		SlotDefLevel: slotDef, DefLevel: n.MaxDef - 1, RepLevel: n.MaxRep - 1,
		ElemDefLevel: n.MaxDef, ElemRepLevel: n.MaxRep,
	}
	elem := b.typed(n, n.MaxDef, list, false, false)
	list.Children = []*FieldPlan{elem}
	list.Field = arrow.Field{Name: n.Name, Type: arrow.ListOfField(elem.Field), Metadata: metadataOf(fieldIDMeta(n)...)}
	return list
}

// typed maps n's type, ignoring n's repetition, to a plan present from
// definition level n.MaxDef. nullable says whether the Arrow field is;
// ownID whether it carries n's field id (the element of an unannotated
// repeated field leaves the id to the list).
func (b *planBuilder) typed(n *footer.Node, slotDef int16, parent *FieldPlan, nullable, ownID bool) *FieldPlan {
	p := &FieldPlan{Node: n, Parent: parent, Column: -1, SlotDefLevel: slotDef, DefLevel: n.MaxDef, RepLevel: n.MaxRep}
	var meta []string
	if ownID {
		meta = fieldIDMeta(n)
	}
	if n.IsLeaf() {
		dt, extra := leafType(n, b.opts, b.kv)
		p.Kind, p.Column = KindLeaf, n.Column
		p.Field = arrow.Field{Name: n.Name, Type: dt, Nullable: nullable, Metadata: metadataOf(append(meta, extra...)...)}
		return p
	}
	var shaped bool
	switch groupAnnotation(n) {
	case groupList:
		shaped = b.list(p, n)
	case groupMap:
		shaped = b.mapGroup(p, n)
	}
	if shaped {
		var dt arrow.DataType = arrow.ListOfField(p.Children[0].Field)
		if p.Kind == KindMap {
			kids := p.Children[0].Children
			dt = arrow.MapOfFields(kids[0].Field, kids[1].Field)
		}
		p.Field = arrow.Field{Name: n.Name, Type: dt, Nullable: nullable, Metadata: metadataOf(meta...)}
		return p
	}
	// A plain group, or an annotation whose structure does not hold, which
	// is read as the group it is rather than rejected.
	switch lt := n.Logical(); lt.Kind {
	case footer.LogicalVariant, footer.LogicalFile:
		meta = append(meta, LogicalTypeKey, lt.String())
	}
	p.Kind = KindStruct
	p.Children = make([]*FieldPlan, len(n.Children))
	for i, c := range n.Children {
		p.Children[i] = b.field(c, slotDef, p)
	}
	p.Field = arrow.Field{Name: n.Name, Type: arrow.StructOf(PlanFields(p.Children)...), Nullable: nullable, Metadata: metadataOf(meta...)}
	if n.Logical().Kind == footer.LogicalVariant {
		b.variant(p)
	}
	return p
}

// list makes p, the plan of group g, a list when g has the shape of one: a
// single repeated child r. It returns false, touching nothing, for any
// other shape.
//
// The element follows LogicalTypes.md's backward-compatibility rules: r
// itself, with required repetition, when r is a primitive (rule 1), a
// group of several fields (rule 2), a group whose one field is repeated
// (rule 3), or a group named "array" or "<g's name>_tuple" (rule 4); otherwise
// r's one field, with its own repetition (rule 5, the 3-level form).
// Names are not enforced.
func (b *planBuilder) list(p *FieldPlan, g *footer.Node) bool {
	if len(g.Children) != 1 || g.Children[0].Repetition != footer.RepetitionRepeated {
		return false
	}
	r := g.Children[0]
	p.Kind = KindList
	p.ElemDefLevel, p.ElemRepLevel = r.MaxDef, r.MaxRep
	var elem *FieldPlan
	if r.IsLeaf() || len(r.Children) != 1 || r.Children[0].Repetition == footer.RepetitionRepeated ||
		r.Name == "array" || r.Name == g.Name+"_tuple" {
		elem = b.typed(r, r.MaxDef, p, false, true)
	} else {
		elem = b.field(r.Children[0], r.MaxDef, p)
	}
	p.Children = []*FieldPlan{elem}
	return true
}

// mapGroup makes p, the plan of MAP-annotated group m, a map when m has
// the shape of one: a single repeated group of a key and a value. A
// repeated group holding only a key makes a list of the keys, as arrow-go
// and Arrow C++ do (Arrow has no map without values). It returns false,
// touching nothing, for any other shape.
//
// Names are not enforced: the key and value are the first and second
// fields, renamed "key" and "value" as Arrow's map type requires. An
// optional key (not allowed by the spec, written by some Hive-era
// writers) gives a non-nullable key field whose nulls are corrupt.
func (b *planBuilder) mapGroup(p *FieldPlan, m *footer.Node) bool {
	if len(m.Children) != 1 {
		return false
	}
	kv := m.Children[0]
	if kv.Repetition != footer.RepetitionRepeated || kv.IsLeaf() || len(kv.Children) > 2 {
		return false
	}
	if len(kv.Children) == 1 {
		return b.list(p, m)
	}
	p.Kind = KindMap
	p.ElemDefLevel, p.ElemRepLevel = kv.MaxDef, kv.MaxRep
	entries := &FieldPlan{
		Kind: KindStruct, Node: kv, Parent: p, Column: -1,
		SlotDefLevel: kv.MaxDef, DefLevel: kv.MaxDef, RepLevel: kv.MaxRep,
	}
	key := b.field(kv.Children[0], kv.MaxDef, entries)
	if key.Field.Nullable {
		key.Field.Nullable = false
		key.NullCorrupt = true
	}
	value := b.field(kv.Children[1], kv.MaxDef, entries)
	key.Field.Name, value.Field.Name = "key", "value"
	entries.Children = []*FieldPlan{key, value}
	entries.Field = arrow.MapOfFields(key.Field, value.Field).ElemField()
	p.Children = []*FieldPlan{entries}
	return true
}
