// Package pqcli is the pq command: cmd/pq runs it as is, and the build in
// the cloud module (cloud/cmd/pq) with openers for object-store URLs, so
// that the core module never depends on a cloud SDK. See cmd/pq for the
// commands and their flags.
package pqcli

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

// Main runs pq on the process's arguments, with openers for the URL
// schemes given, and exits: status 2 for a usage error, 1 for any other.
func Main(openers ...Opener) {
	if err := Run(os.Args[1:], os.Stdout, openers...); err != nil {
		fmt.Fprintln(os.Stderr, "pq:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// Run runs the pq command args (its name first), writing its output to
// out; FILE arguments may also be URLs of the openers' schemes. The
// openers hold for the call, so calls must not overlap (pq runs one).
func Run(args []string, out io.Writer, openers ...Opener) error {
	extra = openers
	defer func() { extra = nil }()
	return run(args, out)
}

// run runs a pq command with the openers Run set.
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

// usage prints the commands and what each does.
func usage(w io.Writer) {
	fmt.Fprintln(w, "pq inspects Parquet files.\n\nUsage: pq COMMAND [flags] FILE\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
}
