// Package schema maps Parquet schemas to Arrow schemas and back.
//
// Reading: NewPlan turns a file's schema tree (footer.Schema) and key-value
// metadata into a Plan: the Arrow schema of the record batches and, for
// each Arrow field, a FieldPlan saying how the definition and repetition
// levels of its leaves assemble it. A stored ARROW:schema entry (decoded by
// a verifying flatbuffer reader, never trusted) restores the writer's Arrow
// types where the stored values allow it; Plan.Project narrows a plan to
// the selected column paths.
//
//	footer.Schema + key-value metadata -> NewPlan -> Plan{Schema, Fields, Leaves}
//	Plan.Project(paths)                 -> Plan of the selected leaves
//
// Writing: FromArrow maps an Arrow schema to the footer's SchemaElement
// list (LogicalType and ConvertedType both set) and the ARROW:schema value
// to store, so Quiver and arrow-go read back the exact Arrow types.
//
//	arrow.Schema -> FromArrow -> Parquet{Elements, ArrowSchema}
package schema
