package schema

import (
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/quiverio/quiver/footer"
)

// TestNestedPlans checks, per shape, the Arrow types and the levels of
// every plan node (see dumpPlan for the format). The shapes are those of
// LogicalTypes.md's Nested Types section, including each backward
// compatibility rule, and the legacy shapes of the conformance corpus.
func TestNestedPlans(t *testing.T) {
	i32, ba := footer.TypeInt32, footer.TypeByteArray
	str := kind(footer.LogicalString)
	tests := []struct {
		name  string
		elems []footer.SchemaElement
		want  string
	}{
		{
			name: "flat",
			elems: []footer.SchemaElement{rootEl(2),
				leafEl("a", req, i32), leafEl("b", opt, ba, str)},
			want: `
a leaf int32 def=0 rep=0 slot=0 col=0
b leaf utf8? def=1 rep=0 slot=0 col=1`,
		},
		{
			name: "struct",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("s", opt, 2), leafEl("x", req, i32), groupEl("t", opt, 1), leafEl("y", opt, i32)},
			want: `
s struct struct<x: int32, t: struct<y: int32 nullable> nullable>? def=1 rep=0 slot=0
  x leaf int32 def=1 rep=0 slot=0 col=0
  t struct struct<y: int32 nullable>? def=2 rep=0 slot=0
    y leaf int32? def=3 rep=0 slot=0 col=1`,
		},
		{
			name: "3-level list, nullable list and elements",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("my_list", opt, 1, kind(footer.LogicalList)), groupEl("list", rpt, 1), leafEl("element", opt, ba, str)},
			want: `
my_list list list<element: utf8, nullable>? def=1 rep=0 slot=0 elem=2/1
  element leaf utf8? def=3 rep=1 slot=2 col=0`,
		},
		{
			name: "3-level list, required list, required elements, converted LIST",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("my_list", req, 1, converted(footer.ConvertedList)), groupEl("list", rpt, 1), leafEl("element", req, ba, str)},
			want: `
my_list list list<element: utf8> def=0 rep=0 slot=0 elem=1/1
  element leaf utf8 def=1 rep=1 slot=1 col=0`,
		},
		{
			name: "list of lists",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("array_of_arrays", opt, 1, kind(footer.LogicalList)), groupEl("list", rpt, 1),
				groupEl("element", req, 1, kind(footer.LogicalList)), groupEl("list", rpt, 1), leafEl("element", req, i32)},
			want: `
array_of_arrays list list<element: list<element: int32>>? def=1 rep=0 slot=0 elem=2/1
  element list list<element: int32> def=2 rep=1 slot=2 elem=3/2
    element leaf int32 def=3 rep=2 slot=3 col=0`,
		},
		{
			name: "names not enforced: repeated group named element",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("my_list", opt, 1, kind(footer.LogicalList)), groupEl("element", rpt, 1), leafEl("str", req, ba, str)},
			want: `
my_list list list<str: utf8>? def=1 rep=0 slot=0 elem=2/1
  str leaf utf8 def=2 rep=1 slot=2 col=0`,
		},
		{
			name: "rule 1: repeated primitive",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("my_list", opt, 1, kind(footer.LogicalList)), leafEl("element", rpt, i32)},
			want: `
my_list list list<element: int32>? def=1 rep=0 slot=0 elem=2/1
  element leaf int32 def=2 rep=1 slot=2 col=0`,
		},
		{
			name: "rule 2: repeated group of several fields",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("my_list", opt, 1, kind(footer.LogicalList)), groupEl("element", rpt, 2),
				leafEl("str", req, ba, str), leafEl("num", req, i32)},
			want: `
my_list list list<element: struct<str: utf8, num: int32>>? def=1 rep=0 slot=0 elem=2/1
  element struct struct<str: utf8, num: int32> def=2 rep=1 slot=2
    str leaf utf8 def=2 rep=1 slot=2 col=0
    num leaf int32 def=2 rep=1 slot=2 col=1`,
		},
		{
			name: "rule 3: one repeated field, LIST-annotated (old_list_structure)",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("a", req, 1, converted(footer.ConvertedList)), groupEl("array", rpt, 1, converted(footer.ConvertedList)),
				leafEl("array", rpt, i32)},
			want: `
a list list<array: list<array: int32>> def=0 rep=0 slot=0 elem=1/1
  array list list<array: int32> def=1 rep=1 slot=1 elem=2/2
    array leaf int32 def=2 rep=2 slot=2 col=0`,
		},
		{
			name: "rule 3: one repeated field, no annotation",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("my_list", opt, 1, kind(footer.LogicalList)), groupEl("bag", rpt, 1), leafEl("x", rpt, i32)},
			want: `
my_list list list<bag: struct<x: list<x: int32>>>? def=1 rep=0 slot=0 elem=2/1
  bag struct struct<x: list<x: int32>> def=2 rep=1 slot=2
    x list list<x: int32> def=2 rep=1 slot=2 elem=3/2
      x leaf int32 def=3 rep=2 slot=3 col=0`,
		},
		{
			name: "rule 4: array",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("my_list", opt, 1, kind(footer.LogicalList)), groupEl("array", rpt, 1), leafEl("str", req, ba, str)},
			want: `
my_list list list<array: struct<str: utf8>>? def=1 rep=0 slot=0 elem=2/1
  array struct struct<str: utf8> def=2 rep=1 slot=2
    str leaf utf8 def=2 rep=1 slot=2 col=0`,
		},
		{
			name: "rule 4: name_tuple",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("my_list", opt, 1, kind(footer.LogicalList)), groupEl("my_list_tuple", rpt, 1), leafEl("str", req, ba, str)},
			want: `
my_list list list<my_list_tuple: struct<str: utf8>>? def=1 rep=0 slot=0 elem=2/1
  my_list_tuple struct struct<str: utf8> def=2 rep=1 slot=2
    str leaf utf8 def=2 rep=1 slot=2 col=0`,
		},
		{
			name: "rule 4 needs the list's own name",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("my_list", opt, 1, kind(footer.LogicalList)), groupEl("other_tuple", rpt, 1), leafEl("str", req, ba, str)},
			want: `
my_list list list<str: utf8>? def=1 rep=0 slot=0 elem=2/1
  str leaf utf8 def=2 rep=1 slot=2 col=0`,
		},
		{
			name: "rule 5: element with its own repetition",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("my_list", opt, 1, kind(footer.LogicalList)), groupEl("element", rpt, 1), leafEl("str", opt, ba, str)},
			want: `
my_list list list<str: utf8, nullable>? def=1 rep=0 slot=0 elem=2/1
  str leaf utf8? def=3 rep=1 slot=2 col=0`,
		},
		{
			name: "repeated primitive without LIST (repeated_primitive_no_list)",
			elems: []footer.SchemaElement{rootEl(2),
				leafEl("Int32_list", rpt, i32), groupEl("g", req, 1), leafEl("s", rpt, ba, converted(footer.ConvertedUTF8))},
			want: `
Int32_list list list<Int32_list: int32> def=0 rep=0 slot=0 elem=1/1
  Int32_list leaf int32 def=1 rep=1 slot=1 col=0
g struct struct<s: list<s: utf8>> def=0 rep=0 slot=0
  s list list<s: utf8> def=0 rep=0 slot=0 elem=1/1
    s leaf utf8 def=1 rep=1 slot=1 col=1`,
		},
		{
			name: "repeated group without LIST (repeated_no_annotation)",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("phoneNumbers", opt, 1), groupEl("phone", rpt, 2),
				leafEl("number", req, footer.TypeInt64), leafEl("kind", opt, ba, converted(footer.ConvertedUTF8))},
			want: `
phoneNumbers struct struct<phone: list<phone: struct<number: int64, kind: utf8 nullable>>>? def=1 rep=0 slot=0
  phone list list<phone: struct<number: int64, kind: utf8 nullable>> def=1 rep=0 slot=0 elem=2/1
    phone struct struct<number: int64, kind: utf8 nullable> def=2 rep=1 slot=2
      number leaf int64 def=2 rep=1 slot=2 col=0
      kind leaf utf8? def=3 rep=1 slot=2 col=1`,
		},
		{
			name: "repeated LIST group outside a list",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("a", rpt, 1, kind(footer.LogicalList)), leafEl("x", rpt, i32)},
			want: `
a list list<a: list<x: int32>> def=0 rep=0 slot=0 elem=1/1
  a list list<x: int32> def=1 rep=1 slot=1 elem=2/2
    x leaf int32 def=2 rep=2 slot=2 col=0`,
		},
		{
			name: "LIST with two children is a struct",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("l", opt, 2, kind(footer.LogicalList)), leafEl("a", rpt, i32), leafEl("b", req, i32)},
			want: `
l struct struct<a: list<a: int32>, b: int32>? def=1 rep=0 slot=0
  a list list<a: int32> def=1 rep=0 slot=0 elem=2/1
    a leaf int32 def=2 rep=1 slot=2 col=0
  b leaf int32 def=1 rep=0 slot=0 col=1`,
		},
		{
			name: "LIST without a repeated child is a struct",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("l", opt, 1, kind(footer.LogicalList)), leafEl("a", opt, i32)},
			want: `
l struct struct<a: int32 nullable>? def=1 rep=0 slot=0
  a leaf int32? def=2 rep=0 slot=0 col=0`,
		},
		{
			name: "map",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("my_map", req, 1, kind(footer.LogicalMap)), groupEl("key_value", rpt, 2),
				leafEl("key", req, ba, str), leafEl("value", opt, i32)},
			want: `
my_map map map<utf8, int32, items_nullable> def=0 rep=0 slot=0 elem=1/1
  entries struct struct<key: utf8, value: int32 nullable> def=1 rep=1 slot=1
    key leaf utf8 def=1 rep=1 slot=1 col=0
    value leaf int32? def=2 rep=1 slot=1 col=1`,
		},
		{
			name: "map names not enforced, required values",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("my_map", opt, 1, converted(footer.ConvertedMap)), groupEl("map", rpt, 2),
				leafEl("str", req, ba, str), leafEl("num", req, i32)},
			want: `
my_map map map<utf8, int32, items_non_nullable>? def=1 rep=0 slot=0 elem=2/1
  entries struct struct<key: utf8, value: int32> def=2 rep=1 slot=2
    key leaf utf8 def=2 rep=1 slot=2 col=0
    value leaf int32 def=2 rep=1 slot=2 col=1`,
		},
		{
			name: "MAP_KEY_VALUE outside MAP",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("my_map", opt, 1, converted(footer.ConvertedMapKeyValue)), groupEl("map", rpt, 2, converted(footer.ConvertedMapKeyValue)),
				leafEl("key", req, ba, str), leafEl("value", opt, i32)},
			want: `
my_map map map<utf8, int32, items_nullable>? def=1 rep=0 slot=0 elem=2/1
  entries struct struct<key: utf8, value: int32 nullable> def=2 rep=1 slot=2
    key leaf utf8 def=2 rep=1 slot=2 col=0
    value leaf int32? def=3 rep=1 slot=2 col=1`,
		},
		{
			name: "map without values is a list of keys (map_no_value)",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("my_map_no_v", req, 1, kind(footer.LogicalMap)), groupEl("key_value", rpt, 1), leafEl("key", req, i32)},
			want: `
my_map_no_v list list<key: int32> def=0 rep=0 slot=0 elem=1/1
  key leaf int32 def=1 rep=1 slot=1 col=0`,
		},
		{
			name: "optional map key (incorrect_map_schema)",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("my_map", opt, 1, kind(footer.LogicalMap)), groupEl("key_value", rpt, 2, converted(footer.ConvertedMapKeyValue)),
				leafEl("key", opt, ba, str), leafEl("value", opt, ba, str)},
			want: `
my_map map map<utf8, utf8, items_nullable>? def=1 rep=0 slot=0 elem=2/1
  entries struct struct<key: utf8, value: utf8 nullable> def=2 rep=1 slot=2
    key leaf utf8 def=3 rep=1 slot=2 col=0 nullCorrupt
    value leaf utf8? def=3 rep=1 slot=2 col=1`,
		},
		{
			name: "map of maps in a list",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("l", opt, 1, kind(footer.LogicalList)), groupEl("list", rpt, 1),
				groupEl("element", opt, 1, kind(footer.LogicalMap)), groupEl("key_value", rpt, 2),
				leafEl("key", req, i32), groupEl("value", opt, 1, kind(footer.LogicalMap)), groupEl("key_value", rpt, 2),
				leafEl("key", req, i32), leafEl("value", req, footer.TypeBoolean)},
			want: `
l list list<element: map<int32, map<int32, bool, items_non_nullable>, items_nullable>, nullable>? def=1 rep=0 slot=0 elem=2/1
  element map map<int32, map<int32, bool, items_non_nullable>, items_nullable>? def=3 rep=1 slot=2 elem=4/2
    entries struct struct<key: int32, value: map<int32, bool, items_non_nullable> nullable> def=4 rep=2 slot=4
      key leaf int32 def=4 rep=2 slot=4 col=0
      value map map<int32, bool, items_non_nullable>? def=5 rep=2 slot=4 elem=6/3
        entries struct struct<key: int32, value: bool> def=6 rep=3 slot=6
          key leaf int32 def=6 rep=3 slot=6 col=1
          value leaf bool def=6 rep=3 slot=6 col=2`,
		},
		{
			name: "MAP with a non-repeated child is a struct",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("m", opt, 1, kind(footer.LogicalMap)), groupEl("kv", opt, 2), leafEl("k", req, i32), leafEl("v", req, i32)},
			want: `
m struct struct<kv: struct<k: int32, v: int32> nullable>? def=1 rep=0 slot=0
  kv struct struct<k: int32, v: int32>? def=2 rep=0 slot=0
    k leaf int32 def=2 rep=0 slot=0 col=0
    v leaf int32 def=2 rep=0 slot=0 col=1`,
		},
		{
			name: "MAP with three fields is a struct of a list",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("m", opt, 1, kind(footer.LogicalMap)), groupEl("kv", rpt, 3),
				leafEl("k", req, i32), leafEl("v", req, i32), leafEl("w", req, i32)},
			want: `
m struct struct<kv: list<kv: struct<k: int32, v: int32, w: int32>>>? def=1 rep=0 slot=0
  kv list list<kv: struct<k: int32, v: int32, w: int32>> def=1 rep=0 slot=0 elem=2/1
    kv struct struct<k: int32, v: int32, w: int32> def=2 rep=1 slot=2
      k leaf int32 def=2 rep=1 slot=2 col=0
      v leaf int32 def=2 rep=1 slot=2 col=1
      w leaf int32 def=2 rep=1 slot=2 col=2`,
		},
		{
			name: "VARIANT group is the variant extension type",
			elems: []footer.SchemaElement{rootEl(1),
				groupEl("v", opt, 2, logical(footer.LogicalType{Kind: footer.LogicalVariant, Variant: footer.VariantType{SpecificationVersion: footer.Some(int8(1))}})),
				leafEl("metadata", req, ba), leafEl("value", opt, ba)},
			want: `
v struct extension<arrow.parquet.variant>? def=1 rep=0 slot=0
  metadata leaf binary def=1 rep=0 slot=0 col=0
  value leaf binary? def=2 rep=0 slot=0 col=1`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := testPlan(t, Options{}, nil, tt.elems...)
			got := strings.TrimSpace(dumpPlan(p.Fields))
			if want := strings.TrimSpace(tt.want); got != want {
				t.Errorf("plan:\n%s\nwant:\n%s", got, want)
			}
			checkPlanInvariants(t, p)
		})
	}
}

