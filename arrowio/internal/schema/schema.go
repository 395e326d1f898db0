package schema

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/quiverio/quiver/footer"
)

// StringLayout picks the Arrow layout of BYTE_ARRAY string and binary
// columns.
type StringLayout uint8

// String layouts.
const (
	// StringsDefault reads string and binary (32-bit offsets).
	StringsDefault StringLayout = iota
	// StringsLarge reads large_string and large_binary (64-bit offsets).
	StringsLarge
	// StringsView reads string_view and binary_view.
	StringsView
)

// Options tune how a Parquet schema maps to Arrow types. The zero
// value gives the mapping arrow-go's pqarrow gives, except where the
// package documentation of [ArrowSchema] says otherwise.
type Options struct {
	// Strings is the layout of string and binary columns. It applies to
	// every BYTE_ARRAY leaf the mapping types as string or binary; a
	// non-default layout wins over the layout an ARROW:schema entry stores.
	Strings StringLayout
	// Int96 is the Arrow type INT96 timestamps decode to; nil means
	// timestamp[ns, tz=UTC], as in arrow-go's pqarrow. Nanoseconds in an
	// int64 span 1677-09-21 to 2262-04-11: reading an INT96 value outside
	// the span of the unit is an error wrapping ErrOutOfRange that names
	// the column, page and value (arrow-go's pqarrow refuses them too;
	// Arrow C++ returns them wrapped around, a wrong date). A coarser
	// unit reads every date within its span exactly, to that unit:
	// microseconds reach ±292,000 years, which Spark's dates fit, and
	// milliseconds and seconds hold every INT96 value. The Julian day is
	// read as unsigned, as Arrow C++ and arrow-go read it. Predicates
	// (ReadOptions.Filter) on INT96 columns need the nanosecond unit.
	Int96 *arrow.TimestampType
	// IgnoreArrowSchema maps the Parquet schema alone, ignoring an
	// ARROW:schema key-value entry.
	IgnoreArrowSchema bool
	// VariantStorage reads VARIANT groups as their storage struct (metadata,
	// value and typed_value as the Parquet schema has them) with the
	// annotation in the PARQUET:logical_type field metadata, instead of as
	// arrow-go's extensions.VariantType, also when an ARROW:schema entry
	// stores that type. The shredded columns are then plain Arrow columns:
	// nothing checks them against VariantShredding.md, and nothing
	// reconstructs the values.
	VariantStorage bool
}

// ArrowSchemaKey is the file key-value metadata key under which Arrow
// writers store the original Arrow schema (base64 of an IPC schema
// message).
const ArrowSchemaKey = "ARROW:schema"

// ArrowSchema returns the Arrow schema of a file with Parquet schema s and
// file key-value metadata kv (the mapping arrowio.ArrowSchema documents).
func ArrowSchema(s *footer.Schema, kv []footer.KeyValue, opts Options) *arrow.Schema {
	return NewPlan(s, kv, opts).Schema
}

// Plan is the reader's map from a file's Parquet schema to the Arrow
// schema it returns: one fieldPlan tree per top-level Arrow field.
type Plan struct {
	// schema is the Arrow schema of the record batches.
	Schema *arrow.Schema
	// fields holds one plan per field of schema, in order.
	Fields []*FieldPlan
	// leaves holds the leaf plans the record batches read, in column order
	// (every leaf of the file, or the projected ones).
	Leaves []*FieldPlan
	// parquet is the file's schema tree.
	parquet *footer.Schema
}

// FieldKind says how the reader assembles a fieldPlan's Arrow array.
type FieldKind uint8

// Field kinds.
const (
	// KindLeaf: the values of one leaf column.
	KindLeaf FieldKind = iota
	// KindStruct: children are the struct's fields.
	KindStruct
	// KindList: one child, the element (field.Type is a list, large_list,
	// fixed_size_list, list_view or large_list_view).
	KindList
	// KindMap: one child, the non-null "entries" struct, whose two children
	// are the key and the value; it assembles like a list of that struct.
	KindMap
)

