// Command pq inspects Parquet files: their schema, metadata and data.
//
// Usage:
//
//	pq schema FILE                       the schema tree with types, repetition and levels
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
// FILE may be an http(s) URL, read with ranged GETs. A directory or a glob
// ('data/**/*.parquet') is read as one dataset: hive partition directories
// (year=2024/) become columns, and a --where condition on them skips files
// without opening them.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// command is one pq subcommand: it parses its own flags from args and writes
// its output to out.
type command struct {
	name    string
	summary string
	run     func(args []string, out io.Writer) error
}

var commands = []command{
	{"schema", "print the schema tree with types, repetition and levels", runSchema},
	{"meta", "print row groups, column chunks, sizes, codecs, encodings and statistics", runMeta},
	{"cat", "print rows as JSON lines or CSV (--columns a,b --limit N --format jsonl|csv --where PREDICATE --stats)", runCat},
	{"head", "print the first rows (cat with --limit 10)", runHead},
	{"convert", "write CSV, JSON lines or Parquet as Parquet (--codec, --row-group-rows, --row-group-bytes, --sort-by, --page-version, --dictionary, --partition-by, ...)", runConvert},
	{"pageindex", "print the column and offset index of each column chunk (--column c)", runPageIndex},
	{"bloom", "check a value against each row group's bloom filter (--column c --value v)", runBloom},
}

// errUsage marks an error caused by how pq was called (exit status 2).
var errUsage = errors.New("usage")

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "pq:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(out)
		if len(args) == 0 {
			return fmt.Errorf("%w: no command given", errUsage)
		}
		return nil
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], out)
		}
	}
	return fmt.Errorf("%w: unknown command %q (try pq help)", errUsage, args[0])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "pq inspects Parquet files.\n\nUsage: pq COMMAND [flags] FILE\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
}
