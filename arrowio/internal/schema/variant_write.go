package schema

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/footer"
)

// variant appends the VARIANT group of field f (named name, at dotted
// path path) of variant extension type t: the storage struct's fields,
// the annotation, and a check that every shredded leaf has a type
// VariantShredding.md allows.
func (w *elementWriter) variant(path, name string, rep footer.FieldRepetitionType, id footer.Optional[int32], t arrow.ExtensionType) error {
	st, ok := t.StorageType().(*arrow.StructType)
	if !ok || st.NumFields() == 0 {
		return fmt.Errorf("%w: field %q: variant storage %s is not a struct of metadata, value and typed_value", errs.ErrUnsupported, path, t.StorageType())
	}
	if _, err := extensions.NewVariantType(st); err != nil {
		return fmt.Errorf("%w: field %q: %w", errs.ErrUnsupported, path, err)
	}
	for _, f := range st.Fields() {
		if f.Name != "typed_value" {
			continue
		}
		if bad, dt := unshreddable(path+".typed_value", f.Type); dt != nil {
			return fmt.Errorf("%w: field %q: shredded value %q has Arrow type %s, which is not a shredded type VariantShredding.md allows",
				errs.ErrUnsupported, path, bad, dt)
		}
	}
	w.group(name, rep, id, footer.LogicalType{Kind: footer.LogicalVariant, Variant: footer.VariantType{SpecificationVersion: footer.Some(int8(1))}}, st.NumFields())
	for _, c := range st.Fields() {
		if err := w.field(path+"."+c.Name, c.Name, c); err != nil {
			return err
		}
	}
	return nil
}

// unshreddable returns the path and type of the first leaf of typed_value
// type dt (at path) that Parquet would store as a type VariantShredding.md
// does not allow, or a nil type. Objects are structs of {value,
// typed_value} structs and arrays lists of them; NewVariantType has
// checked that shape.
func unshreddable(path string, dt arrow.DataType) (string, arrow.DataType) {
	if d, ok := dt.(*arrow.DictionaryType); ok {
		dt = d.ValueType
	}
	switch t := dt.(type) {
	case *arrow.StructType:
		for _, f := range t.Fields() {
			if p, bad := unshreddable(path+"."+f.Name, pairTyped(f.Type)); bad != nil {
				return p, bad
			}
		}
		return "", nil
	case arrow.ListLikeType:
		return unshreddable(path+".element", pairTyped(t.Elem()))
	case *arrow.DurationType:
		// Stored as a plain INT64, which reads back as int64.
		return path, dt
	}
	if ext, ok := dt.(arrow.ExtensionType); ok && ext.ExtensionName() != uuidExtensionName {
		return path, dt
	}
	leaf, ok := ParquetLeafOf(dt)
	if !ok || !shreddableParquet(leaf.Physical, leaf.logical, leaf.length) {
		return path, dt
	}
	return "", nil
}

// pairTyped returns the typed_value type of a {value, typed_value} struct
// type, or nil (nothing to check) when it has none.
func pairTyped(dt arrow.DataType) arrow.DataType {
	if st, ok := dt.(*arrow.StructType); ok {
		if f, ok := st.FieldByName("typed_value"); ok {
			return f.Type
		}
	}
	return nil
}

// shreddableParquet reports whether a leaf of physical type phys with
// annotation lt (FIXED_LEN_BYTE_ARRAY of length bytes) is in
// VariantShredding.md's "Shredded Value Types" table.
func shreddableParquet(phys footer.Type, lt footer.LogicalType, length int32) bool {
	if lt.Kind == footer.LogicalDecimal && lt.Decimal.Precision > maxDecimal128Precision {
		return false // VariantEncoding.md: no decimal above 38 digits
	}
	switch phys {
	case footer.TypeBoolean, footer.TypeFloat, footer.TypeDouble:
		return lt.Kind == footer.LogicalNone
	case footer.TypeInt32:
		switch lt.Kind {
		case footer.LogicalNone, footer.LogicalDecimal, footer.LogicalDate:
			return true
		case footer.LogicalInteger:
			return lt.Integer.IsSigned && lt.Integer.BitWidth <= 32
		}
	case footer.TypeInt64:
		switch lt.Kind {
		case footer.LogicalNone, footer.LogicalDecimal:
			return true
		case footer.LogicalInteger:
			return lt.Integer.IsSigned && lt.Integer.BitWidth == 64
		case footer.LogicalTime:
			return lt.Time.Unit == footer.TimeUnitMicros
		case footer.LogicalTimestamp:
			return lt.Timestamp.Unit == footer.TimeUnitMicros || lt.Timestamp.Unit == footer.TimeUnitNanos
		}
	case footer.TypeByteArray:
		switch lt.Kind {
		case footer.LogicalNone, footer.LogicalString, footer.LogicalDecimal:
			return true
		}
	case footer.TypeFixedLenByteArray:
		return lt.Kind == footer.LogicalDecimal || lt.Kind == footer.LogicalUUID && length == 16
	}
	return false
}
