// Package colwrite encodes Arrow arrays into Parquet column chunks: one
// Writer per leaf column chooses the encoding (dictionary with fallback to
// the type's plain, delta, byte-stream-split or RLE encoding; a chunk
// whose first page says the dictionary does not pay has none), cuts and
// compresses pages into a PageBuffer (an uncompressed, unencrypted page is
// built there in place, behind room for its header), and gathers
// statistics, page-index entries and bloom filter hashes as it goes; the
// statistics pass over float values also counts their NaNs (Writer.NaNs),
// for file metrics. Pages are cut when their encoded values
// reach the page size or row limit, and, with content-defined chunking
// (Settings.CDC, cdc.go), where a rolling gear hash over the values and
// levels says, so that an edit to a table changes only nearby pages.
// BYTE_ARRAY pages keep their values as their encoding writes them
// (encode_bytes_page.go), PLAIN values bounded and appended in one pass
// (scanUnsigned), and a dictionary-encoded page is bounded by the
// distinct values it holds.
//
//	arrow.Array (flat) ----------------------> Writer.WriteFlat
//	arrow.Array (nested) -> levels.Shredder -> Writer.WriteNested
//	Writer -> pages (codec.Compressor, encrypt sealing) -> chunk bytes
//	Writer.FinishChunk -> ColumnMetaData, ColumnIndex, OffsetIndex, bloom
//
// Package arrowio resolves WriteOptions into one Settings per leaf, runs
// the Writers of a row group (in parallel when asked, the Writers one
// goroutine runs sharing a PageScratch) and lays their chunks, page
// indexes, bloom filters and the footer out in the file. A chunk stays
// open across the batches that fill its row group: mini-batches, and so
// pages, end where the chunk's entries say, whatever the batches, and
// BufferedBytes tells arrowio when the row group reaches its byte limit.
package colwrite
