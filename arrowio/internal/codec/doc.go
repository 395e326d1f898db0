// Package codec compresses and decompresses Parquet pages with every codec
// of the format: UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD, LZ4_RAW and,
// for reading only, the deprecated LZ4 in its Hadoop, raw-block and frame
// forms (LZO is reported unsupported).
//
// The writer's column writers each keep a Compressor; the reader's page
// iterators each take a Decompressor from a pool. Both keep the codecs'
// state from page to page so that, once warm, a page costs no allocation:
//
//	page body -> Compressor.Compress -> stored page
//	stored page -> Decompressor.Decompress(size) -> page body (checked size)
//
// Every length is checked against the size the page header declares before
// memory is written, and errors wrap errs.ErrCorrupt or errs.ErrUnsupported.
package codec
