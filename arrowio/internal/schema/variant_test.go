package schema

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/footer"
)

// vn is a Parquet schema node for the tests of this file: a leaf when
// kids is nil, a group otherwise.
type vn struct {
	name string
	rep  footer.FieldRepetitionType
	phys footer.Type
	size int32 // FIXED_LEN_BYTE_ARRAY width
	lt   footer.LogicalType
	ct   footer.Optional[footer.ConvertedType]
	kids []vn
}

func vleaf(name string, rep footer.FieldRepetitionType, phys footer.Type) vn {
	return vn{name: name, rep: rep, phys: phys}
}

func vgroup(name string, rep footer.FieldRepetitionType, kids ...vn) vn {
	return vn{name: name, rep: rep, kids: kids}
}

func (n vn) with(lt footer.LogicalType) vn { n.lt = lt; return n }

var (
	variantLT = footer.LogicalType{Kind: footer.LogicalVariant, Variant: footer.VariantType{SpecificationVersion: footer.Some(int8(1))}}
	stringLT  = footer.LogicalType{Kind: footer.LogicalString}
	listLT    = footer.LogicalType{Kind: footer.LogicalList}
)

// elements returns n's SchemaElements, depth first.
func (n vn) elements(out []footer.SchemaElement) []footer.SchemaElement {
	e := footer.SchemaElement{Name: n.name, RepetitionType: footer.Some(n.rep), LogicalType: n.lt, ConvertedType: n.ct}
	if n.kids == nil {
		e.Type = footer.Some(n.phys)
		if n.phys == footer.TypeFixedLenByteArray {
			e.TypeLength = footer.Some(n.size)
		}
		if n.lt.Kind == footer.LogicalDecimal {
			e.Precision, e.Scale = footer.Some(n.lt.Decimal.Precision), footer.Some(n.lt.Decimal.Scale)
		}
		return append(out, e)
	}
	e.NumChildren = footer.Some(int32(len(n.kids)))
	out = append(out, e)
	for _, k := range n.kids {
		out = k.elements(out)
	}
	return out
}

// variantPlan maps a schema of the top-level fields top.
func variantPlan(t *testing.T, opts Options, kv []footer.KeyValue, top ...vn) *Plan {
	t.Helper()
	elems := []footer.SchemaElement{{Name: "schema", NumChildren: footer.Some(int32(len(top)))}}
	for _, n := range top {
		elems = n.elements(elems)
	}
	s, err := footer.NewSchema(elems, nil)
	if err != nil {
		t.Fatalf("footer.NewSchema: %v", err)
	}
	return NewPlan(s, kv, opts)
}

// shreddedVariant is a VARIANT group "v" whose typed_value is typed.
func shreddedVariant(typed vn) vn {
	return vgroup("v", footer.RepetitionOptional,
		vleaf("metadata", footer.RepetitionRequired, footer.TypeByteArray),
		vleaf("value", footer.RepetitionOptional, footer.TypeByteArray),
		typed).with(variantLT)
}

// objectField is a shredded object field group of name, with a
// typed_value leaf of physical type phys.
func objectField(name string, rep footer.FieldRepetitionType, typed vn) vn {
	return vgroup(name, rep, vleaf("value", footer.RepetitionOptional, footer.TypeByteArray), typed)
}

