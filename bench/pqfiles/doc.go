// Package pqfiles writes the benchmark datasets to Parquet with arrow-go's
// pqarrow in the configurations users meet (dictionary+snappy, plain,
// zstd with data page v2, delta encodings, BYTE_STREAM_SPLIT+zstd), and
// keeps the files in a cache directory keyed by the generator version so
// that later runs reuse them and stale ones get rebuilt.
package pqfiles
