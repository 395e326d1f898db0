package variantcheck

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Variant bytes (VariantEncoding.md) the tests use.
var (
	// metaAB is metadata version 1, sorted, 1-byte offsets, keys "a", "b".
	metaAB = []byte{0x11, 2, 0, 1, 2, 'a', 'b'}
	// int1 is the int8 1; vnull the Variant null.
	int1  = []byte{3 << 2, 1}
	vnull = []byte{0}
	// objA is {"a": 1} and objB {"b": 1} over metaAB (1-byte ids and
	// offsets), objEmpty {}.
	objA     = []byte{2, 1, 0, 0, 2, 3 << 2, 1}
	objB     = []byte{2, 1, 1, 0, 2, 3 << 2, 1}
	objEmpty = []byte{2, 0, 0}
)

// variantArray builds a variant array of storage type st from rows, JSON
// objects whose binary fields are []byte (base64 in JSON, as arrow-go's
// FromJSON reads binary).
func variantArray(t *testing.T, st *arrow.StructType, rows ...any) arrow.Array {
	t.Helper()
	vt, err := extensions.NewVariantType(st)
	if err != nil {
		t.Fatalf("NewVariantType(%s): %v", st, err)
	}
	js, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	storage, _, err := array.FromJSON(memory.DefaultAllocator, st, strings.NewReader(string(js)))
	if err != nil {
		t.Fatalf("FromJSON: %v", err)
	}
	defer storage.Release()
	return array.NewExtensionArrayWithStorage(vt, storage)
}

type row = map[string]any

func pv(value []byte, typed any) row {
	r := row{"value": nil, "typed_value": typed}
	if value != nil {
		r["value"] = value
	}
	return r
}

func top(meta, value []byte, typed any) row {
	r := pv(value, typed)
	r["metadata"] = meta
	return r
}

var (
	bin         = arrow.BinaryTypes.Binary
	metadataFld = arrow.Field{Name: "metadata", Type: bin}
	valueFld    = arrow.Field{Name: "value", Type: bin, Nullable: true}
)

func typedFld(dt arrow.DataType) arrow.Field {
	return arrow.Field{Name: "typed_value", Type: dt, Nullable: true}
}

func shredded(dt arrow.DataType) *arrow.StructType {
	return arrow.StructOf(metadataFld, valueFld, typedFld(dt))
}

// objectOf is a shredded object type of int32 fields named names.
func objectOf(names ...string) arrow.DataType {
	fs := make([]arrow.Field, len(names))
	for i, n := range names {
		fs[i] = arrow.Field{Name: n, Type: arrow.StructOf(valueFld, typedFld(arrow.PrimitiveTypes.Int32))}
	}
	return arrow.StructOf(fs...)
}

// listOf is a shredded array type of elements shredded as dt.
func listOf(dt arrow.DataType) arrow.DataType {
	return arrow.ListOfNonNullable(arrow.StructOf(valueFld, typedFld(dt)))
}