func TestVariantReadsAsExtensionType(t *testing.T) {
	bin := arrow.BinaryTypes.Binary
	tests := []struct {
		name string
		node vn
		want arrow.DataType // the variant's storage
	}{
		{
			name: "unshredded",
			node: vgroup("v", footer.RepetitionOptional,
				vleaf("metadata", footer.RepetitionRequired, footer.TypeByteArray),
				vleaf("value", footer.RepetitionRequired, footer.TypeByteArray)).with(variantLT),
			want: arrow.StructOf(arrow.Field{Name: "metadata", Type: bin}, arrow.Field{Name: "value", Type: bin}),
		},
		{
			name: "shredded primitive",
			node: shreddedVariant(vleaf("typed_value", footer.RepetitionOptional, footer.TypeInt64)),
			want: arrow.StructOf(arrow.Field{Name: "metadata", Type: bin}, arrow.Field{Name: "value", Type: bin, Nullable: true},
				arrow.Field{Name: "typed_value", Type: arrow.PrimitiveTypes.Int64, Nullable: true}),
		},
		{
			name: "a required typed_value is nullable",
			node: shreddedVariant(vleaf("typed_value", footer.RepetitionRequired, footer.TypeInt64)),
			want: arrow.StructOf(arrow.Field{Name: "metadata", Type: bin}, arrow.Field{Name: "value", Type: bin, Nullable: true},
				arrow.Field{Name: "typed_value", Type: arrow.PrimitiveTypes.Int64, Nullable: true}),
		},
		{
			name: "shredded object and array",
			node: shreddedVariant(vgroup("typed_value", footer.RepetitionOptional,
				objectField("a", footer.RepetitionRequired, vleaf("typed_value", footer.RepetitionOptional, footer.TypeInt32)),
				objectField("b", footer.RepetitionRequired, vgroup("typed_value", footer.RepetitionOptional,
					vgroup("list", footer.RepetitionRepeated,
						vgroup("element", footer.RepetitionRequired,
							vleaf("value", footer.RepetitionOptional, footer.TypeByteArray),
							vleaf("typed_value", footer.RepetitionOptional, footer.TypeByteArray).with(stringLT)))).with(listLT)))),
			want: arrow.StructOf(arrow.Field{Name: "metadata", Type: bin}, arrow.Field{Name: "value", Type: bin, Nullable: true},
				arrow.Field{Name: "typed_value", Nullable: true, Type: arrow.StructOf(
					arrow.Field{Name: "a", Type: arrow.StructOf(arrow.Field{Name: "value", Type: bin, Nullable: true},
						arrow.Field{Name: "typed_value", Type: arrow.PrimitiveTypes.Int32, Nullable: true})},
					arrow.Field{Name: "b", Type: arrow.StructOf(arrow.Field{Name: "value", Type: bin, Nullable: true},
						arrow.Field{Name: "typed_value", Nullable: true, Type: arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.StructOf(
							arrow.Field{Name: "value", Type: bin, Nullable: true},
							arrow.Field{Name: "typed_value", Type: arrow.BinaryTypes.String, Nullable: true})})})},
				)}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := variantPlan(t, Options{}, nil, tt.node)
			f := p.Schema.Field(0)
			vt, ok := f.Type.(*extensions.VariantType)
			if !ok {
				t.Fatalf("type %s, want the variant extension type", f.Type)
			}
			if !arrow.TypeEqual(vt.StorageType(), tt.want) {
				t.Errorf("storage\n %s\nwant\n %s", vt.StorageType(), tt.want)
			}
			if f.HasMetadata() {
				t.Errorf("metadata %v, want none (no field id)", f.Metadata)
			}
			if _, err := p.Project(nil); err != nil {
				t.Errorf("Project: %v", err)
			}
			if _, err := p.Project([]string{"v"}); err != nil {
				t.Errorf("Project(v): %v", err)
			}
			checkVariantLevels(t, p)
		})
	}
}

