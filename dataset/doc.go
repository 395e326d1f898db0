// Package dataset reads and writes many Parquet files as one table: a
// directory tree or object-store prefix of files, usually hive-partitioned
// (year=2024/month=03/part-0.parquet), as Spark, DuckDB, Trino and pyarrow
// write them. It uses arrowio's public API for each file and adds what
// lies between files: discovery, partitions, one schema, filters that skip
// whole files, a bounded parallel scan, splits for distributed scans, and
// partitioned writes whose files appear whole.
//
// Read:
//
//	Open(src, paths)
//	  │  Source.List: directories, ** globs, files; skip _SUCCESS, .crc,
//	  │  _temporary/, "_" and "." names, empty files          (discover.go)
//	  ▼
//	files ──► key=value directories ──► typed key values,   (partition.go)
//	  │         one array per key over all files
//	  ▼
//	schema: caller's | first file's footer | all footers unified (schema.go)
//	  │      footers cached with each file's last 64 KiB    (footer_cache.go)
//	  ▼
//	Filter ─► pageindex.Inspect, NOT pushed down ─┬─ partition conditions:
//	  │                                            │  Bind + Select over the
//	  │                                            │  key values, per file
//	  │                                            └─ data conditions: per
//	  │                                               file, arrowio's Filter
//	  ▼                                                          (filter.go)
//	selected files (ruled-out ones never opened)
//	  │
//	  ├─ CountRows: footers; statistics decide whole row groups (count.go)
//	  ├─ Splits ──JSON──► ReadSplit anywhere                     (split.go)
//	  ▼
//	RecordReader: ≤ MaxOpenFiles workers                          (scan.go)
//	  worker: Source.Open ─► footer (cache) ─► fold filter for the file
//	          ─► arrowio.Open(Columns, RowGroups, Filter) ─► batches
//	          ─► cast to the dataset types, nulls for missing columns,
//	             partition columns (dictionary | run-end | plain)
//	  ─► queue ≤ MaxBufferedBytes ─► file order (or Unordered) ─► caller
//
// Write:
//
//	batches ─► runs of equal PartitionBy values (slices) ─► the
//	partition's open file (≤ MaxOpenFiles, least recent completed first)
//	─► gathered to RowGroupRows ─► arrowio.Writer ─► Upload under a hidden
//	temporary name ─► Commit at MaxRowsPerFile / MaxBytesPerFile / Close;
//	an error or cancellation aborts the open files           (write.go)
//
// A [Source] lists and opens files ([Local] is the local filesystem; the
// cloud module's Bucket.Dataset is any object store), a [Sink] creates
// them. Filters follow SQL's three-valued logic, as pageindex's do: a
// condition on a null partition value, or on a column a file lacks, is
// unknown, and NOT of it too, so neither selects the file's rows.
// Conditions on partition keys are exact and cost no file opens;
// conditions on
// data columns prune row groups and pages by statistics, bloom filters and
// page indexes inside each file and filter rows exactly.
package dataset
