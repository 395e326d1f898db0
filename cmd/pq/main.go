// Command pq inspects Parquet files: their schema, metadata and data.
//
// Usage:
//
//	pq schema FILE                       the schema tree with types, repetition and levels
//	pq schema DIR|GLOB                   a dataset's Arrow schema: its files' columns, then the partition keys
//	pq meta [--json] FILE                row groups, column chunks, sizes, codecs, encodings, statistics
//	pq meta DIR|GLOB                     a dataset's files, rows, bytes, partitions and schema
//	pq cat [flags] FILE|DIR|GLOB         rows as JSON lines or CSV: --columns a,b --limit N --format jsonl|csv --where 'x > 5 and s = "a"' --stats
//	pq head [flags] FILE|DIR|GLOB        the first 10 rows (same flags as cat)
//	pq pageindex [--column c] FILE       each page's location, first row, null count, min and max
//	pq bloom --column c --value v FILE   whether each row group's bloom filter may hold v
//	pq convert [flags] IN OUT            CSV, JSON lines or Parquet to Parquet: --codec zstd --row-group-rows N --row-group-bytes N --sort-by col[:desc][:nulls_first] --page-version 2 --dictionary=false --cdc ...;
//	                                     --partition-by year,month writes OUT as a hive-partitioned directory
//
// Every command reads encrypted files given their keys: --footer-key KEY,
// --column-key PATH:KEY (repeatable) and --aad-prefix PREFIX for files
// that do not store theirs; files with parquet-java key material take
// --master-key ID:KEY (repeatable) and, when the material is external,
// --key-material FILE. A key is its text's bytes, or hex digits after
// "hex:".
//
// --stats (cat, head) prints to stderr, after the rows, the requests the
// read made of a file or URL, the bytes fetched and used and the time
// spent waiting for them.
//
// --where takes pageindex.Parse's syntax, including
// 'intersects(geometry, xmin, ymin, xmax, ymax)' on GEOMETRY and GEOGRAPHY
// columns (a bounding-box test; pq meta prints the geospatial statistics
// it prunes row groups by).
//
// FILE may be an http(s) URL, read with ranged GETs; the build in the
// cloud module (cd cloud && go run ./cmd/pq) also opens s3://, gs:// and
// azblob:// URLs. A directory or a glob
// ('data/**/*.parquet') is read as one dataset: hive partition directories
// (year=2024/) become columns, and a --where condition on them skips files
// without opening them.
package main

import "github.com/quiverio/quiver/internal/pqcli"

func main() { pqcli.Main() }
