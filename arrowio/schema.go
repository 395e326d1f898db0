package arrowio

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/arrowio/internal/schema"
	"github.com/quiverio/quiver/footer"
)

// StringLayout picks the Arrow layout of BYTE_ARRAY string and binary
// columns.
type StringLayout = schema.StringLayout

// String layouts.
const (
	// StringsDefault reads string and binary (32-bit offsets).
	StringsDefault = schema.StringsDefault
	// StringsLarge reads large_string and large_binary (64-bit offsets).
	StringsLarge = schema.StringsLarge
	// StringsView reads string_view and binary_view.
	StringsView = schema.StringsView
)

// SchemaOptions tune how a Parquet schema maps to Arrow types. The zero
// value gives the mapping arrow-go's pqarrow gives, except where
// [ArrowSchema] says otherwise.
type SchemaOptions = schema.Options

// ArrowSchemaKey is the file key-value metadata key under which Arrow
// writers store the original Arrow schema (base64 of an IPC schema
// message).
const ArrowSchemaKey = schema.ArrowSchemaKey

// ErrUnknownColumn reports a ReadOptions.Columns path that names no field
// of the file's schema.
var ErrUnknownColumn = schema.ErrUnknownColumn

// ArrowSchema returns the Arrow schema a Reader returns for a file with
// Parquet schema s and file key-value metadata kv.
//
// Groups become structs; LIST and MAP groups become lists and maps under
// every backward-compatibility rule of LogicalTypes.md; a repeated field
// outside a LIST or MAP becomes a non-null list of non-null elements named
// after the field. Leaves map by LogicalType, then ConvertedType, then
// physical type; an annotation that does not apply is ignored, never an
// error. A valid ARROW:schema entry whose structure matches the file
// restores the original Arrow types where the stored values allow it; an
// invalid or mismatched entry is ignored.
//
// Differences from arrow-go's pqarrow (v18.8.0), each following
// LogicalTypes.md or Arrow C++:
//   - PARQUET:field_id metadata appears only on fields that have an id
//     (pqarrow adds "-1" to every field).
//   - Without a usable ARROW:schema, the schema metadata is the file's
//     key-value metadata (pqarrow leaves it empty).
//   - ENUM and JSON read as string (pqarrow: binary); INTERVAL reads as
//     month_day_nano_interval (pqarrow: fixed_size_binary(12)).
//   - An unrecognized LogicalType, or one that does not apply to its
//     physical type, falls back to the ConvertedType or the physical type
//     (pqarrow fails or reads null).
//   - A repeated field outside LIST/MAP is list<name: T not null> (pqarrow
//     names the element "item" and makes it nullable).
//   - In a LIST whose repeated group has one repeated child, the group is
//     the element (rule 3; pqarrow takes the child).
//   - A MAP whose key is optional reads as a map; a null key is corrupt
//     (pqarrow and Arrow C++ refuse the file).
//   - GEOMETRY and GEOGRAPHY read as the geoarrow.wkb extension type
//     (package geoarrow) over binary of the SchemaOptions layout, with
//     the CRS and edges in its metadata, as Arrow C++ reads them
//     (pqarrow reads plain binary: no registered type converts them
//     through its ExtensionCustomArrowReadType hook). A GEOGRAPHY of an
//     unknown edge algorithm, and FILE, read as their storage with the
//     annotation in the PARQUET:logical_type field metadata. A
//     geoarrow.wkb type in ARROW:schema is restored only onto GEOMETRY
//     and GEOGRAPHY columns.
//   - VARIANT: see below for what reading checks and accepts beyond
//     pqarrow.
//   - ARROW:schema also restores string_view, binary_view, list_view,
//     large_list_view, decimal32, decimal64, float16 over
//     fixed_size_binary(2), a dictionary's value type, a map's
//     keys_sorted flag, non-nullability, and extension types whose storage
//     needed no change (pqarrow restores those only when it changed the
//     storage); a time zone is restored even when the stored unit was
//     coerced (as Arrow C++ does).
//
// A VARIANT group reads as arrow-go's extensions.VariantType
// (arrow.parquet.variant), as in pqarrow, over the storage struct pqarrow
// gives it: metadata, value and typed_value in the file's order, a
// shredded object as a struct of non-null {value, typed_value} structs, a
// shredded array as a list of non-null such structs. arrow-go's
// VariantArray then reconstructs the values, and its compute functions
// (variant_get) work on the column. Beyond pqarrow:
//   - Reading checks the shredding against VariantShredding.md. A
//     typed_value of a type the spec does not allow (an unsigned integer, a
//     FIXED_LEN_BYTE_ARRAY that is neither UUID nor DECIMAL, a millisecond
//     timestamp, INT96, ...) makes opening the column an error wrapping
//     ErrUnsupported. Values that contradict each other (value and
//     typed_value both set outside a partially shredded object, a
//     non-object value beside shredded fields, a shredded field also in
//     value) make the read an error wrapping ErrCorrupt; pqarrow reads
//     both, and reconstruction then fails or returns one of the
//     contradicting values.
//   - Looser repetitions than the spec's are read where pqarrow refuses
//     the file: an optional field group of a shredded object reads as
//     non-nullable, a null group as the field missing; an optional
//     metadata or array element reads as non-nullable, a null one being
//     corrupt; a required typed_value, and a required value beside one in
//     a field or element, reads as nullable.
//   - A group the extension type cannot hold (no metadata, a value that
//     is not binary, another field, a typed_value that is a map) reads as
//     its storage struct with the annotation in the PARQUET:logical_type
//     field metadata (pqarrow fails), as does a variant that a Columns
//     projection prunes.
//
// SchemaOptions.VariantStorage reads every VARIANT group as that storage
// struct, unchecked.
//
// UUID reads as arrow-go's arrow.uuid extension type, as in pqarrow: Quiver
// imports arrow-go's arrow/extensions package, which registers it (were it
// unregistered, UUID would read as fixed_size_binary(16)). INT96 reads as
// timestamp[ns, tz=UTC], as in pqarrow (Arrow C++ leaves out the zone);
// SchemaOptions.Int96 changes it.
func ArrowSchema(s *footer.Schema, kv []footer.KeyValue, opts SchemaOptions) *arrow.Schema {
	return schema.ArrowSchema(s, kv, opts)
}