// checkPlanInvariants checks what every plan must satisfy: the Arrow
// schema is made of the plans' fields, parents link back, leaves are the
// file's columns in order with the column's levels, and list levels step
// by one.
func checkPlanInvariants(t *testing.T, p *Plan) {
	t.Helper()
	if len(p.Fields) != p.Schema.NumFields() {
		t.Fatalf("%d plans for %d fields", len(p.Fields), p.Schema.NumFields())
	}
	for i, f := range p.Fields {
		if !f.Field.Equal(p.Schema.Field(i)) {
			t.Errorf("field %d: plan %v, schema %v", i, f.Field, p.Schema.Field(i))
		}
	}
	var walk func(f *FieldPlan)
	walk = func(f *FieldPlan) {
		switch f.Kind {
		case KindLeaf:
			if f.DefLevel != f.Node.MaxDef || f.RepLevel != f.Node.MaxRep || f.Column != f.Node.Column {
				t.Errorf("leaf %q: def %d rep %d col %d, node has %d %d %d", f.Field.Name, f.DefLevel, f.RepLevel, f.Column, f.Node.MaxDef, f.Node.MaxRep, f.Node.Column)
			}
		case KindList, KindMap:
			if f.ElemDefLevel != f.DefLevel+1 || f.ElemRepLevel != f.RepLevel+1 || f.Children[0].SlotDefLevel != f.ElemDefLevel || f.Children[0].RepLevel != f.ElemRepLevel {
				t.Errorf("list %q: def %d rep %d elem %d/%d, element slot %d rep %d", f.Field.Name, f.DefLevel, f.RepLevel,
					f.ElemDefLevel, f.ElemRepLevel, f.Children[0].SlotDefLevel, f.Children[0].RepLevel)
			}
		}
		if f.SlotDefLevel > f.DefLevel {
			t.Errorf("%q: slot level %d above its def level %d", f.Field.Name, f.SlotDefLevel, f.DefLevel)
		}
		nested, ok := f.Field.Type.(arrow.NestedType)
		if f.Kind != KindLeaf && (!ok || len(nested.Fields()) != len(f.Children) && f.Kind == KindStruct) {
			t.Errorf("%q: kind %d, type %s", f.Field.Name, f.Kind, f.Field.Type)
		}
		for _, c := range f.Children {
			if c.Parent != f {
				t.Errorf("%q: child %q does not link back", f.Field.Name, c.Field.Name)
			}
			walk(c)
		}
	}
	for _, f := range p.Fields {
		if f.Parent != nil {
			t.Errorf("top-level %q has a parent", f.Field.Name)
		}
		walk(f)
	}
	for i, l := range p.Leaves {
		if i > 0 && p.Leaves[i-1].Column >= l.Column {
			t.Errorf("leaves out of column order: %d then %d", p.Leaves[i-1].Column, l.Column)
		}
	}
}