// checkVariantLevels checks the level invariants the levels package
// relies on: a child is present no sooner than its parent, a leaf's levels
// are its column's, and non-nullable fields either cannot be null in the
// file or read a null as corrupt or as present.
func checkVariantLevels(t *testing.T, p *Plan) {
	t.Helper()
	var walk func(f *FieldPlan)
	walk = func(f *FieldPlan) {
		if f.SlotDefLevel > f.DefLevel {
			t.Errorf("%q: slot level %d above def level %d", f.Field.Name, f.SlotDefLevel, f.DefLevel)
		}
		if f.Kind == KindLeaf && (f.DefLevel != f.Node.MaxDef || f.RepLevel != f.Node.MaxRep) {
			t.Errorf("leaf %q: levels %d/%d, column %d/%d", f.Field.Name, f.DefLevel, f.RepLevel, f.Node.MaxDef, f.Node.MaxRep)
		}
		for _, c := range f.Children {
			if c.DefLevel < f.DefLevel {
				t.Errorf("%q (def %d) under %q (def %d)", c.Field.Name, c.DefLevel, f.Field.Name, f.DefLevel)
			}
			walk(c)
		}
	}
	for _, f := range p.Fields {
		walk(f)
	}
}

// TestVariantLooseRepetitions checks the repetitions the mapping tightens
// rather than refusing the group: an optional object field group reads as
// present whenever typed_value is (so a null one is a missing field), an
// optional metadata and an optional array element as corrupt when null.
func TestVariantLooseRepetitions(t *testing.T) {
	node := vgroup("v", footer.RepetitionOptional,
		vleaf("metadata", footer.RepetitionOptional, footer.TypeByteArray),
		vleaf("value", footer.RepetitionOptional, footer.TypeByteArray),
		vgroup("typed_value", footer.RepetitionOptional,
			objectField("a", footer.RepetitionOptional, vleaf("typed_value", footer.RepetitionRequired, footer.TypeInt32)),
			objectField("l", footer.RepetitionRequired, vgroup("typed_value", footer.RepetitionOptional,
				vgroup("list", footer.RepetitionRepeated,
					vgroup("element", footer.RepetitionOptional,
						vleaf("value", footer.RepetitionRequired, footer.TypeByteArray),
						vleaf("typed_value", footer.RepetitionOptional, footer.TypeDouble)))).with(listLT)))).with(variantLT)
	p := variantPlan(t, Options{}, nil, node)
	if _, ok := p.Schema.Field(0).Type.(*extensions.VariantType); !ok {
		t.Fatalf("type %s, want the variant extension type", p.Schema.Field(0).Type)
	}
	v := p.Fields[0]
	byPath := map[string]*FieldPlan{}
	var walk func(f *FieldPlan, path string)
	walk = func(f *FieldPlan, path string) {
		byPath[path] = f
		for _, c := range f.Children {
			walk(c, path+"."+c.Field.Name)
		}
	}
	walk(v, "v")
	md, a, aTyped := byPath["v.metadata"], byPath["v.typed_value.a"], byPath["v.typed_value.a.typed_value"]
	elem, elemValue := byPath["v.typed_value.l.typed_value.element"], byPath["v.typed_value.l.typed_value.element.value"]
	if md.Field.Nullable || !md.NullCorrupt {
		t.Errorf("metadata: nullable %v, nullCorrupt %v; want a non-nullable field whose nulls are corrupt", md.Field.Nullable, md.NullCorrupt)
	}
	if a.Field.Nullable || a.NullCorrupt || a.DefLevel != byPath["v.typed_value"].DefLevel {
		t.Errorf("field a: nullable %v, nullCorrupt %v, def %d; want non-nullable, present at typed_value's level %d",
			a.Field.Nullable, a.NullCorrupt, a.DefLevel, byPath["v.typed_value"].DefLevel)
	}
	if !aTyped.Field.Nullable {
		t.Error("a.typed_value below an optional field group: want nullable (a null group is a missing field)")
	}
	if elem.Field.Nullable || !elem.NullCorrupt {
		t.Errorf("element: nullable %v, nullCorrupt %v; want non-nullable, nulls corrupt", elem.Field.Nullable, elem.NullCorrupt)
	}
	if !elemValue.Field.Nullable {
		t.Error("element.value beside a typed_value: want nullable")
	}
	checkVariantLevels(t, p)
}

