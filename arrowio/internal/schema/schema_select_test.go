package schema

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/quiverio/quiver/footer"
)

// selectSchema has a flat column, a struct with a list of structs, a map, a
// name with a dot, and an extension type over a struct.
func selectSchema(t *testing.T) *Plan {
	i32, ba := footer.TypeInt32, footer.TypeByteArray
	elems := []footer.SchemaElement{rootEl(5),
		leafEl("id", req, footer.TypeInt64),
		groupEl("s", opt, 2),
		/**/ leafEl("a", opt, i32),
		/**/ groupEl("l", opt, 1, kind(footer.LogicalList)), groupEl("list", rpt, 1), groupEl("element", opt, 2),
		/*    */ leafEl("x", opt, i32), leafEl("y", opt, ba),
		groupEl("m", opt, 1, kind(footer.LogicalMap)), groupEl("key_value", rpt, 2),
		/**/ leafEl("key", req, ba, kind(footer.LogicalString)), leafEl("value", opt, i32),
		leafEl("dotted.name", opt, i32),
		groupEl("p", opt, 2), leafEl("u", req, i32), leafEl("v", req, i32),
	}
	// p is stored as an extension type over its struct.
	stored := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
			arrow.Field{Name: "l", Type: arrow.LargeListOfField(elem(arrow.StructOf(
				arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
				arrow.Field{Name: "y", Type: arrow.BinaryTypes.Binary, Nullable: true}), true)), Nullable: true}), Nullable: true},
		{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "dotted.name", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "p", Type: pointExt, Nullable: true},
	}, nil)
	kv := []footer.KeyValue{{Key: ArrowSchemaKey, Value: footer.Some(storedValue(t, stored))}}
	p := testPlan(t, Options{}, kv, elems...)
	if !p.Schema.Equal(stored) {
		t.Fatalf("schema %v, want the stored %v", p.Schema, stored)
	}
	return p
}

// pointType is an extension type over struct<u, v>, registered for the
// projection test.
type pointType struct {
	arrow.ExtensionBase
}

func (*pointType) ExtensionName() string { return "quiver.test.point" }
func (*pointType) Serialize() string     { return "" }
func (p *pointType) ExtensionEquals(o arrow.ExtensionType) bool {
	return o.ExtensionName() == p.ExtensionName()
}
func (*pointType) ArrayType() reflect.Type { return reflect.TypeFor[pointArray]() }

// pointArray is the array type of pointType.
type pointArray struct {
	array.ExtensionArrayBase
}

func (*pointType) Deserialize(storage arrow.DataType, _ string) (arrow.ExtensionType, error) {
	return newPointType(storage), nil
}

func newPointType(storage arrow.DataType) *pointType {
	return &pointType{ExtensionBase: arrow.ExtensionBase{Storage: storage}}
}

var pointExt = func() *pointType {
	p := newPointType(arrow.StructOf(arrow.Field{Name: "u", Type: arrow.PrimitiveTypes.Int32}, arrow.Field{Name: "v", Type: arrow.PrimitiveTypes.Int32}))
	if err := arrow.RegisterExtensionType(p); err != nil {
		panic(err)
	}
	return p
}()

func TestProject(t *testing.T) {
	p := selectSchema(t)
	tests := []struct {
		name    string
		paths   []string
		want    string // the projected schema's fields
		columns []int
	}{
		{"nil selects all", nil, p.Schema.String(), []int{0, 1, 2, 3, 4, 5, 6, 7, 8}},
		{"empty selects none", []string{}, "", nil},
		{"leaf", []string{"id"}, "id: type=int64", []int{0}},
		{"struct child", []string{"s.a"}, "s: type=struct<a: int32 nullable>, nullable", []int{1}},
		{"inside a list", []string{"s.l.list.element.y"},
			"s: type=struct<l: large_list<element: struct<y: binary nullable>, nullable> nullable>, nullable", []int{3}},
		{"whole group", []string{"s"}, p.Schema.Field(1).String(), []int{1, 2, 3}},
		{"map key brings the value", []string{"m.key_value.key"}, p.Schema.Field(2).String(), []int{4, 5}},
		{"name with a dot", []string{"dotted.name"}, "dotted.name: type=int32, nullable", []int{6}},
		{"pruned extension becomes its storage", []string{"p.v"}, "p: type=struct<v: int32>, nullable", []int{8}},
		{"whole extension", []string{"p"}, p.Schema.Field(4).String(), []int{7, 8}},
		{"schema order, duplicates", []string{"dotted.name", "id", "id"}, "id: type=int64\ndotted.name: type=int32, nullable", []int{0, 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := p.Project(tt.paths)
			if err != nil {
				t.Fatal(err)
			}
			var fields []string
			for _, f := range q.Schema.Fields() {
				fields = append(fields, f.String())
			}
			got := strings.Join(fields, "\n")
			want := tt.want
			if tt.paths == nil {
				got = q.Schema.String()
			}
			if got != want {
				t.Errorf("fields:\n%s\nwant:\n%s", got, want)
			}
			var cols []int
			for _, l := range q.Leaves {
				cols = append(cols, l.Column)
			}
			if !equalInts(cols, tt.columns) {
				t.Errorf("columns %v, want %v", cols, tt.columns)
			}
			if !q.Schema.Metadata().Equal(p.Schema.Metadata()) {
				t.Errorf("metadata %v, want %v", q.Schema.Metadata(), p.Schema.Metadata())
			}
			checkPlanInvariants(t, q)
		})
	}
	// Projection copies: the full plan is untouched.
	if _, err := p.Project([]string{"s.a"}); err != nil || p.Fields[1].Children[1].Parent != p.Fields[1] || len(p.Fields[1].Children) != 2 {
		t.Errorf("projection changed the full plan (err %v)", err)
	}
}

func TestProjectUnknown(t *testing.T) {
	p := selectSchema(t)
	for _, path := range []string{"nope", "s.b", "s.l.element", "", "id.x"} {
		if _, err := p.Project([]string{"id", path}); !errors.Is(err, ErrUnknownColumn) || !strings.Contains(err.Error(), `"`+path+`"`) {
			t.Errorf("path %q: err %v, want ErrUnknownColumn quoting it", path, err)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
