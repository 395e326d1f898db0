// Package colwrite encodes Arrow arrays into Parquet column chunks: one
// Writer per leaf column chooses the encoding (dictionary with fallback to
// the type's plain, delta, byte-stream-split or RLE encoding), cuts and
// compresses pages, and gathers statistics, page-index entries and bloom
// filter hashes as it goes.
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