func TestSchemaMetadata(t *testing.T) {
	kv := []footer.KeyValue{{Key: "writer", Value: footer.Some("x")}, {Key: "novalue"}, {Key: ArrowSchemaKey, Value: footer.Some("!!")}}
	p := testPlan(t, Options{}, kv, rootEl(1), leafEl("a", req, footer.TypeInt32))
	m := p.Schema.Metadata()
	if m.Len() != 2 || m.Keys()[0] != "writer" || m.Values()[0] != "x" || m.Keys()[1] != "novalue" || m.Values()[1] != "" {
		t.Errorf("schema metadata %v, want the file's entries without ARROW:schema", m)
	}
}

// wideElements returns a schema of groups structs, each of an optional
// int64, a string and a list of doubles: 3 leaves per group.
func wideElements(groups int) []footer.SchemaElement {
	elems := []footer.SchemaElement{rootEl(int32(groups))}
	for i := range groups {
		elems = append(elems, groupEl("g"+strconv.Itoa(i), opt, 3),
			leafEl("id", opt, footer.TypeInt64, intLT(64, true)),
			leafEl("name", opt, footer.TypeByteArray, kind(footer.LogicalString)),
			groupEl("xs", opt, 1, kind(footer.LogicalList)), groupEl("list", rpt, 1), leafEl("element", opt, footer.TypeDouble))
	}
	return elems
}

