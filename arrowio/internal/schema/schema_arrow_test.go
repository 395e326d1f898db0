package schema

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/quiverio/quiver/footer"
)

// pqarrowReadDiffs lists the fields of a pqarrow-written file (with the
// Arrow schema stored) that we read differently from pqarrow, with the
// reason.
var pqarrowReadDiffs = map[string]string{
	"ts_s_tz":    "the time zone is restored although the writer coerced seconds to milliseconds (as Arrow C++ does); pqarrow keeps tz=UTC",
	"dict_large": "a dictionary's stored value type is restored too (large_string); pqarrow keeps string",
	"json":       "JSON reads as string, over which the stored arrow.json extension applies; pqarrow reads binary and drops the extension",
	"bool8":      "an extension whose storage needs no change (int8) is restored, as in Arrow C++; pqarrow only restores extensions whose storage it modified",
}

// TestArrowSchemaFromPqarrowFiles reads the schema of files pqarrow wrote
// with the Arrow schema stored, and compares with what pqarrow reads.
func TestArrowSchemaFromPqarrowFiles(t *testing.T) {
	s := arrow.NewSchema(pqarrowFields(), nil)
	b := pqarrowFile(t, s)
	ft := readFooterBytes(t, b)
	ours := ArrowSchema(ft.Schema, ft.Meta.KeyValueMetadata, Options{})
	theirs := pqarrowRead(t, b)
	for i := range theirs.NumFields() {
		of, tf := ours.Field(i), withoutUnsetIDs(theirs.Field(i))
		if _, listed := pqarrowReadDiffs[of.Name]; of.Equal(tf) == listed {
			t.Errorf("field %d (listed as different: %v):\n ours:    %v\n pqarrow: %v", i, listed, of, tf)
		}
	}
}

// storedValue returns the ARROW:schema value our writer stores for s.
func storedValue(t *testing.T, s *arrow.Schema) string {
	t.Helper()
	v, err := EncodeArrowSchema(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestDecodeArrowSchemaFraming(t *testing.T) {
	s := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.BinaryTypes.LargeString, Nullable: true}}, nil)
	raw, err := base64.StdEncoding.DecodeString(storedValue(t, s))
	if err != nil {
		t.Fatal(err)
	}
	if string(raw[:4]) != "\xff\xff\xff\xff" {
		t.Fatalf("the IPC stream does not start with the continuation marker: % x", raw[:8])
	}
	values := map[string]string{
		"padded":         base64.StdEncoding.EncodeToString(raw),
		"unpadded":       base64.RawStdEncoding.EncodeToString(raw),
		"legacy framing": base64.StdEncoding.EncodeToString(raw[4:]),
	}
	for name, v := range values {
		t.Run(name, func(t *testing.T) {
			got, err := DecodeArrowSchema(v)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(s) {
				t.Errorf("decoded %v, want %v", got, s)
			}
		})
	}
}

func TestDecodeArrowSchemaErrors(t *testing.T) {
	raw, err := base64.StdEncoding.DecodeString(storedValue(t, arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int8}}, nil)))
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.StdEncoding.EncodeToString
	tests := map[string]string{
		"not base64":           "!!not base64!!",
		"empty":                "",
		"marker only":          enc(raw[:4]),
		"end of stream":        enc([]byte{0, 0, 0, 0}),
		"length past the end":  enc(append([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0}, raw[8:20]...)),
		"truncated metadata":   enc(raw[:len(raw)/2]),
		"negative length":      enc([]byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0x80, 1, 2, 3, 4}),
		"zeroed flatbuffer":    enc(append(raw[:8:8], make([]byte, len(raw)-8)...)),
		"root offset too big":  enc(append(append(raw[:8:8], 0xff, 0xff, 0xff, 0x7f), raw[12:]...)),
		"garbage after marker": enc(append(raw[:8:8], strings.Repeat("\x17", len(raw)-8)...)),
	}
	for name, v := range tests {
		t.Run(name, func(t *testing.T) {
			if s, err := DecodeArrowSchema(v); !errors.Is(err, errs.ErrCorrupt) {
				t.Errorf("decoded %v, err %v; want an error wrapping ErrCorrupt", s, err)
			}
		})
	}
}

