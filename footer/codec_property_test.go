package footer

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// allMessages returns a new zero value of every Message type.
func allMessages() []Message {
	return []Message{
		&FileMetaData{}, &SchemaElement{}, &RowGroup{}, &ColumnChunk{}, &ColumnMetaData{},
		&KeyValue{}, &SortingColumn{}, &PageEncodingStats{}, &Statistics{}, &SizeStatistics{},
		&BoundingBox{}, &GeospatialStatistics{}, &LogicalType{}, &DecimalType{}, &TimeType{},
		&TimestampType{}, new(TimeUnit), &IntType{}, &VariantType{}, &GeometryType{}, &GeographyType{},
		&ColumnOrder{}, &PageHeader{}, &DataPageHeader{}, &IndexPageHeader{}, &DictionaryPageHeader{},
		&DataPageHeaderV2{}, &ColumnIndex{}, &OffsetIndex{}, &PageLocation{}, &BloomFilterHeader{},
		&FileCryptoMetaData{}, &EncryptionAlgorithm{}, &AesGcmV1{}, &AesGcmCtrV1{},
		&ColumnCryptoMetaData{}, &EncryptionWithFooterKey{}, &EncryptionWithColumnKey{},
	}
}

// requiredLists are the list fields thrift declares required: Marshal
// writes a nil one as an empty list, which decodes as a non-nil empty slice,
// so the generator never leaves them nil.
var requiredLists = map[string]bool{
	"FileMetaData.Schema": true, "FileMetaData.RowGroups": true, "RowGroup.Columns": true,
	"ColumnMetaData.Encodings": true, "ColumnMetaData.PathInSchema": true,
	"ColumnIndex.NullPages": true, "ColumnIndex.MinValues": true, "ColumnIndex.MaxValues": true,
	"OffsetIndex.PageLocations": true, "EncryptionWithColumnKey.PathInSchema": true,
}

// gen fills values of this package's types at random, within what the
// encoding can represent: union kinds with only their own member set, unset
// Optionals holding the zero value, finite floats, unknown union members
// with ids that are really unknown.
type gen struct {
	r     *rand.Rand
	depth int
}

