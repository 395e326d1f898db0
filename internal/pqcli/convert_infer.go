package pqcli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// inferCSV returns the schema of a CSV file with a header line from a
// sample of its first lines: a column is int64 when every non-empty value
// in the sample parses as one, else float64 likewise, else boolean
// (true/false), else string. Empty values read as nulls.
func inferCSV(sample []byte) (*arrow.Schema, error) {
	r := csv.NewReader(bytes.NewReader(sample))
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("reading the CSV header: %w", err)
	}
	names := append([]string(nil), header...)
	kinds := make([]csvKind, len(names))
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("CSV sample: %w", err)
		}
		for i, v := range rec[:min(len(rec), len(kinds))] {
			kinds[i] = kinds[i].widen(v)
		}
	}
	fields := make([]arrow.Field, len(names))
	for i, n := range names {
		fields[i] = arrow.Field{Name: n, Type: kinds[i].arrowType(), Nullable: true}
	}
	return arrow.NewSchema(fields, nil), nil
}

// csvKind is what a CSV column's values seen so far all parse as, from
// the narrowest: no value yet, int64, float64, boolean, then string.
type csvKind int8

const (
	csvNone csvKind = iota
	csvInt
	csvFloat
	csvBool
	csvString
)

// widen returns the narrowest kind that holds both k's values and v.
func (k csvKind) widen(v string) csvKind {
	if v == "" || k == csvString {
		return k
	}
	if k <= csvInt {
		if _, err := strconv.ParseInt(v, 10, 64); err == nil {
			return csvInt
		}
	}
	if k <= csvFloat {
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			return csvFloat
		}
	}
	if k == csvNone || k == csvBool {
		if _, err := strconv.ParseBool(v); err == nil && !strings.ContainsAny(v, "01") {
			return csvBool
		}
	}
	return csvString
}

func (k csvKind) arrowType() arrow.DataType {
	switch k {
	case csvInt:
		return arrow.PrimitiveTypes.Int64
	case csvFloat:
		return arrow.PrimitiveTypes.Float64
	case csvBool:
		return arrow.FixedWidthTypes.Boolean
	}
	return arrow.BinaryTypes.String
}

// inferJSON returns the schema of a JSON lines file (one object per line)
// from a sample of its first lines: booleans, integers (int64), other
// numbers (float64), strings, objects (structs, their fields in the order
// first seen) and arrays (lists) of those, merged across lines; a field
// that is only ever null is a null column. Integers and other numbers
// merge to float64; any other mix of kinds is an error naming the field.
func inferJSON(sample []byte) (*arrow.Schema, error) {
	dec := json.NewDecoder(bytes.NewReader(sample))
	dec.UseNumber()
	var root *jsonType
	for line := 1; ; line++ {
		var v map[string]any
		if err := dec.Decode(&v); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("JSON lines sample, object %d: %w", line, err)
		}
		t, err := mergeJSON(root, v, "")
		if err != nil {
			return nil, fmt.Errorf("JSON lines sample, object %d: %w", line, err)
		}
		root = t
	}
	if root == nil {
		return nil, errors.New("no JSON object to infer the columns from")
	}
	return arrow.NewSchema(root.arrowType().(*arrow.StructType).Fields(), nil), nil
}

// jsonType is the type inferred for JSON values so far.
type jsonType struct {
	kind   string // "null", "bool", "int", "float", "string", "object", "array"
	names  []string
	fields map[string]*jsonType
	elem   *jsonType
}

// mergeJSON returns t widened to hold v, the value at path.
func mergeJSON(t *jsonType, v any, path string) (*jsonType, error) {
	var kind string
	switch v := v.(type) {
	case nil:
		kind = "null"
	case bool:
		kind = "bool"
	case json.Number:
		kind = "int"
		if _, err := v.Int64(); err != nil {
			kind = "float"
		}
	case string:
		kind = "string"
	case map[string]any:
		kind = "object"
	case []any:
		kind = "array"
	}
	if t == nil || t.kind == "null" {
		t = &jsonType{kind: kind}
	}
	switch {
	case kind == "null":
		return t, nil
	case t.kind == "int" && kind == "float" || t.kind == "float" && kind == "int":
		t.kind = "float"
		return t, nil
	case t.kind != kind:
		return nil, fmt.Errorf("field %q holds both %s and %s values", strings.TrimPrefix(path, "."), t.kind, kind)
	}
	switch v := v.(type) {
	case map[string]any:
		if t.fields == nil {
			t.fields = make(map[string]*jsonType)
		}
		// Go maps lose the key order: take new keys in sorted order.
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			f, seen := t.fields[k]
			m, err := mergeJSON(f, v[k], path+"."+k)
			if err != nil {
				return nil, err
			}
			if !seen {
				t.names = append(t.names, k)
			}
			t.fields[k] = m
		}
	case []any:
		for i, e := range v {
			m, err := mergeJSON(t.elem, e, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			t.elem = m
		}
	}
	return t, nil
}

func (t *jsonType) arrowType() arrow.DataType {
	if t == nil {
		return arrow.Null
	}
	switch t.kind {
	case "bool":
		return arrow.FixedWidthTypes.Boolean
	case "int":
		return arrow.PrimitiveTypes.Int64
	case "float":
		return arrow.PrimitiveTypes.Float64
	case "string":
		return arrow.BinaryTypes.String
	case "object":
		fields := make([]arrow.Field, len(t.names))
		for i, n := range t.names {
			fields[i] = arrow.Field{Name: n, Type: t.fields[n].arrowType(), Nullable: true}
		}
		return arrow.StructOf(fields...)
	case "array":
		return arrow.ListOf(t.elem.arrowType())
	}
	return arrow.Null
}
