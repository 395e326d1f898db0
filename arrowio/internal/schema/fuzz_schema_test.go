package schema

import (
	"encoding/base64"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/quiverio/quiver/footer"
)

// FuzzArrowSchemaMetadata feeds arbitrary ARROW:schema values, both as the
// IPC bytes (base64-encoded here) and as the raw string, to the decoder and
// to the mapping of a schema with a leaf, a struct, a list and a map. It
// must never panic, and an entry it accepts must still give a plan that
// satisfies the plan invariants.
func FuzzArrowSchemaMetadata(f *testing.F) {
	in, _ := wideSchema()
	for _, s := range []*arrow.Schema{in, fuzzTargetArrow()} {
		v, err := EncodeArrowSchema(s)
		if err != nil {
			f.Fatal(err)
		}
		raw, _ := base64.StdEncoding.DecodeString(v)
		f.Add(raw)
		f.Add(raw[4:])
		f.Add([]byte(v))
	}
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 8, 0, 0, 0, 4, 0, 0, 0, 0xfc, 0xff, 0xff, 0xff})
	elems := fuzzTargetElements()
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, v := range []string{base64.StdEncoding.EncodeToString(data), string(data)} {
			if _, err := DecodeArrowSchema(v); err != nil {
				continue
			}
			kv := []footer.KeyValue{{Key: ArrowSchemaKey, Value: footer.Some(v)}}
			checkPlanInvariants(t, testPlan(t, Options{}, kv, elems...))
		}
	})
}

// fuzzTargetElements is the Parquet schema FuzzArrowSchemaMetadata maps.
func fuzzTargetElements() []footer.SchemaElement {
	return []footer.SchemaElement{rootEl(4),
		leafEl("s", opt, footer.TypeByteArray, kind(footer.LogicalString)),
		groupEl("g", opt, 1), leafEl("t", opt, footer.TypeInt64, timestampLT(footer.TimeUnitMicros, true)),
		groupEl("l", opt, 1, kind(footer.LogicalList)), groupEl("list", rpt, 1), leafEl("element", opt, footer.TypeInt64),
		groupEl("m", opt, 1, kind(footer.LogicalMap)), groupEl("key_value", rpt, 2),
		leafEl("key", req, footer.TypeByteArray), leafEl("value", opt, footer.TypeFixedLenByteArray, length(2)),
	}
}

// fuzzTargetArrow is a stored schema that matches fuzzTargetElements, so
// seeds reach the restoration rules.
func fuzzTargetArrow() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "s", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.LargeString}, Nullable: true},
		{Name: "g", Type: arrow.StructOf(arrow.Field{Name: "t", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "Europe/Oslo"}}), Nullable: true},
		{Name: "l", Type: arrow.FixedSizeListOfField(2, elem(arrow.FixedWidthTypes.Duration_ns, true)), Nullable: true},
		{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.BinaryView, arrow.FixedWidthTypes.Float16), Nullable: true},
	}, nil)
}

// fuzzNames are the element names FuzzSchemaMapping draws from: the ones
// the list and map rules look at, and plain ones.
var fuzzNames = []string{"a", "b", "list", "element", "array", "a_tuple", "b_tuple", "key_value", "key", "value", "map", "x.y"}

