package schema

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strconv"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/geoarrow"
)

// Parquet is the Parquet form of the Arrow schema a Writer writes.
type Parquet struct {
	// elements is the footer's depth-first SchemaElement list, root first.
	// footer.NewSchema(elements, nil) gives the tree; newSchemaPlan over
	// that tree and the ARROW:schema entry gives back the Arrow schema
	// with each leaf's levels, which the column writers shred against.
	Elements []footer.SchemaElement
	// ArrowSchema is the value to store under ArrowSchemaKey: base64 of
	// an IPC stream holding the schema message, as pqarrow writes it.
	ArrowSchema string
}

// FromArrow maps Arrow schema s to Parquet schema elements, setting
// both the LogicalType and the ConvertedType the spec's compatibility
// tables give (LogicalTypes.md), and encodes s for the ARROW:schema entry.
//
// Lists of every layout become the 3-level LIST form (repeated group
// "list", element "element"), maps the MAP form (repeated group
// "key_value", "key", "value"), structs plain groups, dictionaries their
// value type. Nullable fields are optional, others required. A
// PARQUET:field_id metadata value becomes the element's field_id. The
// stored Arrow schema names list elements "element" (and map children
// "key" and "value") so its paths match the Parquet columns, as pqarrow
// does; everything else is stored as given.
//
// The column writers must convert these values, whose Parquet unit
// differs from the Arrow one: timestamp[s] and time32[s] are written in
// milliseconds, date64 as days (milliseconds / 86400000),
// month_day_nano_interval as INTERVAL's months, days and milliseconds.
//
// arrow-go's variant extension type (extensions.VariantType) becomes a
// VARIANT(1) group of its storage fields, in their order: metadata, value
// and, when shredded, typed_value mapped as above (objects as groups of
// required field groups, arrays as LIST groups of required elements), as
// pqarrow writes it. Its typed_value leaves must have the types
// VariantShredding.md allows (see [ArrowSchema]); another is an error
// wrapping [ErrUnsupported].
//
// geoarrow.wkb becomes a GEOMETRY or GEOGRAPHY BYTE_ARRAY with its CRS
// and edges (geo.go); one whose edges Parquet does not name is an error
// wrapping [ErrUnsupported].
//
// A type Parquet cannot hold (unions, run-end encoded, month and day_time
// intervals, a struct without fields, a non-nullable null field, a
// negative or oversized decimal scale) is an error wrapping
// [ErrUnsupported] naming the field by its dotted Arrow path.
func FromArrow(s *arrow.Schema) (*Parquet, error) {
	w := elementWriter{elems: []footer.SchemaElement{{Name: "schema", NumChildren: footer.Some(int32(s.NumFields()))}}}
	for _, f := range s.Fields() {
		if err := w.field(f.Name, f.Name, f); err != nil {
			return nil, err
		}
	}
	stored, err := EncodeArrowSchema(s)
	if err != nil {
		return nil, err
	}
	return &Parquet{Elements: w.elems, ArrowSchema: stored}, nil
}

// elementWriter appends SchemaElements depth-first.
type elementWriter struct {
	elems []footer.SchemaElement
}

// group appends a group element of n children.
func (w *elementWriter) group(name string, rep footer.FieldRepetitionType, id footer.Optional[int32], lt footer.LogicalType, n int) {
	w.elems = append(w.elems, footer.SchemaElement{
		Name: name, RepetitionType: footer.Some(rep), NumChildren: footer.Some(int32(n)),
		FieldID: id, LogicalType: lt, ConvertedType: legacyConverted(lt),
	})
}

