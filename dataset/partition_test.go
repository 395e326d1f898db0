package dataset

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
)

func TestParseHive(t *testing.T) {
	got, err := parseHive("year=2024/month=03/s=a%2Fb%3Dc%20d+e/n=" + HiveDefaultPartition + "/plain/bad=%zz/part-0.parquet")
	if err != nil {
		t.Fatal(err)
	}
	want := []PartitionValue{{Key: "year", Value: "2024"}, {Key: "month", Value: "03"}, {Key: "s", Value: "a/b=c d+e"}, {Key: "n", Null: true}, {Key: "bad", Value: "%zz"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if _, err := parseHive("a=1/a=2/f.parquet"); !errors.Is(err, ErrPartition) {
		t.Errorf("repeated key: %v", err)
	}
	for _, v := range []string{"a/b=c %x", "100%", "x:y", "\x01\x7f", "é", ""} {
		if got := unescapePart(escapePart(v)); got != v {
			t.Errorf("escape round trip of %q: %q", v, got)
		}
	}
}

func TestInferType(t *testing.T) {
	tsMicros := &arrow.TimestampType{Unit: arrow.Microsecond}
	vals := func(ss ...string) []PartitionValue {
		var out []PartitionValue
		for _, s := range ss {
			if s == "NULL" {
				out = append(out, PartitionValue{Null: true})
			} else {
				out = append(out, PartitionValue{Value: s})
			}
		}
		return out
	}
	for _, tc := range []struct {
		vals []string
		want arrow.DataType
	}{
		{[]string{"2024", "03", "-7", "NULL"}, arrow.PrimitiveTypes.Int64},
		{[]string{"2024-03-01", "NULL", "1999-12-31"}, arrow.FixedWidthTypes.Date32},
		{[]string{"2024-03-01 10:00:00", "2024-03-01T10:00:00.123456"}, tsMicros},
		{[]string{"2024-03-01", "2024-03-01 10:00:00"}, tsMicros},
		{[]string{"1", "x"}, arrow.BinaryTypes.String},
		{[]string{"99999999999999999999"}, arrow.BinaryTypes.String},
		{[]string{"NULL"}, arrow.BinaryTypes.String},
		{[]string{""}, arrow.BinaryTypes.String},
	} {
		if got := inferType(vals(tc.vals...)); !arrow.TypeEqual(got, tc.want) {
			t.Errorf("inferType(%q) = %s, want %s", tc.vals, got, tc.want)
		}
	}
}

// Every layout of a partition column holds the file's value in every row,
// null included, and validates.
func TestPartitionLayouts(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	types := []arrow.DataType{
		arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint16,
		arrow.PrimitiveTypes.Float64, arrow.FixedWidthTypes.Boolean, arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString,
		arrow.BinaryTypes.Binary, arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Timestamp_ms,
	}
	raw := map[arrow.Type]string{arrow.BOOL: "true", arrow.STRING: "a/b", arrow.LARGE_STRING: "x y", arrow.BINARY: "bin",
		arrow.DATE32: "2024-02-29", arrow.TIMESTAMP: "2024-02-29 12:30:00.25"}
	for _, typ := range types {
		v, ok := raw[typ.ID()]
		if !ok {
			v = "42"
		}
		vals, err := buildValues(memory.DefaultAllocator, typ, []PartitionValue{{Key: "k", Value: v}, {Key: "k", Null: true}})
		if err != nil {
			t.Fatal(err)
		}
		for _, enc := range []PartitionEncoding{PartitionDictionary, PartitionRunEndEncoded, PartitionPlain} {
			for _, f := range []int{0, 1} {
				for _, n := range []int{0, 1, 7, 1000} {
					t.Run(fmt.Sprintf("%s/enc=%d/null=%d/n=%d", typ, enc, f, n), func(t *testing.T) {
						one := sliceOne(vals, f)
						defer one.Release()
						a := partitionArray(mem, partitionType(typ, enc), one, n)
						defer a.Release()
						if err := array.ValidateFull(a); err != nil {
							t.Fatal(err)
						}
						if a.Len() != n {
							t.Fatalf("length %d", a.Len())
						}
						want := cell(one, 0)
						for i := range n {
							if got := cell(a, i); got != want {
								t.Fatalf("row %d: %s, want %s", i, got, want)
							}
						}
					})
				}
			}
		}
		vals.Release()
	}
}

// A dataset's partition columns come from its directories: typed,
// URL-unescaped, null for the default partition, in each layout.
func TestReadPartitions(t *testing.T) {
	dir := t.TempDir()
	sc := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	dirs := []string{"year=2024/day=2024-03-01/s=a%2Fb", "year=2024/day=2024-03-02/s=" + HiveDefaultPartition, "year=" + HiveDefaultPartition + "/day=2024-03-02/s=c%20d"}
	for i, d := range dirs {
		writeParquet(t, filepath.Join(dir, d, "part-0.parquet"), arrowio.WriteOptions{}, int64Batch(sc, int64(i*10), 3))
	}
	for _, enc := range []PartitionEncoding{PartitionDictionary, PartitionRunEndEncoded, PartitionPlain} {
		ds, err := Open(context.Background(), nil, []string{dir}, Options{PartitionEncoding: enc})
		if err != nil {
			t.Fatal(err)
		}
		wantTypes := []arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Int64, arrow.FixedWidthTypes.Date32, arrow.BinaryTypes.String}
		for i, f := range ds.Schema().Fields() {
			if vt, e := valueType(f.Type); !arrow.TypeEqual(vt, wantTypes[i]) || i > 0 && e != enc {
				t.Errorf("field %d: %s", i, f.Type)
			}
		}
		rr, _ := ds.RecordReader(context.Background())
		rows := readRows(t, rr)
		want := []string{
			"day=2024-03-01;s=a/b;x=0;year=2024;", "day=2024-03-01;s=a/b;x=1;year=2024;", "day=2024-03-01;s=a/b;x=2;year=2024;",
			"day=2024-03-02;s=c d;x=20;year=null;", "day=2024-03-02;s=c d;x=21;year=null;", "day=2024-03-02;s=c d;x=22;year=null;",
			"day=2024-03-02;s=null;x=10;year=2024;", "day=2024-03-02;s=null;x=11;year=2024;", "day=2024-03-02;s=null;x=12;year=2024;",
		}
		if !slices.Equal(rows, want) {
			t.Errorf("layout %d:\n%q\nwant\n%q", enc, rows, want)
		}
	}
	// Types given by the caller.
	ds, err := Open(context.Background(), nil, []string{dir}, Options{PartitionTypes: map[string]arrow.DataType{"year": arrow.PrimitiveTypes.Int16, "day": arrow.BinaryTypes.String}})
	if err != nil {
		t.Fatal(err)
	}
	if got := ds.Schema().Field(1).Type.String(); got != "dictionary<values=int16, indices=int32, ordered=false>" {
		t.Errorf("year: %s", got)
	}
	if _, err := Open(context.Background(), nil, []string{dir}, Options{PartitionTypes: map[string]arrow.DataType{"s": arrow.PrimitiveTypes.Int16}}); !errors.Is(err, ErrPartition) {
		t.Errorf("unparsable value: %v", err)
	}
	// Different keys in different files.
	writeParquet(t, filepath.Join(dir, "year=2025/part-0.parquet"), arrowio.WriteOptions{}, int64Batch(sc, 0, 1))
	if _, err := Open(context.Background(), nil, []string{dir}, Options{}); !errors.Is(err, ErrPartition) {
		t.Errorf("mismatched keys: %v", err)
	}
	// NoPartitioning reads no keys.
	ds, err = Open(context.Background(), nil, []string{dir}, Options{Partitioning: NoPartitioning})
	if err != nil || ds.Schema().NumFields() != 1 {
		t.Errorf("NoPartitioning: %v %v", ds, err)
	}
}

// int64Batch returns n rows of x = start, start+1, ... in schema sc.
func int64Batch(sc *arrow.Schema, start int64, n int) arrow.RecordBatch {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	for i := range n {
		b.Append(start + int64(i))
	}
	a := b.NewArray()
	defer a.Release()
	return array.NewRecordBatch(sc, []arrow.Array{a}, int64(n))
}
