// Package scan reads one Parquet file: a File holds its footer, projected
// schema, decryption state and options, and plans and runs the reads of
// its row groups. For each selected row group it prunes by statistics,
// bloom filters, dictionaries and the page index when a filter is set,
// fetches the projected column chunks (whole chunks coalesced into few
// reads, page by page from local files, or sliced from a memory mapping),
// hands them to the column readers of package colread on a bounded number
// of goroutines, and evaluates the filter on the decoded rows.
//
//	Open -> footer, encrypt.OpenFooter -> schema.Plan, projection, filter
//	RecordReader/ReadTable/ReadRowGroup
//	  -> OpenGroup (prune, byte ranges, ReadAt) -> colread readers
//	  -> Group.Read -> record batches (filtered rows taken by span)
//
// Package arrowio's Reader is the public face of a File.
package scan
