// Package arrowio is Quiver's public API: it reads Parquet files into Arrow
// record batches and writes Arrow record batches as Parquet row groups.
//
// Column chunks decode straight into Arrow buffers allocated from the
// caller's memory.Allocator through the vectorized routines of package
// kernels; nothing passes through per-value Go interfaces or builders.
//
// The machinery lives in internal packages that import one way:
//
//	errs, codec, schema            errors, page codecs, Parquet <-> Arrow types
//	variantcheck                   shredded VARIANT values against VariantShredding.md
//	page     <- codec              page headers, CRC, decryption, v1/v2 split
//	colread  <- page, schema,      leaf readers into Arrow buffers, nested assembly
//	            variantcheck
//	colwrite <- codec, schema      column writers: encodings, page cutting (sizes,
//	                               content-defined chunking), statistics, indexes
//	arrowio  <- colread, colwrite  options, Reader/Writer lifecycle, row groups,
//	                               filters and I/O scheduling
//
// Read: footer (one suffix read, or none with ReadOptions.Metadata) -> schema.NewPlan -> per row group and
// projected column, chunk bytes (planned by scan: near ranges merged, long
// ones split, several requests in flight, fetched ahead of decoding within
// IOOptions.PrefetchBytes) -> colread reader -> arrow.Array -> record
// batch.
// Write: record batch -> one colwrite.Writer per leaf, whose chunk stays
// open across batches -> row group written at MaxRowGroupRows,
// MaxRowGroupBytes (encoded bytes) or Flush -> page indexes, bloom
// filters and footer at Close, with Metadata and Metrics after it.
package arrowio
