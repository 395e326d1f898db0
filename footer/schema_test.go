package footer

import (
	"errors"
	"strings"
	"testing"
)

func leaf(name string, rep FieldRepetitionType, typ Type) SchemaElement {
	return SchemaElement{Name: name, RepetitionType: Some(rep), Type: Some(typ)}
}

func group(name string, rep FieldRepetitionType, children int32) SchemaElement {
	return SchemaElement{Name: name, RepetitionType: Some(rep), NumChildren: Some(children)}
}

func root(children int32) SchemaElement {
	return SchemaElement{Name: "schema", NumChildren: Some(children)}
}

func TestNewSchemaLevels(t *testing.T) {
	// message schema {
	//   required int64 id;
	//   optional group tags (LIST) { repeated group list { optional binary element; } }
	//   optional group point { required double x; optional double y; }
	//   repeated int32 raw;
	// }
	elems := []SchemaElement{
		root(4),
		leaf("id", RepetitionRequired, TypeInt64),
		group("tags", RepetitionOptional, 1),
		group("list", RepetitionRepeated, 1),
		leaf("element", RepetitionOptional, TypeByteArray),
		group("point", RepetitionOptional, 2),
		leaf("x", RepetitionRequired, TypeDouble),
		leaf("y", RepetitionOptional, TypeDouble),
		leaf("raw", RepetitionRepeated, TypeInt32),
	}
	s, err := NewSchema(elems, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		path           string
		maxDef, maxRep int16
		typ            Type
	}{
		{"id", 0, 0, TypeInt64},
		{"tags.list.element", 3, 1, TypeByteArray},
		{"point.x", 1, 0, TypeDouble},
		{"point.y", 2, 0, TypeDouble},
		{"raw", 1, 1, TypeInt32},
	}
	if len(s.Leaves) != len(want) {
		t.Fatalf("%d leaves, want %d", len(s.Leaves), len(want))
	}
	for i, w := range want {
		l := s.Leaves[i]
		if l.DottedPath() != w.path || l.MaxDef != w.maxDef || l.MaxRep != w.maxRep || l.Physical != w.typ || l.Column != i {
			t.Errorf("leaf %d = %s def=%d rep=%d %v col=%d, want %s def=%d rep=%d %v col=%d",
				i, l.DottedPath(), l.MaxDef, l.MaxRep, l.Physical, l.Column, w.path, w.maxDef, w.maxRep, w.typ, i)
		}
		if s.LeafByPath(w.path) != l {
			t.Errorf("LeafByPath(%q) did not find leaf %d", w.path, i)
		}
	}
	if s.LeafByPath("tags") != nil {
		t.Error("LeafByPath found a group")
	}
	if got := len(s.Root.Children); got != 4 {
		t.Errorf("root has %d children, want 4", got)
	}
	tags := s.Root.Children[1]
	if tags.IsLeaf() || tags.MaxDef != 1 || tags.Children[0].MaxRep != 1 || tags.Children[0].Parent != tags {
		t.Errorf("tags group levels or links wrong: %+v", tags)
	}
}

func TestNewSchemaColumnOrders(t *testing.T) {
	elems := []SchemaElement{root(2), leaf("a", RepetitionRequired, TypeInt32), leaf("b", RepetitionOptional, TypeDouble)}
	orders := []ColumnOrder{{Kind: ColumnOrderTypeDefined}, {Kind: ColumnOrderIEEE754Total}}
	s, err := NewSchema(elems, orders)
	if err != nil {
		t.Fatal(err)
	}
	if s.Leaves[1].Order.Kind != ColumnOrderIEEE754Total {
		t.Errorf("leaf b order = %v", s.Leaves[1].Order.Kind)
	}
	if _, err := NewSchema(elems, orders[:1]); !errors.Is(err, ErrCorrupt) {
		t.Errorf("one order for two leaves: err = %v, want ErrCorrupt", err)
	}
}

func TestNewSchemaEmptyRoot(t *testing.T) {
	s, err := NewSchema([]SchemaElement{root(0)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Leaves) != 0 || len(s.Root.Children) != 0 {
		t.Errorf("empty schema has leaves %d children %d", len(s.Leaves), len(s.Root.Children))
	}
}

func TestNewSchemaMalformed(t *testing.T) {
	flba := leaf("f", RepetitionRequired, TypeFixedLenByteArray)
	noRep := leaf("n", RepetitionRequired, TypeInt32)
	noRep.RepetitionType = Optional[FieldRepetitionType]{}
	badRep := leaf("r", FieldRepetitionType(7), TypeInt32)
	untyped := SchemaElement{Name: "u", RepetitionType: Some(RepetitionRequired)}
	cases := []struct {
		name  string
		elems []SchemaElement
		want  string
	}{
		{"no elements", nil, "no elements"},
		{"primitive root", []SchemaElement{leaf("schema", RepetitionRequired, TypeInt32)}, "not a group"},
		{"root claims too many", []SchemaElement{root(3), leaf("a", RepetitionRequired, TypeInt32)}, "root declares 3 children"},
		{"negative children", []SchemaElement{root(-1)}, "root declares -1"},
		{"group claims too many", []SchemaElement{root(1), group("g", RepetitionOptional, 5), leaf("a", RepetitionRequired, TypeInt32)}, "group declares 5 children"},
		{"group without children", []SchemaElement{root(1), group("g", RepetitionOptional, 0)}, "group declares 0 children"},
		{"leftover elements", []SchemaElement{root(1), leaf("a", RepetitionRequired, TypeInt32), leaf("b", RepetitionRequired, TypeInt32)}, "1 elements follow"},
		{"FLBA without length", []SchemaElement{root(1), flba}, "type_length"},
		{"missing repetition", []SchemaElement{root(1), noRep}, "no repetition"},
		{"unknown repetition", []SchemaElement{root(1), badRep}, "unknown repetition"},
		{"neither group nor leaf", []SchemaElement{root(1), untyped}, "neither a group"},
		{"invalid physical type", []SchemaElement{root(1), leaf("h", RepetitionOptional, Type(-7))}, "invalid physical type Type(-7)"},
		{"siblings run out", []SchemaElement{root(2), group("g", RepetitionOptional, 1), leaf("a", RepetitionRequired, TypeInt32)}, "more children"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewSchema(c.elems, nil)
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want ErrCorrupt mentioning %q", err, c.want)
			}
		})
	}
}

func TestNewSchemaDeepNesting(t *testing.T) {
	// A chain of optional groups one deeper than allowed must be refused
	// before any level overflows; one at the limit is fine.
	chain := func(depth int) []SchemaElement {
		elems := []SchemaElement{root(1)}
		for i := 0; i < depth; i++ {
			elems = append(elems, group("g", RepetitionOptional, 1))
		}
		return append(elems, leaf("v", RepetitionOptional, TypeInt32))
	}
	s, err := NewSchema(chain(maxSchemaDepth-1), nil)
	if err != nil {
		t.Fatalf("depth %d: %v", maxSchemaDepth-1, err)
	}
	if got := s.Leaves[0].MaxDef; got != maxSchemaDepth {
		t.Errorf("max def = %d, want %d", got, maxSchemaDepth)
	}
	if _, err := NewSchema(chain(maxSchemaDepth), nil); !errors.Is(err, ErrCorrupt) {
		t.Errorf("depth %d: err = %v, want ErrCorrupt", maxSchemaDepth, err)
	}
}