// FieldPlan describes one Arrow field of the schema the reader returns and
// how the definition and repetition levels of the leaf columns below it
// (Dremel, see nested-dremel.txt) decide its slots, nulls and list lengths.
//
// Levels. Every leaf value arrives with a definition level d and a
// repetition level r. Read against a plan p:
//
//   - d < p.slotDefLevel: no slot of p at all; an enclosing list is null or
//     empty there (slotDefLevel is the definition level at which the
//     nearest enclosing list has an element, 0 outside lists).
//   - p.slotDefLevel <= d < p.defLevel: p's slot is null (p itself or an
//     enclosing struct is null). When p.nullCorrupt is set, d ==
//     p.defLevel-1 is corrupt instead: the Parquet node is optional but the
//     Arrow field is not nullable (an optional map key, or a field an
//     ARROW:schema declares non-nullable).
//   - d >= p.defLevel: p's slot holds a value.
//
// For a list or map p, additionally:
//
//   - d == p.defLevel (below p.elemDefLevel): the list is present and
//     empty; d >= p.elemDefLevel: the list holds an element at this level
//     (elemDefLevel is always defLevel+1, the repeated node's level).
//   - r < p.elemRepLevel: the entry starts a new list of p (or of an
//     enclosing list); r >= p.elemRepLevel continues p's current list,
//     with a new element when r == p.elemRepLevel.
//   - A fixed_size_list of size n must hold exactly n elements in every
//     non-null list; anything else is corrupt.
//
// p.repLevel is the repetition level of p's own slots: the number of
// repeated Parquet nodes enclosing p (for a list or map, elemRepLevel-1).
// A leaf's defLevel and repLevel equal its column's MaxDef and MaxRep.
//
// A struct is present when d >= defLevel; its children share its
// slotDefLevel. A list element's slotDefLevel is the list's elemDefLevel.
type FieldPlan struct {
	// field is the Arrow field, with the final type (after ARROW:schema).
	Field arrow.Field
	Kind  FieldKind
	// node is the Parquet node behind the field: the leaf, the group, the
	// LIST- or MAP-annotated group, or the repeated field itself for a list
	// made from an unannotated repeated field (and for its element).
	Node     *footer.Node
	Parent   *FieldPlan
	Children []*FieldPlan
	// column is the leaf column index (footer.Schema.Leaves and each row
	// group's Columns); -1 for other kinds.
	Column int

	DefLevel, RepLevel int16
	SlotDefLevel       int16
	// elemDefLevel and elemRepLevel are set for lists and maps only.
	ElemDefLevel, ElemRepLevel int16
	NullCorrupt                bool
	// Err, when set, is why the field cannot be read although it maps: a
	// VARIANT whose shredded types VariantShredding.md does not allow.
	// Plan.Project returns it for a selected field that keeps its type.
	Err error
}

// NewPlan maps s, with file key-value metadata kv, to the reader's
// plan (see [ArrowSchema] for the rules). It cannot fail: every schema
// footer.NewSchema accepts has an Arrow form.
func NewPlan(s *footer.Schema, kv []footer.KeyValue, opts Options) *Plan {
	b := planBuilder{opts: &opts, kv: kv}
	p := &Plan{parquet: s, Fields: make([]*FieldPlan, 0, len(s.Root.Children))}
	for _, c := range s.Root.Children {
		p.Fields = append(p.Fields, b.field(c, 0, nil))
	}
	var (
		meta   arrow.Metadata
		stored *arrow.Schema
	)
	if !opts.IgnoreArrowSchema {
		if v, ok := keyValue(kv, ArrowSchemaKey); ok {
			if st, err := DecodeArrowSchema(v); err == nil && storedSchemaFits(p.Fields, st) {
				stored = st
			}
		}
	}
	if stored != nil {
		for i, f := range p.Fields {
			applyStored(f, stored.Field(i), &opts)
		}
		meta = stored.Metadata()
	} else {
		meta = fileMetadata(kv)
	}
	p.Schema = arrow.NewSchema(PlanFields(p.Fields), &meta)
	p.Leaves = collectLeaves(p.Fields, make([]*FieldPlan, 0, len(s.Leaves)))
	return p
}

// keyValue returns the value of the first entry named key.
func keyValue(kv []footer.KeyValue, key string) (string, bool) {
	for _, e := range kv {
		if e.Key == key {
			return e.Value.Or(""), true
		}
	}
	return "", false
}

// fileMetadata turns the file's key-value metadata, less any ARROW:schema
// entry, into Arrow schema metadata (a key without a value maps to "").
func fileMetadata(kv []footer.KeyValue) arrow.Metadata {
	keys := make([]string, 0, len(kv))
	vals := make([]string, 0, len(kv))
	for _, e := range kv {
		if e.Key != ArrowSchemaKey {
			keys = append(keys, e.Key)
			vals = append(vals, e.Value.Or(""))
		}
	}
	if len(keys) == 0 {
		return arrow.Metadata{}
	}
	return arrow.NewMetadata(keys, vals)
}

// PlanFields returns the Arrow fields of plans.
func PlanFields(plans []*FieldPlan) []arrow.Field {
	out := make([]arrow.Field, len(plans))
	for i, p := range plans {
		out[i] = p.Field
	}
	return out
}

// collectLeaves appends the leaf plans below plans to dst in depth-first
// order, which is column order.
func collectLeaves(plans []*FieldPlan, dst []*FieldPlan) []*FieldPlan {
	for _, p := range plans {
		if p.Kind == KindLeaf {
			dst = append(dst, p)
			continue
		}
		dst = collectLeaves(p.Children, dst)
	}
	return dst
}
