// Package duckdb hands the record batches Quiver reads to DuckDB running in
// the same process, without copying them.
//
// Data flow: [arrowio.Reader.RecordReader] decodes Parquet into Arrow
// batches in memory Quiver allocated → [ExportStream] (arrow-go's
// cdata.ExportRecordReader) wraps the reader in an Arrow C stream whose
// arrays point at those same buffers → DuckDB's Arrow scan
// ([RegisterView], through duckdb-go's Arrow API) pulls batches from the
// stream as a query runs, reads the buffers in place and releases each
// batch when done with it. RegisterView hands DuckDB each batch as one
// struct column over the same arrays, because DuckDB's C-API Arrow scan
// pushes column projections and filters into a stream that cannot apply
// them (wrong values, ignored WHERE clauses, crashes); the view it defines
// unpacks the struct, and DuckDB selects and filters itself.
//
// RegisterView and the tests need cgo and DuckDB's Arrow API, which
// duckdb-go builds only with the duckdb_arrow tag:
//
//	go test -tags duckdb_arrow ./...
//
// DuckDB 1.5.6 comes from duckdb-go v2.10506.0 and its static library from
// the Go module proxy, in the duckdb-go-bindings modules; nothing else is
// downloaded. The tests compare, for every file of the parquet-testing
// corpus that DuckDB reads, each column's count and hash sum over Quiver's
// stream with DuckDB's own read_parquet of the file (QUIVER_HEAVY=1, `make heavy`,
// adds a file of 2 GiB of strings, which needs 6.6 GB of memory); the
// benchmark times a DuckDB aggregate over Quiver's stream against DuckDB's
// own Parquet scan (QUIVER_BENCH_SIZE=small for a quick run).
//
// This is a module of its own, so that the core module stays free of cgo.
package duckdb
