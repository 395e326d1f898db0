// Package bench times quiver beside arrow-go's pqarrow and parquet-go on the
// same generated datasets (package datasets, written to Parquet by package
// pqfiles) and the same kernel inputs, in one `go test -bench` run.
//
// Benchmark names put the implementation last
// (BenchmarkRead/dataset=lineitem/config=dict-snappy/impl=pqarrow), so
// benchstat and cmd/ratios line implementations up per group. Every
// benchmark reports time, MB/s of decoded Arrow data, rows/s or values/s,
// allocations, and peak-heap-MB: the peak heap in use during the timed loop
// above the heap in use just before it. See README.md for the commands.
package bench