// BenchmarkSchemaPlan times mapping a wide schema, without and with an
// ARROW:schema entry to decode, verify and apply. Bytes are those of the
// footer's schema elements (and the entry), values are leaf columns.
func BenchmarkSchemaPlan(b *testing.B) {
	elems := wideElements(1000)
	s, err := footer.NewSchema(elems, nil)
	if err != nil {
		b.Fatal(err)
	}
	size := len(footer.Marshal(nil, &footer.FileMetaData{Schema: elems}))
	stored := NewPlan(s, nil, Options{}).Schema
	v, err := EncodeArrowSchema(stored)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		kv   []footer.KeyValue
	}{
		{"columns=3000", nil},
		{"columns=3000/arrow-schema", []footer.KeyValue{{Key: ArrowSchemaKey, Value: footer.Some(v)}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(size + len(v)*len(bc.kv)))
			b.ReportAllocs()
			for b.Loop() {
				NewPlan(s, bc.kv, Options{})
			}
			b.ReportMetric(float64(b.N*len(s.Leaves))/b.Elapsed().Seconds(), "values/s")
		})
	}
}

// TestGroupAnnotationMetadata checks that VARIANT and FILE groups, which
// read as structs, keep their annotation in the field metadata next to the
// field id.
func TestGroupAnnotationMetadata(t *testing.T) {
	variant := footer.LogicalType{Kind: footer.LogicalVariant, Variant: footer.VariantType{SpecificationVersion: footer.Some(int8(1))}}
	p := testPlan(t, Options{VariantStorage: true}, nil, rootEl(2),
		groupEl("v", opt, 2, logical(variant), fieldID(4)), leafEl("metadata", req, footer.TypeByteArray), leafEl("value", req, footer.TypeByteArray),
		groupEl("f", opt, 1, kind(footer.LogicalFile)), leafEl("uri", opt, footer.TypeByteArray, kind(footer.LogicalString)))
	want := []arrow.Metadata{
		arrow.NewMetadata([]string{FieldIDKey, LogicalTypeKey}, []string{"4", "VARIANT(1)"}),
		arrow.NewMetadata([]string{LogicalTypeKey}, []string{"FILE"}),
	}
	for i, w := range want {
		if f := p.Schema.Field(i); f.Type.ID() != arrow.STRUCT || !f.Metadata.Equal(w) {
			t.Errorf("field %d: %v %v, want a struct with %v", i, f.Type, f.Metadata, w)
		}
	}
}