// field appends the elements of Arrow field f, named name in Parquet; path
// is its dotted Arrow path, for errors.
func (w *elementWriter) field(path, name string, f arrow.Field) error {
	rep := footer.RepetitionRequired
	if f.Nullable {
		rep = footer.RepetitionOptional
	}
	id := fieldIDFromMetadata(f.Metadata)
	switch t := f.Type.(type) {
	case *arrow.DictionaryType:
		return w.field(path, name, arrow.Field{Name: f.Name, Type: t.ValueType, Nullable: f.Nullable, Metadata: f.Metadata})
	case arrow.ExtensionType:
		if extensions.IsVariantExtensionName(t.ExtensionName()) {
			return w.variant(path, name, rep, id, t)
		}
		if _, ok := extensionLeaf(t); !ok {
			if t.ExtensionName() == geoarrow.ExtensionName {
				return fmt.Errorf("%w: field %q: %s has no Parquet GEOMETRY or GEOGRAPHY form (its edges, or its storage)", errs.ErrUnsupported, path, t)
			}
			return w.field(path, name, arrow.Field{Name: f.Name, Type: t.StorageType(), Nullable: f.Nullable, Metadata: f.Metadata})
		}
	case *arrow.StructType:
		if t.NumFields() == 0 {
			return fmt.Errorf("%w: field %q: a struct without fields has no Parquet form", errs.ErrUnsupported, path)
		}
		w.group(name, rep, id, footer.LogicalType{}, t.NumFields())
		for _, c := range t.Fields() {
			if err := w.field(path+"."+c.Name, c.Name, c); err != nil {
				return err
			}
		}
		return nil
	case *arrow.MapType:
		w.group(name, rep, id, footer.LogicalType{Kind: footer.LogicalMap}, 1)
		w.group("key_value", footer.RepetitionRepeated, footer.Optional[int32]{}, footer.LogicalType{}, 2)
		if err := w.field(path+".key", "key", t.KeyField()); err != nil {
			return err
		}
		return w.field(path+".value", "value", t.ItemField())
	case arrow.ListLikeType:
		w.group(name, rep, id, footer.LogicalType{Kind: footer.LogicalList}, 1)
		w.group("list", footer.RepetitionRepeated, footer.Optional[int32]{}, footer.LogicalType{}, 1)
		return w.field(path+".element", "element", t.ElemField())
	}
	leaf, ok := ParquetLeafOf(f.Type)
	if !ok {
		return fmt.Errorf("%w: field %q: Arrow type %s has no Parquet mapping", errs.ErrUnsupported, path, f.Type)
	}
	if leaf.logical.Kind == footer.LogicalUnknown && !f.Nullable {
		return fmt.Errorf("%w: field %q: a null-typed field must be nullable", errs.ErrUnsupported, path)
	}
	e := footer.SchemaElement{
		Name: name, RepetitionType: footer.Some(rep), Type: footer.Some(leaf.Physical),
		FieldID: id, LogicalType: leaf.logical, ConvertedType: legacyConverted(leaf.logical),
	}
	if leaf.Physical == footer.TypeFixedLenByteArray {
		e.TypeLength = footer.Some(leaf.length)
	}
	if leaf.logical.Kind == footer.LogicalDecimal {
		e.Precision = footer.Some(leaf.logical.Decimal.Precision)
		e.Scale = footer.Some(leaf.logical.Decimal.Scale)
	}
	if leaf.interval {
		e.ConvertedType = footer.Some(footer.ConvertedInterval)
	}
	w.elems = append(w.elems, e)
	return nil
}

// LeafType is the Parquet storage of one Arrow leaf type.
type LeafType struct {
	Physical footer.Type
	length   int32 // FIXED_LEN_BYTE_ARRAY width
	logical  footer.LogicalType
	// interval marks INTERVAL, which has a ConvertedType but no
	// LogicalType.
	interval bool
}

