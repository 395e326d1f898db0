// Package colread decodes the pages of one column chunk straight into Arrow
// buffers. A LeafReader reads a flat leaf (no repetition, at most one
// level of nulls): definition levels become the validity bitmap and the
// values decode by encoding (PLAIN, dictionary, RLE, delta, byte stream
// split) through the kernels into the output buffers, converted to the
// leaf's Arrow type on the way (NewTarget). A NestedReader reads the leaves
// of one struct, list or map field and assembles them with package levels.
// Dictionary-encoded chunks can come out as Arrow dictionary arrays.
//
//	chunk bytes -> page.Iterator -> page.SplitData -> levels + values
//	  -> value decoder (by encoding) -> colOut (Arrow buffers) -> arrow.Array
//
// Readers take their memory from Options.Mem and check CRCs when
// Options.VerifyCRC is set; scheduling, I/O and filtering are the callers'.
package colread