// fuzzElements decodes data into a SchemaElement list, a few bytes per
// element: shape and repetition, name, child count or physical type and
// width, logical type and its parameters, converted type, decimal fields
// and field id.
func fuzzElements(data []byte) []footer.SchemaElement {
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	elems := []footer.SchemaElement{rootEl(int32(next() % 6))}
	for len(data) > 0 && len(elems) < 64 {
		b := next()
		e := footer.SchemaElement{Name: fuzzNames[int(next())%len(fuzzNames)], RepetitionType: footer.Some(footer.FieldRepetitionType((b >> 1) % 3))}
		if b&1 == 1 {
			e.NumChildren = footer.Some(int32(next() % 4))
		} else {
			e.Type = footer.Some(footer.Type(next() % 8))
			e.TypeLength = footer.Some(int32(next()%20) - 1)
		}
		p1, p2 := next(), next()
		lt := footer.LogicalType{Kind: footer.LogicalKind(next() % 21)}
		switch lt.Kind {
		case footer.LogicalDecimal:
			lt.Decimal = footer.DecimalType{Precision: int32(p1 % 80), Scale: int32(p2%80) - 1}
		case footer.LogicalInteger:
			lt.Integer = footer.IntType{BitWidth: int8([]byte{8, 16, 32, 64, 7}[p1%5]), IsSigned: p2&1 == 1}
		case footer.LogicalTime:
			lt.Time = footer.TimeType{Unit: footer.TimeUnit(p1 % 4), IsAdjustedToUTC: p2&1 == 1}
		case footer.LogicalTimestamp:
			lt.Timestamp = footer.TimestampType{Unit: footer.TimeUnit(p1 % 4), IsAdjustedToUTC: p2&1 == 1}
		}
		e.LogicalType = lt
		if c := next(); c < 23 {
			e.ConvertedType = footer.Some(footer.ConvertedType(c))
		}
		if p1&0x80 != 0 {
			e.Precision, e.Scale = footer.Some(int32(p1&0x3f)), footer.Some(int32(p2&0x3f))
		}
		if p2&0x80 != 0 {
			e.FieldID = footer.Some(int32(p1))
		}
		elems = append(elems, e)
	}
	return elems
}

// FuzzSchemaMapping maps Parquet schemas decoded from arbitrary bytes. The
// mapping must never panic; its plans must satisfy the plan invariants;
// projecting any node's path must work; and an Arrow schema it returns
// must, when the writer accepts it, give elements that form a schema and
// read back as itself (list elements renamed as the writer names them).
func FuzzSchemaMapping(f *testing.F) {
	f.Add([]byte{3, 1, 3, 1, 2, 0, 0, 3, 255, 5, 1, 3, 2, 0, 0, 3, 6, 1, 0, 0, 0, 255})
	f.Add([]byte{2, 5, 0, 1, 3, 9, 0, 1, 9, 0, 4, 8, 1, 1, 1, 0, 5, 6, 1, 0, 5, 1, 2, 4, 6, 0, 0, 255, 255})
	f.Add([]byte{1, 5, 2, 1, 0, 0, 2, 3, 7, 1, 2, 0, 0, 255, 0, 9, 1, 0, 0, 6, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		elems := fuzzElements(data)
		s, err := footer.NewSchema(elems, nil)
		if err != nil {
			return
		}
		for _, opts := range []Options{{}, {Strings: StringsView, Int96: &arrow.TimestampType{Unit: arrow.Millisecond}}} {
			p := NewPlan(s, nil, opts)
			checkPlanInvariants(t, p)
			var paths []string
			indexPaths(s.Root.Children, &paths)
			for _, path := range paths {
				q, err := p.Project([]string{path})
				if err != nil {
					t.Fatalf("projecting %q: %v", path, err)
				}
				checkPlanInvariants(t, q)
			}
		}
		p := NewPlan(s, nil, Options{})
		ws, err := FromArrow(p.Schema)
		if err != nil {
			return
		}
		ps, err := footer.NewSchema(ws.Elements, nil)
		if err != nil {
			t.Fatalf("written elements of %v do not form a schema: %v", p.Schema, err)
		}
		back := NewPlan(ps, []footer.KeyValue{{Key: ArrowSchemaKey, Value: footer.Some(ws.ArrowSchema)}}, Options{})
		want := make([]arrow.Field, p.Schema.NumFields())
		for i, fl := range p.Schema.Fields() {
			want[i] = ParquetNamed(fl)
		}
		if ws := arrow.NewSchema(want, nil); !back.Schema.Equal(ws) {
			t.Fatalf("read back as\n%v\nwant\n%v", back.Schema, ws)
		}
	})
}

// indexPaths appends the dotted path of every node below.
func indexPaths(nodes []*footer.Node, paths *[]string) {
	for _, n := range nodes {
		*paths = append(*paths, n.DottedPath())
		indexPaths(n.Children, paths)
	}
}
