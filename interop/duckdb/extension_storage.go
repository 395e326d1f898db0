//go:build duckdb_arrow

package duckdb

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/geoarrow"
)

// variantExtension is arrow-go's VARIANT extension type, which DuckDB's
// Arrow scan does not know and crashes on (DuckDB 1.5.6).
const variantExtension = "arrow.parquet.variant"

// refused reports whether DuckDB's Arrow scan refuses extension type ext,
// whose values are then handed over as its storage: VARIANT (the storage
// struct of metadata, value and typed_value), and geoarrow.wkb with edges
// other than planar (a GEOGRAPHY), which DuckDB 1.5.6 has no type for
// ("arrow scan API failure"); geoarrow.wkb of planar edges becomes
// DuckDB's GEOMETRY.
func refused(ext arrow.ExtensionType) bool {
	if ext.ExtensionName() == variantExtension {
		return true
	}
	wt, ok := ext.(*geoarrow.WKBType)
	return ok && wt.Metadata().Edges != "" && wt.Metadata().Edges != "planar"
}

// withoutRefused returns dt with every extension type DuckDB refuses in
// it, at any depth (in structs, lists and maps too), replaced by its
// storage type, and whether there was one.
func withoutRefused(dt arrow.DataType) (arrow.DataType, bool) {
	switch t := dt.(type) {
	case arrow.ExtensionType:
		if refused(t) {
			st, _ := withoutRefused(t.StorageType())
			return st, true
		}
	case *arrow.StructType:
		fields, changed := t.Fields(), false
		for i, f := range fields {
			var c bool
			if fields[i].Type, c = withoutRefused(f.Type); c {
				changed = true
			}
		}
		if changed {
			return arrow.StructOf(fields...), true
		}
	case *arrow.MapType:
		k, ck := withoutRefused(t.KeyType())
		v, cv := withoutRefused(t.ItemType())
		if ck || cv {
			m := arrow.MapOfFields(arrow.Field{Name: t.KeyField().Name, Type: k, Metadata: t.KeyField().Metadata},
				arrow.Field{Name: t.ItemField().Name, Type: v, Nullable: t.ItemField().Nullable, Metadata: t.ItemField().Metadata})
			m.KeysSorted = t.KeysSorted
			return m, true
		}
	case arrow.ListLikeType:
		e := t.ElemField()
		var changed bool
		if e.Type, changed = withoutRefused(e.Type); !changed {
			return dt, false
		}
		switch t := t.(type) {
		case *arrow.ListType:
			return arrow.ListOfField(e), true
		case *arrow.LargeListType:
			return arrow.LargeListOfField(e), true
		case *arrow.FixedSizeListType:
			return arrow.FixedSizeListOfField(t.Len(), e), true
		case *arrow.ListViewType:
			return arrow.ListViewOfField(e), true
		case *arrow.LargeListViewType:
			return arrow.LargeListViewOfField(e), true
		}
	}
	return dt, false
}

// retyped returns d as type dt, which has the same layout (d's type with
// refused extension types replaced by their storage, from withoutRefused): the same
// buffers, with the children retyped likewise (those of unchanged type,
// dictionaries among them, are d's own). The caller releases it.
func retyped(d arrow.ArrayData, dt arrow.DataType) arrow.ArrayData {
	if arrow.TypeEqual(d.DataType(), dt) {
		d.Retain()
		return d
	}
	kids := childTypes(dt)
	children := make([]arrow.ArrayData, len(d.Children()))
	for i, c := range d.Children() {
		children[i] = retyped(c, kids[i])
	}
	out := array.NewData(dt, d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
	for _, c := range children {
		c.Release()
	}
	return out
}

// childTypes returns the types of the child arrays of an array of type dt.
func childTypes(dt arrow.DataType) []arrow.DataType {
	switch t := dt.(type) {
	case arrow.ExtensionType:
		return childTypes(t.StorageType())
	case *arrow.StructType:
		out := make([]arrow.DataType, t.NumFields())
		for i, f := range t.Fields() {
			out[i] = f.Type
		}
		return out
	case *arrow.MapType:
		return []arrow.DataType{t.Elem()}
	case arrow.ListLikeType:
		return []arrow.DataType{t.Elem()}
	}
	return nil
}
