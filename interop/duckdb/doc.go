// Package duckdb hands the record batches Quiver reads to DuckDB running in
// the same process, without copying them.
//
// Data flow: [arrowio.Reader.RecordReader] decodes Parquet into Arrow
// batches in Go memory → [ExportStream] (arrow-go's cdata.ExportRecordReader)
// wraps the reader in an Arrow C stream whose arrays point at those same
// buffers → DuckDB's Arrow scan ([RegisterView], through duckdb-go's
// Arrow.RegisterView) pulls batches from the stream as a query runs and
// reads the buffers in place, releasing each batch when it is done with it.
//
// RegisterView and the tests need cgo and DuckDB's Arrow API, which
// duckdb-go builds only with the duckdb_arrow tag:
//
//	go test -tags duckdb_arrow ./...
//
// DuckDB's static library comes from the Go module proxy with the
// duckdb-go-bindings modules; nothing else is downloaded. The tests compare,
// for every file of the parquet-testing corpus that DuckDB can read, each
// column's count and hash sum over Quiver's stream with DuckDB's own
// read_parquet of the file, and the benchmark times a DuckDB aggregate over
// Quiver's stream against DuckDB's own Parquet scan.
//
// This is a module of its own, so that the core module stays free of cgo.
package duckdb