// TestArrowSchemaIgnored checks that a stored schema that cannot be decoded
// or does not match the file's structure is ignored as a whole.
func TestArrowSchemaIgnored(t *testing.T) {
	elems := []footer.SchemaElement{rootEl(2),
		leafEl("a", opt, footer.TypeByteArray, kind(footer.LogicalString)),
		groupEl("s", opt, 1), leafEl("x", opt, footer.TypeInt64)}
	plain := testPlan(t, Options{}, nil, elems...).Schema
	large := arrow.Field{Name: "a", Type: arrow.BinaryTypes.LargeString, Nullable: true}
	dur := arrow.Field{Name: "x", Type: arrow.FixedWidthTypes.Duration_ms, Nullable: true}
	tests := map[string]*arrow.Schema{
		"too few fields":       arrow.NewSchema([]arrow.Field{large}, nil),
		"leaf where a struct":  arrow.NewSchema([]arrow.Field{large, dur}, nil),
		"struct of two fields": arrow.NewSchema([]arrow.Field{large, {Name: "s", Type: arrow.StructOf(dur, dur)}}, nil),
		"list where a struct":  arrow.NewSchema([]arrow.Field{large, {Name: "s", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64)}}, nil),
		"struct where a leaf":  arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.StructOf(large)}, {Name: "s", Type: arrow.StructOf(dur)}}, nil),
	}
	for name, stored := range tests {
		t.Run(name, func(t *testing.T) {
			kv := []footer.KeyValue{{Key: ArrowSchemaKey, Value: footer.Some(storedValue(t, stored))}}
			if got := testPlan(t, Options{}, kv, elems...).Schema; !got.Equal(plain) {
				t.Errorf("got %v, want the plain mapping %v", got, plain)
			}
		})
	}
	t.Run("undecodable", func(t *testing.T) {
		kv := []footer.KeyValue{{Key: ArrowSchemaKey, Value: footer.Some("AAAA")}}
		if got := testPlan(t, Options{}, kv, elems...).Schema; !got.Equal(plain) {
			t.Errorf("got %v, want the plain mapping %v", got, plain)
		}
	})
	t.Run("matching, but ignored by option", func(t *testing.T) {
		stored := arrow.NewSchema([]arrow.Field{large, {Name: "s", Type: arrow.StructOf(dur), Nullable: true}}, nil)
		kv := []footer.KeyValue{{Key: ArrowSchemaKey, Value: footer.Some(storedValue(t, stored))}}
		if got := testPlan(t, Options{}, kv, elems...).Schema; !got.Equal(stored) {
			t.Errorf("got %v, want the stored %v", got, stored)
		}
		if got := testPlan(t, Options{IgnoreArrowSchema: true}, kv, elems...).Schema; !got.Equal(plain) {
			t.Errorf("ignoring: got %v, want the plain mapping %v", got, plain)
		}
	})
}

