package schema

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"

	"github.com/quiverio/quiver/geoarrow"
)

// The ARROW:schema entry is the Arrow schema a writer started from. Parquet
// cannot say everything Arrow can (offset widths, dictionaries, time zones,
// durations, extension types, ...), so where the stored type describes the
// same stored values the mapping found, the stored type wins. A stored
// schema whose nesting does not match the file is ignored as a whole.

// storedSchemaFits reports whether stored has one field per plan in
// fields, nested the same way.
func storedSchemaFits(fields []*FieldPlan, stored *arrow.Schema) bool {
	if stored.NumFields() != len(fields) {
		return false
	}
	for i, f := range fields {
		if !storedFits(f, stored.Field(i).Type) {
			return false
		}
	}
	return true
}

// storedFits reports whether stored type t has the nesting of plan p:
// structs with as many fields, lists (of any layout) and maps where p has
// them, and non-nested types at leaves. Extension types count as their
// storage.
func storedFits(p *FieldPlan, t arrow.DataType) bool {
	t = storageOf(t)
	switch p.Kind {
	case KindStruct:
		st, ok := t.(*arrow.StructType)
		if !ok || st.NumFields() != len(p.Children) {
			return false
		}
		for i, c := range p.Children {
			if !storedFits(c, st.Field(i).Type) {
				return false
			}
		}
		return true
	case KindMap:
		mt, ok := t.(*arrow.MapType)
		return ok && storedFits(p.Children[0], mt.Elem())
	case KindList:
		if !isListLayout(t) {
			return false
		}
		return storedFits(p.Children[0], t.(arrow.ListLikeType).Elem())
	}
	_, nested := t.(arrow.NestedType)
	return !nested
}

// isListLayout reports whether t is one of the list layouts a Parquet list
// can be read into.
func isListLayout(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.LIST, arrow.LARGE_LIST, arrow.FIXED_SIZE_LIST, arrow.LIST_VIEW, arrow.LARGE_LIST_VIEW:
		return true
	}
	return false
}

// storageOf returns t's storage type when t is an extension type, else t.
func storageOf(t arrow.DataType) arrow.DataType {
	if ext, ok := t.(arrow.ExtensionType); ok {
		return ext.StorageType()
	}
	return t
}

// applyStored restores stored field o onto plan p, which storedFits has
// matched: types, field metadata (merged; the file's keys, such as
// PARQUET:field_id, win) and non-nullability. Names stay the file's.
//
// A GEOMETRY or GEOGRAPHY leaf stays geoarrow.wkb (see restoreGeo); a
// stored geoarrow.wkb is not restored onto any other column, whose bytes
// no annotation says are WKB (the writer of this package annotates every
// geoarrow.wkb column it writes). A
// VARIANT group stays a variant over the restored storage (the stored
// type need not be one), or becomes the annotated struct when the
// restored storage cannot be one. A stored variant type is not restored
// under Options.VariantStorage. A variant's shredded types are checked
// again as restored (FieldPlan.Err).
func applyStored(p *FieldPlan, o arrow.Field, opts *Options) {
	shape := storageOf(o.Type)
	variant := isVariant(p.Field.Type)
	wkb, geo := p.Field.Type.(*geoarrow.WKBType)
	switch {
	case geo:
		p.Field.Type = restoreGeo(wkb, o.Type)
	case p.Kind == KindLeaf:
		p.Field.Type = restoreLeaf(p.Field.Type, shape)
	default:
		kids := StoredChildren(shape)
		for i, c := range p.Children {
			applyStored(c, kids[i], opts)
		}
		p.Field.Type = WithChildren(shape, PlanFields(p.Children))
	}
	if ext, ok := o.Type.(arrow.ExtensionType); ok && !geo && ext.ExtensionName() != geoarrow.ExtensionName &&
		extensionHolds(ext, p.Field.Type) && !(opts.VariantStorage && isVariant(ext)) {
		p.Field.Type = ext
	}
	if variant && !isVariant(p.Field.Type) {
		if vt, err := extensions.NewVariantType(p.Field.Type); err == nil {
			p.Field.Type = vt
		} else {
			p.Field.Metadata = mergeMetadata(p.Field.Metadata, metadataOf(LogicalTypeKey, p.Node.Logical().String()))
		}
	}
	if isVariant(p.Field.Type) {
		p.Err = shreddingError(p)
	}
	if o.HasMetadata() {
		p.Field.Metadata = mergeMetadata(o.Metadata, p.Field.Metadata)
	}
	if !o.Nullable && p.Field.Nullable {
		p.Field.Nullable = false
		p.NullCorrupt = true
	}
}

// StoredChildren returns the child fields of nested type t in plan order:
// a struct's fields, a list's element, a map's entries struct.
func StoredChildren(t arrow.DataType) []arrow.Field {
	switch t := t.(type) {
	case *arrow.StructType:
		return t.Fields()
	case *arrow.MapType:
		return []arrow.Field{t.ElemField()}
	case arrow.ListLikeType:
		return []arrow.Field{t.ElemField()}
	}
	return nil
}