// ParquetLeafOf returns the Parquet storage of Arrow leaf type dt, or false
// when Parquet cannot hold it.
func ParquetLeafOf(dt arrow.DataType) (LeafType, bool) {
	integer := func(phys footer.Type, width int8, signed bool) (LeafType, bool) {
		return LeafType{Physical: phys, logical: footer.LogicalType{Kind: footer.LogicalInteger,
			Integer: footer.IntType{BitWidth: width, IsSigned: signed}}}, true
	}
	plain := func(phys footer.Type, kind footer.LogicalKind) (LeafType, bool) {
		return LeafType{Physical: phys, logical: footer.LogicalType{Kind: kind}}, true
	}
	switch t := dt.(type) {
	case *arrow.NullType:
		return plain(footer.TypeInt32, footer.LogicalUnknown)
	case *arrow.BooleanType:
		return plain(footer.TypeBoolean, footer.LogicalNone)
	case *arrow.Int8Type:
		return integer(footer.TypeInt32, 8, true)
	case *arrow.Uint8Type:
		return integer(footer.TypeInt32, 8, false)
	case *arrow.Int16Type:
		return integer(footer.TypeInt32, 16, true)
	case *arrow.Uint16Type:
		return integer(footer.TypeInt32, 16, false)
	case *arrow.Int32Type:
		return integer(footer.TypeInt32, 32, true)
	case *arrow.Uint32Type:
		return integer(footer.TypeInt32, 32, false)
	case *arrow.Int64Type:
		return integer(footer.TypeInt64, 64, true)
	case *arrow.Uint64Type:
		return integer(footer.TypeInt64, 64, false)
	case *arrow.Float16Type:
		return LeafType{Physical: footer.TypeFixedLenByteArray, length: 2, logical: footer.LogicalType{Kind: footer.LogicalFloat16}}, true
	case *arrow.Float32Type:
		return plain(footer.TypeFloat, footer.LogicalNone)
	case *arrow.Float64Type:
		return plain(footer.TypeDouble, footer.LogicalNone)
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		return plain(footer.TypeByteArray, footer.LogicalString)
	case *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.BinaryViewType:
		return plain(footer.TypeByteArray, footer.LogicalNone)
	case *arrow.FixedSizeBinaryType:
		return LeafType{Physical: footer.TypeFixedLenByteArray, length: int32(t.ByteWidth)}, t.ByteWidth > 0
	case arrow.DecimalType:
		return decimalLeaf(t)
	case *arrow.Date32Type, *arrow.Date64Type:
		return plain(footer.TypeInt32, footer.LogicalDate)
	case *arrow.Time32Type:
		return LeafType{Physical: footer.TypeInt32, logical: footer.LogicalType{Kind: footer.LogicalTime,
			Time: footer.TimeType{Unit: footer.TimeUnitMillis}}}, true
	case *arrow.Time64Type:
		unit := footer.TimeUnitMicros
		if t.Unit == arrow.Nanosecond {
			unit = footer.TimeUnitNanos
		}
		return LeafType{Physical: footer.TypeInt64, logical: footer.LogicalType{Kind: footer.LogicalTime,
			Time: footer.TimeType{Unit: unit}}}, true
	case *arrow.TimestampType:
		return LeafType{Physical: footer.TypeInt64, logical: footer.LogicalType{Kind: footer.LogicalTimestamp,
			Timestamp: footer.TimestampType{IsAdjustedToUTC: t.TimeZone != "", Unit: parquetTimeUnit(t.Unit)}}}, true
	case *arrow.DurationType:
		return plain(footer.TypeInt64, footer.LogicalNone)
	case *arrow.MonthDayNanoIntervalType:
		return LeafType{Physical: footer.TypeFixedLenByteArray, length: 12, interval: true}, true
	case arrow.ExtensionType:
		return extensionLeaf(t)
	}
	return LeafType{}, false
}

// extensionLeaf returns the Parquet storage of the extension types Parquet
// annotates itself: arrow.uuid (UUID over FIXED_LEN_BYTE_ARRAY(16)),
// arrow.json (JSON over BYTE_ARRAY) and geoarrow.wkb (GEOMETRY or
// GEOGRAPHY over BYTE_ARRAY, see geo.go). Other extension types are
// stored as their storage type, and the ARROW:schema entry brings them
// back.
func extensionLeaf(t arrow.ExtensionType) (LeafType, bool) {
	st := t.StorageType()
	switch t.ExtensionName() {
	case uuidExtensionName:
		if fsb, ok := st.(*arrow.FixedSizeBinaryType); ok && fsb.ByteWidth == 16 {
			return LeafType{Physical: footer.TypeFixedLenByteArray, length: 16, logical: footer.LogicalType{Kind: footer.LogicalUUID}}, true
		}
	case jsonExtensionName:
		switch st.ID() {
		case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
			return LeafType{Physical: footer.TypeByteArray, logical: footer.LogicalType{Kind: footer.LogicalJSON}}, true
		}
	case geoarrow.ExtensionName:
		switch st.ID() {
		case arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW:
			if lt, ok := geoLeaf(t); ok {
				return LeafType{Physical: footer.TypeByteArray, logical: lt}, true
			}
		}
	}
	return LeafType{}, false
}

// decimalLeaf stores decimal32 in INT32, decimal64 in INT64, and wider
// decimals in the narrowest FIXED_LEN_BYTE_ARRAY that holds their
// precision (as pqarrow does). Parquet has no negative scale.
func decimalLeaf(t arrow.DecimalType) (LeafType, bool) {
	p, s := t.GetPrecision(), t.GetScale()
	if p < 1 || p > MaxDecimalPrecision || s < 0 || s > p {
		return LeafType{}, false
	}
	leaf := LeafType{logical: footer.LogicalType{Kind: footer.LogicalDecimal, Decimal: footer.DecimalType{Precision: p, Scale: s}}}
	switch t.ID() {
	case arrow.DECIMAL32:
		leaf.Physical = footer.TypeInt32
	case arrow.DECIMAL64:
		leaf.Physical = footer.TypeInt64
	default:
		leaf.Physical, leaf.length = footer.TypeFixedLenByteArray, DecimalBytes(p)
	}
	return leaf, true
}

// parquetTimeUnit returns the TIMESTAMP unit an Arrow unit is written in;
// seconds, which Parquet lacks, are written as milliseconds.
func parquetTimeUnit(u arrow.TimeUnit) footer.TimeUnit {
	switch u {
	case arrow.Microsecond:
		return footer.TimeUnitMicros
	case arrow.Nanosecond:
		return footer.TimeUnitNanos
	}
	return footer.TimeUnitMillis
}

