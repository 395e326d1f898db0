// Package levels converts between Parquet's Dremel encoding of nested data
// (a definition level and a repetition level for every leaf entry, see
// nested-dremel.txt) and nested Arrow arrays.
//
// Reading, an [Assembler] takes, for each leaf column of one top-level
// field, the decoded definition and repetition levels of a batch of whole
// rows and the leaf's dense values (only the present, non-null ones), and
// builds the field's Arrow array: struct, list, large_list,
// fixed_size_list, list_view, large_list_view and map nodes in any
// nesting, with their validity bitmaps and offsets. The shape comes from a
// [Node] tree that the caller derives from the Parquet schema; this package
// knows nothing of Parquet metadata.
//
// Writing, a [Shredder] takes a nested Arrow array and a [Node] tree and
// produces, for each leaf, the definition and repetition levels and the
// selection of leaf slots whose values the column stores.
//
// Levels are untrusted input: inconsistent levels are errors wrapping
// [ErrCorrupt], never panics, and nothing is allocated from a count that
// the levels themselves have not already paid for.
package levels