// TestVariantNotExtensionType checks the groups the extension type cannot
// hold, and Options.VariantStorage: the storage struct with the annotation
// in PARQUET:logical_type.
func TestVariantNotExtensionType(t *testing.T) {
	md := vleaf("metadata", footer.RepetitionRequired, footer.TypeByteArray)
	val := vleaf("value", footer.RepetitionRequired, footer.TypeByteArray)
	tests := []struct {
		name string
		opts Options
		node vn
	}{
		{"storage option", Options{VariantStorage: true}, vgroup("v", footer.RepetitionOptional, md, val).with(variantLT)},
		{"no metadata", Options{}, vgroup("v", footer.RepetitionOptional, val).with(variantLT)},
		{"value not binary", Options{}, vgroup("v", footer.RepetitionOptional, md,
			vleaf("value", footer.RepetitionRequired, footer.TypeInt32)).with(variantLT)},
		{"a fourth field", Options{}, vgroup("v", footer.RepetitionOptional, md, val,
			vleaf("typed_value", footer.RepetitionOptional, footer.TypeInt32),
			vleaf("extra", footer.RepetitionOptional, footer.TypeInt32)).with(variantLT)},
		{"typed_value a map", Options{}, shreddedVariant(vgroup("typed_value", footer.RepetitionOptional,
			vgroup("key_value", footer.RepetitionRepeated,
				vleaf("key", footer.RepetitionRequired, footer.TypeByteArray),
				vleaf("value", footer.RepetitionOptional, footer.TypeInt32))).with(footer.LogicalType{Kind: footer.LogicalMap}))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := variantPlan(t, tt.opts, nil, tt.node)
			f := p.Schema.Field(0)
			if f.Type.ID() != arrow.STRUCT {
				t.Fatalf("type %s, want the storage struct", f.Type)
			}
			if got, _ := f.Metadata.GetValue(LogicalTypeKey); got != "VARIANT(1)" {
				t.Errorf("%s = %q, want VARIANT(1)", LogicalTypeKey, got)
			}
			if _, err := p.Project(nil); err != nil {
				t.Errorf("Project: %v", err)
			}
		})
	}
}

