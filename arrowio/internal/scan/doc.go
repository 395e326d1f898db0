// Package scan reads one Parquet file: a File holds its footer, projected
// schema, decryption state and options, and plans and runs the reads of
// its row groups. For each selected row group it prunes by statistics,
// bloom filters, dictionaries and the page index when a filter is set,
// fetches the projected column chunks, hands them to the column readers of
// package colread on a bounded number of goroutines, and evaluates the
// filter on the decoded rows.
//
// The read planner (fetch.go) turns the byte ranges a read wants into
// requests to the io.ReaderAt: ranges within IOOptions.HoleLimit merge,
// merged ranges over RangeLimit split into requests that run side by
// side, and a File keeps at most Concurrency requests in flight. Reads
// through Open without a filter fetch the chunks of the row groups a read
// visits in order, ahead of their decoding within PrefetchBytes
// (prefetch.go), in requests that ramp up from about one round trip's
// bytes to RangeLimit (ramp.go), and each column's reader opens as soon
// as the requests that read its own chunks have returned, the columns
// decoding in the order their bytes arrive (arriving.go); a filtered read
// fetches the page indexes, bloom filters and small dictionaries of all
// its row groups in one round (index_round.go), then, through the same
// prefetcher and budget, each row group's pages of the predicate's
// columns that those leave (planFiltered), and, once a row group's
// predicate has selected its rows, its pages of the other columns
// together, spread over all Concurrency requests when they are fewer
// bytes than that many RangeLimit requests (ramp.go).
// Local files OpenFile opened read each chunk as its column decodes (page
// by page for uncompressed fixed-width values) or slice it out of a memory
// mapping. The footer is one suffix read of FooterReadSize bytes
// (footer.ReadTailSize), which the File keeps to serve the ranges within
// it (index_round.go); a File given its footer's metadata
// (encrypt.OpenMetadata) reads no footer, and reads the same last bytes
// only when a lookup first falls within them. IOStats (iostats.go) counts requests, bytes
// fetched and used, waiting and bytes held ahead.
//
//	Open -> footer (one suffix read, encrypt.OpenFooter; or
//	        Options.Metadata, encrypt.OpenMetadata) -> schema.Plan,
//	        projection, filter
//	RecordReader/ReadTable/ReadRowGroup
//	  -> prefetcher (planned spans, fetched ahead: chunks, or a filtered
//	     group's predicate pages) or OpenGroup (prune, byte ranges,
//	     readRanges) -> colread readers
//	  -> Group.Read -> record batches (filtered rows taken by span)
//
// Package arrowio's Reader is the public face of a File.
package scan
