package dataset

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
)

func TestUnifyType(t *testing.T) {
	i8, i32, i64, u8, u32, u64 := arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64
	f32, f64 := arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64
	str, lstr, vstr := arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString, arrow.BinaryTypes.StringView
	bin, lbin, vbin := arrow.BinaryTypes.Binary, arrow.BinaryTypes.LargeBinary, arrow.BinaryTypes.BinaryView
	null := arrow.Null
	for _, tc := range []struct {
		a, b, want arrow.DataType
	}{
		{i32, i64, i64}, {i64, i32, i64}, {i8, i32, i32}, {u8, i32, i32}, {u32, i32, i64}, {u32, u64, u64},
		{f32, f64, f64}, {str, lstr, lstr}, {vstr, str, str}, {vstr, lstr, lstr}, {vstr, vstr, vstr},
		{bin, lbin, lbin}, {vbin, bin, bin}, {null, i32, i32}, {str, null, str},
		{u64, i64, nil}, {i32, f64, nil}, {str, bin, nil}, {f64, f32, f64},
		{arrow.FixedWidthTypes.Timestamp_ms, arrow.FixedWidthTypes.Timestamp_us, nil},
	} {
		got, ok := unifyType(tc.a, tc.b)
		if tc.want == nil {
			if ok {
				t.Errorf("unifyType(%s, %s) = %s, want none", tc.a, tc.b, got)
			}
			continue
		}
		if !ok || !arrow.TypeEqual(got, tc.want) {
			t.Errorf("unifyType(%s, %s) = %v, want %s", tc.a, tc.b, got, tc.want)
		}
		// Both sides cast to the result with their values.
		for _, from := range []arrow.DataType{tc.a, tc.b} {
			if !canWiden(from, got) {
				t.Errorf("canWiden(%s, %s) is false", from, got)
			}
		}
	}
}

// castArray keeps values and nulls, offsets and slices included.
func TestCastArray(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	build := func(typ arrow.DataType, json string) arrow.Array {
		a, _, err := array.FromJSON(mem, typ, strings.NewReader(json))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, tc := range []struct {
		from, to arrow.DataType
		json     string
	}{
		{arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64, `[1, null, -3, 2147483647, -2147483648]`},
		{arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Int64, `[1, null, 4294967295]`},
		{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, `[-128, null, 127]`},
		{arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, `[1.5, null, -0.25]`},
		{arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString, `["a", null, "", "bcd"]`},
		{arrow.BinaryTypes.StringView, arrow.BinaryTypes.String, `["a", null, "", "a string longer than twelve bytes"]`},
		{arrow.BinaryTypes.StringView, arrow.BinaryTypes.LargeString, `["a", null, "", "a string longer than twelve bytes"]`},
		{arrow.BinaryTypes.Binary, arrow.BinaryTypes.LargeBinary, `["YQ==", null, ""]`},
		{arrow.BinaryTypes.BinaryView, arrow.BinaryTypes.Binary, `["YQ==", null, ""]`},
		{arrow.Null, arrow.BinaryTypes.String, `[null, null]`},
	} {
		a := build(tc.from, tc.json)
		for _, off := range []int{0, 1} {
			s := array.NewSlice(a, int64(off), int64(a.Len()))
			got, err := castArray(mem, s, tc.to)
			if err != nil {
				t.Fatalf("%s -> %s: %v", tc.from, tc.to, err)
			}
			if err := array.ValidateFull(got); err != nil {
				t.Errorf("%s -> %s: %v", tc.from, tc.to, err)
			}
			for i := range s.Len() {
				if cell(got, i) != cell(s, i) {
					t.Errorf("%s -> %s offset %d row %d: %s, want %s", tc.from, tc.to, off, i, cell(got, i), cell(s, i))
				}
			}
			got.Release()
			s.Release()
		}
		a.Release()
	}
}

// Files written with different but compatible schemas read as one:
// narrower types widen, missing columns read as nulls; types that do not
// unify are an error naming both files.
func TestSchemaUnify(t *testing.T) {
	dir := t.TempDir()
	mem := memory.DefaultAllocator
	write := func(name string, fields []arrow.Field, json string) {
		sc := arrow.NewSchema(fields, nil)
		rec, _, err := array.RecordFromJSON(mem, sc, strings.NewReader(json))
		if err != nil {
			t.Fatal(err)
		}
		writeParquet(t, filepath.Join(dir, name), arrowio.WriteOptions{}, rec)
	}
	i32 := arrow.Field{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true}
	i64 := arrow.Field{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true}
	f32 := arrow.Field{Name: "f", Type: arrow.PrimitiveTypes.Float32}
	f64 := arrow.Field{Name: "f", Type: arrow.PrimitiveTypes.Float64}
	s := arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}
	ls := arrow.Field{Name: "s", Type: arrow.BinaryTypes.LargeString, Nullable: true}
	extra := arrow.Field{Name: "extra", Type: arrow.FixedWidthTypes.Boolean}
	write("a.parquet", []arrow.Field{i32, f32, s}, `[{"n": 1, "f": 1.5, "s": "a"}]`)
	write("b.parquet", []arrow.Field{i64, f64, ls, extra}, `[{"n": 5000000000, "f": 2.25, "s": "b", "extra": true}]`)
	write("c.parquet", []arrow.Field{f32}, `[{"f": 3}]`)

	ds, err := Open(context.Background(), nil, []string{dir}, Options{SchemaMode: SchemaUnify})
	if err != nil {
		t.Fatal(err)
	}
	want := "schema:\n  fields: 4\n    - n: type=int64, nullable\n    - f: type=float64\n    - s: type=large_utf8, nullable\n    - extra: type=bool, nullable"
	if got := ds.Schema().String(); got != want {
		t.Errorf("schema:\n%s\nwant\n%s", got, want)
	}
	rr, _ := ds.RecordReader(context.Background())
	rows := readRows(t, rr)
	wantRows := []string{"extra=null;f=1.5;n=1;s=a;", "extra=null;f=3;n=null;s=null;", "extra=true;f=2.25;n=5000000000;s=b;"}
	if !slices.Equal(rows, wantRows) {
		t.Errorf("rows %q\nwant %q", rows, wantRows)
	}

	// From the first file (a.parquet): b's int64 cannot be read as its
	// int32, and the error names both files.
	ds, err = Open(context.Background(), nil, []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rr, _ = ds.RecordReader(context.Background())
	for rr.Next() {
	}
	err = rr.Err()
	rr.Release()
	if !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), "b.parquet") || !strings.Contains(err.Error(), "a.parquet") {
		t.Errorf("first-file schema: %v", err)
	}
	// A caller's schema: a.parquet's narrower columns widen.
	ds, err = Open(context.Background(), nil, []string{dir + "/a.parquet", dir + "/c.parquet"}, Options{Schema: arrow.NewSchema([]arrow.Field{i64, f64, ls}, nil)})
	if err != nil {
		t.Fatal(err)
	}
	rr, _ = ds.RecordReader(context.Background())
	rows = readRows(t, rr)
	if want := []string{"f=1.5;n=1;s=a;", "f=3;n=null;s=null;"}; !slices.Equal(rows, want) {
		t.Errorf("given schema: %q", rows)
	}

	write("d.parquet", []arrow.Field{{Name: "n", Type: arrow.BinaryTypes.String}}, `[{"n": "x"}]`)
	_, err = Open(context.Background(), nil, []string{dir}, Options{SchemaMode: SchemaUnify})
	if !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), "b.parquet") || !strings.Contains(err.Error(), "d.parquet") {
		t.Errorf("incompatible: %v", err)
	}
}