// TestVariantUnshreddableTypes checks that a typed_value leaf outside
// VariantShredding.md's table maps, as pqarrow maps it, but that
// selecting the variant is an error wrapping ErrUnsupported; a projection
// that prunes the variant to its storage reads.
func TestVariantUnshreddableTypes(t *testing.T) {
	typed := func(phys footer.Type, lt footer.LogicalType) vn {
		n := vleaf("typed_value", footer.RepetitionOptional, phys).with(lt)
		if phys == footer.TypeFixedLenByteArray {
			n.size = 4
		}
		return n
	}
	intLT := func(w int8, signed bool) footer.LogicalType {
		return footer.LogicalType{Kind: footer.LogicalInteger, Integer: footer.IntType{BitWidth: w, IsSigned: signed}}
	}
	tsLT := func(u footer.TimeUnit) footer.LogicalType {
		return footer.LogicalType{Kind: footer.LogicalTimestamp, Timestamp: footer.TimestampType{Unit: u, IsAdjustedToUTC: true}}
	}
	bad := map[string]vn{
		"INT(32,unsigned)":     typed(footer.TypeInt32, intLT(32, false)),
		"INT(64,unsigned)":     typed(footer.TypeInt64, intLT(64, false)),
		"FIXED_LEN_BYTE_ARRAY": typed(footer.TypeFixedLenByteArray, footer.LogicalType{}),
		"INT96":                typed(footer.TypeInt96, footer.LogicalType{}),
		"TIMESTAMP(MILLIS)":    typed(footer.TypeInt64, tsLT(footer.TimeUnitMillis)),
		"TIME(MILLIS)":         typed(footer.TypeInt32, footer.LogicalType{Kind: footer.LogicalTime, Time: footer.TimeType{Unit: footer.TimeUnitMillis}}),
		"JSON":                 typed(footer.TypeByteArray, footer.LogicalType{Kind: footer.LogicalJSON}),
		"converted ENUM":       {name: "typed_value", rep: footer.RepetitionOptional, phys: footer.TypeByteArray, ct: footer.Some(footer.ConvertedEnum)},
		"FLOAT16":              {name: "typed_value", rep: footer.RepetitionOptional, phys: footer.TypeFixedLenByteArray, size: 2, lt: footer.LogicalType{Kind: footer.LogicalFloat16}},
		"in an object field": vgroup("typed_value", footer.RepetitionOptional,
			objectField("a", footer.RepetitionRequired, typed(footer.TypeInt32, intLT(8, false)))),
	}
	for name, tv := range bad {
		t.Run(name, func(t *testing.T) {
			p := variantPlan(t, Options{}, nil, shreddedVariant(tv), vleaf("id", footer.RepetitionRequired, footer.TypeInt32))
			if _, ok := p.Schema.Field(0).Type.(*extensions.VariantType); !ok {
				t.Fatalf("type %s, want the variant extension type (as pqarrow maps it)", p.Schema.Field(0).Type)
			}
			for _, cols := range [][]string{nil, {"v"}, {"v", "id"}} {
				_, err := p.Project(cols)
				if !errors.Is(err, errs.ErrUnsupported) || !strings.Contains(err.Error(), "VariantShredding.md") {
					t.Errorf("Project(%q): %v, want an ErrUnsupported naming VariantShredding.md", cols, err)
				}
			}
			for _, cols := range [][]string{{"id"}, {"v.metadata", "v.value"}, {"v.typed_value"}} {
				q, err := p.Project(cols)
				if err != nil {
					t.Errorf("Project(%q): %v", cols, err)
					continue
				}
				if cols[0] != "id" {
					f := q.Schema.Field(0)
					if got, _ := f.Metadata.GetValue(LogicalTypeKey); f.Type.ID() != arrow.STRUCT || got != "VARIANT(1)" {
						t.Errorf("pruned variant: %s %v, want a struct with %s=VARIANT(1)", f.Type, f.Metadata, LogicalTypeKey)
					}
				}
			}
			if _, err := variantPlan(t, Options{VariantStorage: true}, nil, shreddedVariant(tv)).Project(nil); err != nil {
				t.Errorf("VariantStorage: Project: %v", err)
			}
		})
	}
}

// TestVariantShreddableTypes maps a typed_value of every type in
// VariantShredding.md's table and checks that it reads.
func TestVariantShreddableTypes(t *testing.T) {
	leaf := func(phys footer.Type, lt footer.LogicalType) vn {
		n := vleaf("typed_value", footer.RepetitionOptional, phys).with(lt)
		n.size = 16
		return n
	}
	intLT := func(w int8) footer.LogicalType {
		return footer.LogicalType{Kind: footer.LogicalInteger, Integer: footer.IntType{BitWidth: w, IsSigned: true}}
	}
	dec := func(p int32) footer.LogicalType {
		return footer.LogicalType{Kind: footer.LogicalDecimal, Decimal: footer.DecimalType{Precision: p, Scale: 2}}
	}
	ts := func(u footer.TimeUnit, utc bool) footer.LogicalType {
		return footer.LogicalType{Kind: footer.LogicalTimestamp, Timestamp: footer.TimestampType{Unit: u, IsAdjustedToUTC: utc}}
	}
	none := footer.LogicalType{}
	good := []vn{
		leaf(footer.TypeBoolean, none), leaf(footer.TypeInt32, intLT(8)), leaf(footer.TypeInt32, intLT(16)),
		leaf(footer.TypeInt32, none), leaf(footer.TypeInt64, none), leaf(footer.TypeFloat, none), leaf(footer.TypeDouble, none),
		leaf(footer.TypeInt32, dec(9)), leaf(footer.TypeInt64, dec(18)), leaf(footer.TypeFixedLenByteArray, dec(38)),
		leaf(footer.TypeByteArray, dec(38)), leaf(footer.TypeInt32, footer.LogicalType{Kind: footer.LogicalDate}),
		leaf(footer.TypeInt64, footer.LogicalType{Kind: footer.LogicalTime, Time: footer.TimeType{Unit: footer.TimeUnitMicros}}),
		leaf(footer.TypeInt64, ts(footer.TimeUnitMicros, true)), leaf(footer.TypeInt64, ts(footer.TimeUnitNanos, true)),
		leaf(footer.TypeInt64, ts(footer.TimeUnitMicros, false)), leaf(footer.TypeInt64, ts(footer.TimeUnitNanos, false)),
		leaf(footer.TypeByteArray, none), leaf(footer.TypeByteArray, stringLT),
		leaf(footer.TypeFixedLenByteArray, footer.LogicalType{Kind: footer.LogicalUUID}),
		{name: "typed_value", rep: footer.RepetitionOptional, phys: footer.TypeByteArray, ct: footer.Some(footer.ConvertedUTF8)},
	}
	for _, tv := range good {
		p := variantPlan(t, Options{}, nil, shreddedVariant(tv))
		if _, ok := p.Schema.Field(0).Type.(*extensions.VariantType); !ok {
			t.Errorf("%s %s: type %s, want the variant extension type", tv.phys, tv.lt, p.Schema.Field(0).Type)
			continue
		}
		if _, err := p.Project(nil); err != nil {
			t.Errorf("%s %s: Project: %v", tv.phys, tv.lt, err)
		}
	}
}