func (g *gen) fill(v reflect.Value, required bool) {
	switch x := v.Addr().Interface().(type) {
	case *LogicalType:
		*x = g.logical()
		return
	case *TimeUnit:
		*x = TimeUnit(g.r.IntN(4))
		return
	case *ColumnOrder:
		*x = ColumnOrder{Kind: ColumnOrderKind(g.r.IntN(5))}
		if x.Kind == ColumnOrderUnrecognized {
			x.UnknownField = int16(4 + g.r.IntN(1000))
		}
		return
	case *BloomFilterAlgorithm:
		*x = BloomFilterAlgorithm(g.r.IntN(2))
		return
	case *BloomFilterHash:
		*x = BloomFilterHash(g.r.IntN(2))
		return
	case *BloomFilterCompression:
		*x = BloomFilterCompression(g.r.IntN(2))
		return
	case *float64:
		*x = math.Float64frombits(g.r.Uint64())
		if math.IsNaN(*x) {
			*x = g.r.NormFloat64()
		}
		return
	case *string:
		*x = g.str()
		return
	case *[]byte:
		switch g.r.IntN(4) {
		case 0:
			if !required {
				*x = nil
				return
			}
			fallthrough
		case 1:
			*x = []byte{}
		default:
			*x = []byte(g.str())
		}
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(g.r.IntN(2) == 0)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(g.int(v.Type().Bits()))
	case reflect.Pointer:
		if g.depth > 6 || g.r.IntN(3) == 0 {
			v.SetZero()
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		g.depth++
		g.fill(v.Elem(), false)
		g.depth--
	case reflect.Slice:
		if !required && g.r.IntN(4) == 0 {
			v.SetZero()
			return
		}
		n := g.r.IntN(4)
		if g.r.IntN(8) == 0 {
			n = 14 + g.r.IntN(6) // the long list header form starts at 15
		}
		if g.depth > 4 {
			n = min(n, 1)
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		g.depth++
		for i := range n {
			g.fill(s.Index(i), true) // list elements are never absent
		}
		g.depth--
		v.Set(s)
	case reflect.Struct:
		t := v.Type()
		if t.Name() == "EncryptionAlgorithm" || t.Name() == "ColumnCryptoMetaData" {
			g.fillStruct(v)
			if uf := v.FieldByName("UnknownField"); g.r.IntN(3) == 0 {
				uf.SetInt(int64(3 + g.r.IntN(100)))
			} else {
				uf.SetInt(0)
			}
			return
		}
		if f := v.FieldByName("Set"); f.IsValid() && t.NumField() == 2 {
			// Optional[T]
			if g.r.IntN(2) == 0 {
				f.SetBool(true)
				g.fill(v.Field(0), true)
			} else {
				v.SetZero()
			}
			return
		}
		g.fillStruct(v)
	default:
		panic(fmt.Sprintf("gen: unhandled kind %v", v.Kind()))
	}
}

func (g *gen) fillStruct(v reflect.Value) {
	t := v.Type()
	for i := range t.NumField() {
		g.fill(v.Field(i), requiredLists[t.Name()+"."+t.Field(i).Name])
	}
}

// int returns a random integer of the given width, biased towards the
// varint length boundaries.
func (g *gen) int(bits int) int64 {
	var v int64
	switch g.r.IntN(4) {
	case 0:
		v = int64(g.r.IntN(64)) - 32
	case 1:
		v = int64(g.r.Uint64())
	default:
		v = int64(g.r.Uint64() >> g.r.IntN(64))
	}
	shift := 64 - bits
	return v << shift >> shift
}

func (g *gen) str() string {
	b := make([]byte, g.r.IntN(12))
	for i := range b {
		b[i] = byte(g.r.IntN(256))
	}
	if g.r.IntN(10) == 0 {
		b = bytes.Repeat([]byte("x"), 200+g.r.IntN(2000)) // past the arena's small-string limit
	}
	return string(b)
}

func (g *gen) logical() LogicalType {
	k := LogicalKind(g.r.IntN(int(LogicalUnrecognized) + 1))
	v := LogicalType{Kind: k}
	switch k {
	case LogicalDecimal:
		g.fill(reflect.ValueOf(&v.Decimal).Elem(), false)
	case LogicalTime:
		g.fill(reflect.ValueOf(&v.Time).Elem(), false)
	case LogicalTimestamp:
		g.fill(reflect.ValueOf(&v.Timestamp).Elem(), false)
	case LogicalInteger:
		g.fill(reflect.ValueOf(&v.Integer).Elem(), false)
	case LogicalVariant:
		g.fill(reflect.ValueOf(&v.Variant).Elem(), false)
	case LogicalGeometry:
		g.fill(reflect.ValueOf(&v.Geometry).Elem(), false)
	case LogicalGeography:
		g.fill(reflect.ValueOf(&v.Geography).Elem(), false)
	case LogicalUnrecognized:
		ids := []int16{9, 20, 21, 100, 32767, -1, -300}
		v.UnknownField = ids[g.r.IntN(len(ids))]
	}
	return v
}

// randomMessage returns a random value of the same type as zero.
func randomMessage(g *gen, zero Message) Message {
	v := reflect.New(reflect.TypeOf(zero).Elem())
	g.fill(v.Elem(), false)
	return v.Interface().(Message)
}

func TestPropertyRoundTrip(t *testing.T) {
	iters := 300
	if testing.Short() {
		iters = 40
	}
	for _, zero := range allMessages() {
		name := reflect.TypeOf(zero).Elem().Name()
		t.Run(name, func(t *testing.T) {
			g := &gen{r: rand.New(rand.NewPCG(1, uint64(len(name))))}
			for i := range iters {
				v := randomMessage(g, zero)
				enc := Marshal(nil, v)
				back := reflect.New(reflect.TypeOf(zero).Elem()).Interface().(Message)
				n, err := Unmarshal(enc, back)
				if err != nil {
					t.Fatalf("iteration %d: %v\nvalue %+v", i, err, v)
				}
				if n != len(enc) {
					t.Fatalf("iteration %d: consumed %d of %d bytes", i, n, len(enc))
				}
				if !reflect.DeepEqual(v, back) {
					t.Fatalf("iteration %d: round trip changed the value at %s", i, firstDiff(reflect.ValueOf(back), reflect.ValueOf(v), name))
				}
				// Decoding into a used value must replace all of it.
				if _, err := Unmarshal(enc, back); err != nil || !reflect.DeepEqual(v, back) {
					t.Fatalf("iteration %d: decoding into a used value: %v", i, err)
				}
			}
		})
	}
}

// TestMinimalEncodings checks the minimum sizes that bound list lengths:
// each struct's zero value decodes, and no shorter prefix does.
func TestMinimalEncodings(t *testing.T) {
	for _, zero := range allMessages() {
		enc := Marshal(nil, zero)
		if _, err := Unmarshal(enc, zero); err != nil {
			t.Errorf("%T: minimal encoding %x does not decode: %v", zero, enc, err)
		}
		for n := range len(enc) {
			if _, err := Unmarshal(enc[:n], zero); err == nil {
				t.Errorf("%T: %d-byte prefix %x of the minimal encoding decodes", zero, n, enc[:n])
			}
		}
	}
}

// firstDiff returns the path of the first difference between a and b, or "".
func firstDiff(a, b reflect.Value, path string) string {
	if a.Kind() != b.Kind() {
		return path + ": kinds differ"
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Sprintf("%s: nil %v vs %v", path, a.IsNil(), b.IsNil())
			}
			return ""
		}
		return firstDiff(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := range a.NumField() {
			if d := firstDiff(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return fmt.Sprintf("%s: nil %v len %d vs nil %v len %d", path, a.IsNil(), a.Len(), b.IsNil(), b.Len())
		}
		for i := range a.Len() {
			if d := firstDiff(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	default:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return fmt.Sprintf("%s: %v vs %v", path, a.Interface(), b.Interface())
		}
		return ""
	}
}
