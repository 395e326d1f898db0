// Package datasets generates the deterministic Arrow record batches that the
// benchmarks write to Parquet and read back: a TPC-H lineitem-like flat
// table, a taxi-trip-like table, a float table for BYTE_STREAM_SPLIT, a
// string-heavy table, a nested table (lists, structs, maps, lists of
// structs) and a 1,000-column wide table.
//
// Every generator is seeded: the same [Dataset], [Size] and [Version] always
// produce the same values, so files cached by one run stay valid for the
// next. Bump [Version] whenever a generator's output changes.
package datasets