// TestArrowSchemaRestoreRules checks each restoration rule, including the
// stored types that must not replace the mapped one.
func TestArrowSchemaRestoreRules(t *testing.T) {
	str := kind(footer.LogicalString)
	ts := func(u arrow.TimeUnit, tz string) arrow.DataType { return &arrow.TimestampType{Unit: u, TimeZone: tz} }
	tests := []struct {
		name   string
		leaf   footer.SchemaElement
		stored arrow.DataType
		opts   Options
		want   arrow.DataType
	}{
		{"large_string", leafEl("x", opt, footer.TypeByteArray, str), arrow.BinaryTypes.LargeString, Options{}, arrow.BinaryTypes.LargeString},
		{"string_view", leafEl("x", opt, footer.TypeByteArray, str), arrow.BinaryTypes.StringView, Options{}, arrow.BinaryTypes.StringView},
		{"option wins", leafEl("x", opt, footer.TypeByteArray, str), arrow.BinaryTypes.LargeString, Options{Strings: StringsView}, arrow.BinaryTypes.StringView},
		{"large_binary over string", leafEl("x", opt, footer.TypeByteArray, str), arrow.BinaryTypes.LargeBinary, Options{}, arrow.BinaryTypes.String},
		{"dictionary", leafEl("x", opt, footer.TypeByteArray), &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint8, ValueType: arrow.BinaryTypes.Binary},
			Options{}, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint8, ValueType: arrow.BinaryTypes.Binary}},
		{"dictionary over an integer", leafEl("x", opt, footer.TypeInt32), &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.PrimitiveTypes.Int32},
			Options{}, arrow.PrimitiveTypes.Int32},
		{"time zone", leafEl("x", opt, footer.TypeInt64, timestampLT(footer.TimeUnitMicros, true)), ts(arrow.Microsecond, "Europe/Paris"), Options{}, ts(arrow.Microsecond, "Europe/Paris")},
		{"no zone over a local timestamp", leafEl("x", opt, footer.TypeInt64, timestampLT(footer.TimeUnitMicros, false)), ts(arrow.Microsecond, "Europe/Paris"), Options{}, ts(arrow.Microsecond, "")},
		{"INT96 zone", leafEl("x", opt, footer.TypeInt96), ts(arrow.Nanosecond, "Asia/Tokyo"), Options{}, ts(arrow.Nanosecond, "Asia/Tokyo")},
		{"duration", leafEl("x", opt, footer.TypeInt64), arrow.FixedWidthTypes.Duration_us, Options{}, arrow.FixedWidthTypes.Duration_us},
		{"duration over int32", leafEl("x", opt, footer.TypeInt32), arrow.FixedWidthTypes.Duration_us, Options{}, arrow.PrimitiveTypes.Int32},
		{"decimal256", leafEl("x", opt, footer.TypeFixedLenByteArray, decimalLT(30, 2)), &arrow.Decimal256Type{Precision: 30, Scale: 2}, Options{}, &arrow.Decimal256Type{Precision: 30, Scale: 2}},
		{"decimal of another scale", leafEl("x", opt, footer.TypeFixedLenByteArray, decimalLT(30, 2)), &arrow.Decimal256Type{Precision: 30, Scale: 3}, Options{}, &arrow.Decimal128Type{Precision: 30, Scale: 2}},
		{"float16 over fixed_size_binary(2)", leafEl("x", opt, footer.TypeFixedLenByteArray, length(2)), arrow.FixedWidthTypes.Float16, Options{}, arrow.FixedWidthTypes.Float16},
		{"float16 over fixed_size_binary(4)", leafEl("x", opt, footer.TypeFixedLenByteArray, length(4)), arrow.FixedWidthTypes.Float16, Options{}, &arrow.FixedSizeBinaryType{ByteWidth: 4}},
		{"date64 is not restored", leafEl("x", opt, footer.TypeInt32, kind(footer.LogicalDate)), arrow.FixedWidthTypes.Date64, Options{}, arrow.FixedWidthTypes.Date32},
		{"extension over its storage", leafEl("x", opt, footer.TypeByteArray, str), jsonExt, Options{}, jsonExt},
		{"extension over other storage", leafEl("x", opt, footer.TypeInt64), jsonExt, Options{}, arrow.PrimitiveTypes.Int64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stored := arrow.NewSchema([]arrow.Field{{Name: "x", Type: tt.stored, Nullable: true}}, nil)
			kv := []footer.KeyValue{{Key: ArrowSchemaKey, Value: footer.Some(storedValue(t, stored))}}
			got := testPlan(t, tt.opts, kv, rootEl(1), tt.leaf).Schema.Field(0).Type
			if !arrow.TypeEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestArrowSchemaNullability checks that a stored non-nullable field makes
// an optional Parquet field non-nullable, with its nulls corrupt, and that
// metadata merges with the file's field id winning.
func TestArrowSchemaNullability(t *testing.T) {
	stored := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int32,
		Metadata: arrow.NewMetadata([]string{"k", FieldIDKey}, []string{"v", "99"})}}, nil)
	kv := []footer.KeyValue{{Key: ArrowSchemaKey, Value: footer.Some(storedValue(t, stored))}}
	p := testPlan(t, Options{}, kv, rootEl(1), leafEl("x", opt, footer.TypeInt32, fieldID(3)))
	f := p.Fields[0]
	if f.Field.Nullable || !f.NullCorrupt {
		t.Errorf("nullable %v, nullCorrupt %v; want a non-nullable field whose nulls are corrupt", f.Field.Nullable, f.NullCorrupt)
	}
	if v, _ := f.Field.Metadata.GetValue("k"); v != "v" {
		t.Errorf("stored metadata lost: %v", f.Field.Metadata)
	}
	if v, _ := f.Field.Metadata.GetValue(FieldIDKey); v != "3" {
		t.Errorf("field id %q, want the file's 3", v)
	}
}