func TestCheck(t *testing.T) {
	i32 := arrow.PrimitiveTypes.Int32
	tests := []struct {
		name string
		st   *arrow.StructType
		rows []any
		want string // "" for no error, else a piece of it
	}{
		{"unshredded", arrow.StructOf(metadataFld, arrow.Field{Name: "value", Type: bin}),
			[]any{row{"metadata": metaAB, "value": int1}}, ""},
		{"primitive: either", shredded(i32),
			[]any{top(metaAB, nil, 7), top(metaAB, int1, nil), top(metaAB, vnull, nil), top(metaAB, nil, nil)}, ""},
		{"primitive: both", shredded(i32),
			[]any{top(metaAB, nil, 7), top(metaAB, int1, 7)}, "index 1 of the array, the variant: conflicting value and typed_value"},
		{"null rows are not looked at", shredded(i32),
			[]any{nil, top(metaAB, nil, 1)}, ""},
		{"object: typed alone and partially shredded", shredded(objectOf("a")),
			[]any{top(metaAB, nil, row{"a": pv(nil, 1)}), top(metaAB, objB, row{"a": pv(nil, 1)}),
				top(metaAB, objEmpty, row{"a": pv(nil, nil)}), top(metaAB, int1, nil)}, ""},
		{"object: shredded key in value", shredded(objectOf("a")),
			[]any{top(metaAB, objA, row{"a": pv(nil, nil)})}, `value holds field "a"`},
		{"object: value not an object", shredded(objectOf("a")),
			[]any{top(metaAB, int1, row{"a": pv(nil, nil)})}, "non-object value with shredded fields"},
		{"object: value a Variant null", shredded(objectOf("a")),
			[]any{top(metaAB, vnull, row{"a": pv(nil, 2)})}, "non-object value with shredded fields"},
		{"object: field conflict", shredded(objectOf("a", "b")),
			[]any{top(metaAB, nil, row{"a": pv(nil, 1), "b": pv(int1, 2)})}, "typed_value.b: conflicting value and typed_value"},
		{"array: elements, missing ones too", shredded(listOf(i32)),
			[]any{top(metaAB, nil, []any{pv(nil, 1), pv(vnull, nil), pv(nil, nil)}), top(metaAB, int1, nil)}, ""},
		{"array: value beside it", shredded(listOf(i32)),
			[]any{top(metaAB, int1, []any{pv(nil, 1)})}, "the variant: conflicting value and typed_value (an array)"},
		{"array: element conflict", shredded(listOf(i32)),
			[]any{top(metaAB, nil, []any{}), top(metaAB, nil, []any{pv(nil, 1), pv(int1, 2)})},
			"index 1 of the array, typed_value.element: conflicting value and typed_value"},
		{"array of objects", shredded(listOf(objectOf("b"))),
			[]any{top(metaAB, nil, []any{pv(objA, row{"b": pv(nil, 1)}), pv(objB, row{"b": pv(nil, nil)})})},
			`typed_value.element: value holds field "b"`},
		{"object of arrays", shredded(arrow.StructOf(arrow.Field{Name: "a", Type: arrow.StructOf(valueFld, typedFld(listOf(i32)))})),
			[]any{top(metaAB, nil, row{"a": pv(nil, []any{pv(int1, 3)})})}, "typed_value.a.typed_value.element: conflicting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arr := variantArray(t, tt.st, tt.rows...)
			defer arr.Release()
			err := Check(arr)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Check: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrInvalid)):
				t.Errorf("Check: %v, want an ErrInvalid containing %q", err, tt.want)
			}
		})
	}
}

// TestCheckNested checks variants inside lists, structs and maps, and a
// type without variants.
func TestCheckNested(t *testing.T) {
	bad := variantArray(t, shredded(arrow.PrimitiveTypes.Int32), top(metaAB, nil, 1), top(metaAB, int1, 2))
	defer bad.Release()
	vt := bad.DataType()

	offsets := []int32{0, 2}
	list := array.NewListData(array.NewData(arrow.ListOf(vt), 1,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets))}, []arrow.ArrayData{bad.Data()}, 0, 0))
	defer list.Release()
	st, err := array.NewStructArray([]arrow.Array{bad}, []string{"v"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Release()
	for _, a := range []arrow.Array{bad, list, st} {
		if err := Check(a); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Check = %v, want ErrInvalid", a.DataType(), err)
		}
		if !Has(a.DataType()) {
			t.Errorf("Has(%s) = false", a.DataType())
		}
	}
	// The slice without the bad row passes.
	sl := array.NewSlice(st, 0, 1)
	defer sl.Release()
	if err := Check(sl); err != nil {
		t.Errorf("slice of the good row: %v", err)
	}
	ints, _, _ := array.FromJSON(memory.DefaultAllocator, arrow.ListOf(arrow.PrimitiveTypes.Int64), strings.NewReader("[[1]]"))
	defer ints.Release()
	if Has(ints.DataType()) || Check(ints) != nil {
		t.Error("a list of int64 holds no variant")
	}
}