// extensionHolds reports whether extension type ext can stand for
// inferred: its storage is inferred, or inferred is the same extension
// (as the UUID extension is when registered).
func extensionHolds(ext arrow.ExtensionType, inferred arrow.DataType) bool {
	if ie, ok := inferred.(arrow.ExtensionType); ok {
		return ie.ExtensionName() == ext.ExtensionName() && arrow.TypeEqual(ie.StorageType(), ext.StorageType())
	}
	return arrow.TypeEqual(ext.StorageType(), inferred)
}

// restoreLeaf returns the stored leaf type o when it describes the values
// the mapping typed as inferred, and inferred otherwise.
//
// Restored, as arrow-go and Arrow C++ do: large_string and large_binary
// over string and binary; a dictionary over string or binary; the time
// zone of a UTC timestamp; duration over int64; decimal256 over decimal128.
// Also restored here: string_view and binary_view, decimal32 and decimal64
// over decimal128, and float16 over fixed_size_binary(2). Not restored,
// because the stored values were rescaled on write (as neither arrow-go nor
// Arrow C++ restores them): date64 (stored as DATE days), time32[s] and
// timestamp[s] (stored as milliseconds); the time zone is still restored.
func restoreLeaf(inferred, o arrow.DataType) arrow.DataType {
	switch o := o.(type) {
	case *arrow.DictionaryType:
		if isStringOrBinary(inferred) {
			return &arrow.DictionaryType{IndexType: o.IndexType, ValueType: restoreLeaf(inferred, o.ValueType), Ordered: o.Ordered}
		}
	case *arrow.TimestampType:
		if it, ok := inferred.(*arrow.TimestampType); ok && it.TimeZone == "UTC" && o.TimeZone != "" {
			return &arrow.TimestampType{Unit: it.Unit, TimeZone: o.TimeZone}
		}
	case *arrow.DurationType:
		if inferred.ID() == arrow.INT64 {
			return o
		}
	case *arrow.LargeStringType, *arrow.StringViewType:
		if inferred.ID() == arrow.STRING {
			return o
		}
	case *arrow.LargeBinaryType, *arrow.BinaryViewType:
		if inferred.ID() == arrow.BINARY {
			return o
		}
	case arrow.DecimalType:
		if id, ok := inferred.(arrow.DecimalType); ok && id.GetPrecision() == o.GetPrecision() && id.GetScale() == o.GetScale() {
			return o
		}
	case *arrow.Float16Type:
		if fsb, ok := inferred.(*arrow.FixedSizeBinaryType); ok && fsb.ByteWidth == 2 {
			return o
		}
	}
	return inferred
}

// isStringOrBinary reports whether t is one of the variable-length string
// or binary types a dictionary can be read over.
func isStringOrBinary(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRING, arrow.BINARY, arrow.LARGE_STRING, arrow.LARGE_BINARY:
		return true
	}
	return false
}

// WithChildren returns nested type shape rebuilt over child fields kids (in
// storedChildren order): a struct of kids, the same list layout (and fixed
// size) over kids[0], a map over the key and value of the entries struct
// kids[0] (keeping shape's keys_sorted flag). An extension type keeps
// itself when its storage comes back unchanged and becomes the rebuilt
// storage otherwise.
func WithChildren(shape arrow.DataType, kids []arrow.Field) arrow.DataType {
	switch t := shape.(type) {
	case arrow.ExtensionType:
		st := WithChildren(t.StorageType(), kids)
		if arrow.TypeEqual(st, t.StorageType()) {
			return t
		}
		return st
	case *arrow.StructType:
		return arrow.StructOf(kids...)
	case *arrow.MapType:
		entries := kids[0].Type.(*arrow.StructType)
		mt := arrow.MapOfFields(entries.Field(0), entries.Field(1))
		mt.KeysSorted = t.KeysSorted
		return mt
	case *arrow.LargeListType:
		return arrow.LargeListOfField(kids[0])
	case *arrow.FixedSizeListType:
		return arrow.FixedSizeListOfField(t.Len(), kids[0])
	case *arrow.ListViewType:
		return arrow.ListViewOfField(kids[0])
	case *arrow.LargeListViewType:
		return arrow.LargeListViewOfField(kids[0])
	}
	return arrow.ListOfField(kids[0])
}

// mergeMetadata returns base with the keys of over added or replaced.
func mergeMetadata(base, over arrow.Metadata) arrow.Metadata {
	keys := append([]string(nil), base.Keys()...)
	vals := append([]string(nil), base.Values()...)
	for i, k := range over.Keys() {
		if j := base.FindKey(k); j >= 0 {
			vals[j] = over.Values()[i]
			continue
		}
		keys = append(keys, k)
		vals = append(vals, over.Values()[i])
	}
	return arrow.NewMetadata(keys, vals)
}
