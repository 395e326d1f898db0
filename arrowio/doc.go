// Package arrowio is Quiver's public API: it reads Parquet files into Arrow
// record batches and writes Arrow record batches as Parquet row groups.
//
// Column chunks decode straight into Arrow buffers allocated from the
// caller's memory.Allocator through the vectorized routines of package
// kernels; nothing passes through per-value Go interfaces or builders.
package arrowio