// TestVariantInsideNesting checks a VARIANT list element and struct field,
// and a repeated VARIANT group.
func TestVariantInsideNesting(t *testing.T) {
	unshredded := func(name string, rep footer.FieldRepetitionType) vn {
		return vgroup(name, rep,
			vleaf("metadata", footer.RepetitionRequired, footer.TypeByteArray),
			vleaf("value", footer.RepetitionRequired, footer.TypeByteArray)).with(variantLT)
	}
	p := variantPlan(t, Options{}, nil,
		vgroup("l", footer.RepetitionOptional, vgroup("list", footer.RepetitionRepeated, unshredded("element", footer.RepetitionOptional))).with(listLT),
		vgroup("s", footer.RepetitionOptional, unshredded("v", footer.RepetitionRequired)),
		unshredded("r", footer.RepetitionRepeated))
	for i, elem := range []func(arrow.DataType) arrow.DataType{
		func(dt arrow.DataType) arrow.DataType { return dt.(*arrow.ListType).Elem() },
		func(dt arrow.DataType) arrow.DataType { return dt.(*arrow.StructType).Field(0).Type },
		func(dt arrow.DataType) arrow.DataType { return dt.(*arrow.ListType).Elem() },
	} {
		if got := elem(p.Schema.Field(i).Type); !isVariant(got) {
			t.Errorf("field %d: %s holds %s, want the variant extension type", i, p.Schema.Field(i).Type, got)
		}
	}
	checkVariantLevels(t, p)
}