// legacyConverted returns the ConvertedType LogicalTypes.md's forward
// compatibility tables pair with lt, if any. Local (not UTC-adjusted)
// times and timestamps get TIME_* and TIMESTAMP_* too, as the spec asks;
// NANOS units, UUID, FLOAT16 and UNKNOWN have none.
func legacyConverted(lt footer.LogicalType) footer.Optional[footer.ConvertedType] {
	var none footer.Optional[footer.ConvertedType]
	switch lt.Kind {
	case footer.LogicalString:
		return footer.Some(footer.ConvertedUTF8)
	case footer.LogicalMap:
		return footer.Some(footer.ConvertedMap)
	case footer.LogicalList:
		return footer.Some(footer.ConvertedList)
	case footer.LogicalEnum:
		return footer.Some(footer.ConvertedEnum)
	case footer.LogicalDecimal:
		return footer.Some(footer.ConvertedDecimal)
	case footer.LogicalDate:
		return footer.Some(footer.ConvertedDate)
	case footer.LogicalJSON:
		return footer.Some(footer.ConvertedJSON)
	case footer.LogicalBSON:
		return footer.Some(footer.ConvertedBSON)
	case footer.LogicalTime:
		switch lt.Time.Unit {
		case footer.TimeUnitMillis:
			return footer.Some(footer.ConvertedTimeMillis)
		case footer.TimeUnitMicros:
			return footer.Some(footer.ConvertedTimeMicros)
		}
	case footer.LogicalTimestamp:
		switch lt.Timestamp.Unit {
		case footer.TimeUnitMillis:
			return footer.Some(footer.ConvertedTimestampMillis)
		case footer.TimeUnitMicros:
			return footer.Some(footer.ConvertedTimestampMicros)
		}
	case footer.LogicalInteger:
		return intConverted(lt.Integer)
	}
	return none
}

// intConverted returns the INT_n or UINT_n converted type of an INT
// annotation with a width the spec allows.
func intConverted(it footer.IntType) footer.Optional[footer.ConvertedType] {
	var base footer.ConvertedType
	switch it.BitWidth {
	case 8:
		base = footer.ConvertedUint8
	case 16:
		base = footer.ConvertedUint16
	case 32:
		base = footer.ConvertedUint32
	case 64:
		base = footer.ConvertedUint64
	default:
		return footer.Optional[footer.ConvertedType]{}
	}
	if it.IsSigned {
		// INT_8..INT_64 follow UINT_8..UINT_64 in the same order.
		base += footer.ConvertedInt8 - footer.ConvertedUint8
	}
	return footer.Some(base)
}

// fieldIDFromMetadata returns the PARQUET:field_id of field metadata m, if
// it holds a non-negative int32.
func fieldIDFromMetadata(m arrow.Metadata) footer.Optional[int32] {
	if i := m.FindKey(FieldIDKey); i >= 0 {
		if id, err := strconv.ParseInt(m.Values()[i], 10, 32); err == nil && id >= 0 {
			return footer.Some(int32(id))
		}
	}
	return footer.Optional[int32]{}
}

// EncodeArrowSchema returns the ARROW:schema value for s: base64 of an IPC
// stream of the schema message alone, with list elements named "element".
func EncodeArrowSchema(s *arrow.Schema) (string, error) {
	fields := make([]arrow.Field, s.NumFields())
	for i, f := range s.Fields() {
		fields[i] = ParquetNamed(f)
	}
	meta := s.Metadata()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(arrow.NewSchema(fields, &meta)))
	if err := w.Close(); err != nil {
		return "", fmt.Errorf("arrowio: encoding the ARROW:schema entry: %w", err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// ParquetNamed returns f with the children of its lists and maps renamed
// as the Parquet schema names them ("element", "key", "value"), at every
// depth. Dictionaries and extension types are kept as they are.
func ParquetNamed(f arrow.Field) arrow.Field {
	switch t := f.Type.(type) {
	case *arrow.StructType:
		kids := make([]arrow.Field, t.NumFields())
		for i, c := range t.Fields() {
			kids[i] = ParquetNamed(c)
		}
		f.Type = arrow.StructOf(kids...)
	case *arrow.MapType:
		entries := arrow.Field{Name: "entries", Type: arrow.StructOf(ParquetNamed(t.KeyField()), ParquetNamed(t.ItemField()))}
		f.Type = WithChildren(t, []arrow.Field{entries})
	case arrow.ListLikeType:
		elem := ParquetNamed(t.ElemField())
		elem.Name = "element"
		f.Type = WithChildren(t, []arrow.Field{elem})
	}
	return f
}