// TestCheckMalformedBytes checks that metadata and object bytes too short
// for what they declare are errors, not panics or reads past the end.
func TestCheckMalformedBytes(t *testing.T) {
	cases := []struct {
		name        string
		meta, value []byte
	}{
		{"empty value", metaAB, []byte{}},
		{"object without a count", metaAB, []byte{2}},
		{"large object without a count", metaAB, []byte{2 | 0x10<<2, 1, 0}},
		{"more fields than bytes", metaAB, []byte{2, 200, 0, 0}},
		{"field id past the dictionary", metaAB, []byte{2, 1, 9, 0, 2, 3 << 2, 1}},
		{"metadata empty", []byte{}, objB},
		{"metadata of version 2", []byte{0x12, 0, 0}, objB},
		{"metadata count past its bytes", []byte{0x11, 200, 0}, objB},
		{"metadata offset past its bytes", []byte{0x11, 1, 0, 9, 'a'}, objB},
		{"metadata offsets out of order", []byte{0x11, 2, 0, 2, 1, 'a', 'b'}, objB},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			arr := variantArray(t, shredded(objectOf("a")), top(c.meta, c.value, row{"a": pv(nil, nil)}))
			defer arr.Release()
			err := Check(arr)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Check = %v, want ErrInvalid", err)
			}
			t.Log(err)
		})
	}
}

// FuzzCheckObject feeds arbitrary metadata and value bytes beside a
// shredded object, the one place Check reads Variant bytes: it must
// return, without panicking, nil or an error wrapping ErrInvalid.
func FuzzCheckObject(f *testing.F) {
	f.Add(metaAB, objB)
	f.Add(metaAB, objA)
	f.Add([]byte{0x51, 1, 0, 0, 0, 1, 0, 'a'}, []byte{2 | 0x1f<<2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	st := shredded(objectOf("a"))
	vt, err := extensions.NewVariantType(st)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, meta, value []byte) {
		if len(value) == 0 {
			value = []byte{2}
		}
		mb := array.NewBinaryBuilder(memory.DefaultAllocator, bin)
		vb := array.NewBinaryBuilder(memory.DefaultAllocator, bin)
		mb.Append(meta)
		vb.Append(value)
		md, vals := mb.NewArray(), vb.NewArray()
		defer md.Release()
		defer vals.Release()
		typed, _, err := array.FromJSON(memory.DefaultAllocator, st.Field(2).Type, strings.NewReader(`[{"a": {"value": null, "typed_value": null}}]`))
		if err != nil {
			t.Fatal(err)
		}
		defer typed.Release()
		storage, err := array.NewStructArrayWithFields([]arrow.Array{md, vals, typed}, st.Fields())
		if err != nil {
			t.Fatal(err)
		}
		defer storage.Release()
		arr := array.NewExtensionArrayWithStorage(vt, storage)
		defer arr.Release()
		if err := Check(arr); err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("Check = %v, want nil or ErrInvalid", err)
		}
	})
}

// TestCheckAllocatesNothingWithoutVariants checks that a nested type
// without variants costs a reader no allocation per batch.
func TestCheckAllocatesNothingWithoutVariants(t *testing.T) {
	dt := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.ListOf(arrow.StructOf(
		arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32})))}, arrow.Field{Name: "b", Type: arrow.FixedWidthTypes.Boolean})
	arr, _, err := array.FromJSON(memory.DefaultAllocator, dt, strings.NewReader(`[{"a": [{"key": "k", "value": [{"x": 1}]}], "b": true}]`))
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	if n := testing.AllocsPerRun(100, func() {
		if Check(arr) != nil {
			t.Fatal("no variant, no error")
		}
	}); n != 0 {
		t.Errorf("Check allocates %v times a call", n)
	}
}