// TestVariantArrowSchemaRestore checks that a VARIANT group stays a variant
// under an ARROW:schema entry, whether the entry stores the extension type
// (over a restored storage) or the plain struct.
func TestVariantArrowSchemaRestore(t *testing.T) {
	node := vgroup("v", footer.RepetitionOptional,
		vleaf("metadata", footer.RepetitionRequired, footer.TypeByteArray),
		vleaf("value", footer.RepetitionRequired, footer.TypeByteArray)).with(variantLT)
	large := arrow.StructOf(arrow.Field{Name: "metadata", Type: arrow.BinaryTypes.Binary},
		arrow.Field{Name: "value", Type: arrow.BinaryTypes.LargeBinary})
	vt, err := extensions.NewVariantType(large)
	if err != nil {
		t.Fatal(err)
	}
	for _, stored := range []struct {
		name string
		typ  arrow.DataType
		want arrow.DataType // storage
	}{
		{"extension over large_binary", vt, large},
		{"plain struct", large, large},
		{"default extension", extensions.NewDefaultVariantType(), extensions.NewDefaultVariantType().StorageType()},
	} {
		t.Run(stored.name, func(t *testing.T) {
			enc, err := EncodeArrowSchema(arrow.NewSchema([]arrow.Field{{Name: "v", Type: stored.typ, Nullable: true}}, nil))
			if err != nil {
				t.Fatal(err)
			}
			p := variantPlan(t, Options{}, []footer.KeyValue{{Key: ArrowSchemaKey, Value: footer.Some(enc)}}, node)
			got, ok := p.Schema.Field(0).Type.(*extensions.VariantType)
			if !ok {
				t.Fatalf("type %s, want the variant extension type", p.Schema.Field(0).Type)
			}
			if !arrow.TypeEqual(got.StorageType(), stored.want) {
				t.Errorf("storage %s, want %s", got.StorageType(), stored.want)
			}
		})
	}
}

// TestVariantStorageOptionIgnoresStoredVariant checks that under
// Options.VariantStorage an ARROW:schema entry holding the variant type
// (as Quiver and pqarrow write it) does not bring the type back, and that
// otherwise a restored variant's shredded types are checked as restored.
func TestVariantStorageOptionIgnoresStoredVariant(t *testing.T) {
	node := shreddedVariant(vleaf("typed_value", footer.RepetitionOptional, footer.TypeInt64))
	stored := extensions.NewShreddedVariantType(arrow.PrimitiveTypes.Int64)
	enc, err := EncodeArrowSchema(arrow.NewSchema([]arrow.Field{{Name: "v", Type: stored, Nullable: true}}, nil))
	if err != nil {
		t.Fatal(err)
	}
	kv := []footer.KeyValue{{Key: ArrowSchemaKey, Value: footer.Some(enc)}}
	p := variantPlan(t, Options{VariantStorage: true}, kv, node)
	f := p.Schema.Field(0)
	if lt, _ := f.Metadata.GetValue(LogicalTypeKey); f.Type.ID() != arrow.STRUCT || lt != "VARIANT(1)" {
		t.Errorf("VariantStorage: %s %v, want the storage struct with %s=VARIANT(1)", f.Type, f.Metadata, LogicalTypeKey)
	}
	if p := variantPlan(t, Options{}, kv, node); !isVariant(p.Schema.Field(0).Type) {
		t.Errorf("without VariantStorage: %s, want the variant type", p.Schema.Field(0).Type)
	}

	// A plain group the entry calls a variant, with a typed_value the
	// spec does not allow: the type comes back, and so does the check.
	plain := vgroup("v", footer.RepetitionOptional,
		vleaf("metadata", footer.RepetitionRequired, footer.TypeByteArray),
		vleaf("value", footer.RepetitionOptional, footer.TypeByteArray),
		vleaf("typed_value", footer.RepetitionOptional, footer.TypeInt32).with(footer.LogicalType{Kind: footer.LogicalInteger,
			Integer: footer.IntType{BitWidth: 32, IsSigned: false}}))
	enc, err = EncodeArrowSchema(arrow.NewSchema([]arrow.Field{{Name: "v", Nullable: true,
		Type: extensions.NewShreddedVariantType(arrow.PrimitiveTypes.Uint32)}}, nil))
	if err != nil {
		t.Fatal(err)
	}
	p = variantPlan(t, Options{}, []footer.KeyValue{{Key: ArrowSchemaKey, Value: footer.Some(enc)}}, plain)
	if !isVariant(p.Schema.Field(0).Type) {
		t.Fatalf("stored variant over a plain group: %s, want the variant type", p.Schema.Field(0).Type)
	}
	if _, err := p.Project(nil); !errors.Is(err, errs.ErrUnsupported) {
		t.Errorf("Project: %v, want ErrUnsupported for the uint32 typed_value", err)
	}
}
