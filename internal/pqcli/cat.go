package pqcli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/csv"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/pageindex"
)

func runCat(args []string, out io.Writer) error {
	return catCommand("cat", args, out, -1)
}

func runHead(args []string, out io.Writer) error {
	return catCommand("head", args, out, 10)
}

// catCommand prints rows of a file as JSON lines or CSV; head is cat with
// a default limit.
func catCommand(name string, args []string, out io.Writer, limit int) error {
	fs := newFlags(name)
	columns := fs.String("columns", "", "comma-separated column paths to print (default: all)")
	n := fs.Int("limit", limit, "print at most this many rows (-1: all)")
	format := fs.String("format", "jsonl", "output format: jsonl or csv")
	keys := addKeyFlags(fs)
	int96 := addInt96Flag(fs)
	where := fs.String("where", "", `print only rows that satisfy this predicate, as 'x > 5 and s = "a"'`)
	stats := fs.Bool("stats", false, "print the reads made of the file to stderr after the rows: requests, bytes fetched and used, time waiting")
	file, err := parseFile(fs, args)
	if err != nil {
		return err
	}
	if *stats && isDataset(file) {
		return fmt.Errorf("%w: --stats reads one file or URL, not a dataset", errUsage)
	}
	if *format != "jsonl" && *format != "csv" {
		return fmt.Errorf("%w: --format %q: want jsonl or csv", errUsage, *format)
	}
	cfg, err := keys.config()
	if err != nil {
		return err
	}
	opts := arrowio.ReadOptions{Decryption: cfg}
	if opts.Mapping, err = int96(); err != nil {
		return err
	}
	if *columns != "" {
		opts.Columns = strings.Split(*columns, ",")
	}
	if *where != "" {
		if opts.Filter, err = pageindex.Parse(*where); err != nil {
			return fmt.Errorf("%w: --where: %w", errUsage, err)
		}
	}
	if *n >= 0 && *n < arrowio.DefaultBatchSize {
		opts.BatchSize = max(*n, 1)
	}
	rr, err := openRecords(context.Background(), file, opts)
	if err != nil {
		return err
	}
	defer rr.close()
	defer rr.Release()
	if *stats {
		// After the rows are flushed (defers run last in, first out).
		defer func() { fmt.Fprintln(statsOut, formatIOStats(rr.file.IOStats())) }()
	}
	w := bufio.NewWriter(out)
	defer w.Flush()
	var sink func(arrow.RecordBatch) error
	if *format == "csv" {
		cw := csv.NewWriter(w, rr.Schema(), csv.WithHeader(true), csv.WithNullWriter(""))
		defer cw.Flush()
		sink = cw.Write
	} else {
		sink = func(rec arrow.RecordBatch) error { return writeJSONLines(w, rec) }
	}
	left := int64(*n)
	for (left != 0) && rr.Next() {
		rec := rr.RecordBatch()
		if left > 0 && rec.NumRows() > left {
			rec = rec.NewSlice(0, left)
			defer rec.Release()
		}
		if err := sink(rec); err != nil {
			return err
		}
		if left > 0 {
			left -= rec.NumRows()
		}
	}
	return rr.Err()
}

// statsOut is where --stats prints; tests replace it.
var statsOut io.Writer = os.Stderr

// formatIOStats is the line --stats prints.
func formatIOStats(s arrowio.IOStats) string {
	return fmt.Sprintf("io: %d requests, %d bytes fetched, %d bytes used, %v waiting, %d bytes at most fetched ahead",
		s.Requests, s.BytesFetched, s.BytesUsed, s.Wait.Round(time.Microsecond), s.PeakBuffered)
}

// writeJSONLines writes one JSON object per row, fields in schema order.
func writeJSONLines(w *bufio.Writer, rec arrow.RecordBatch) error {
	names := make([][]byte, rec.NumCols())
	for i, f := range rec.Schema().Fields() {
		b, err := json.Marshal(f.Name)
		if err != nil {
			return err
		}
		names[i] = b
	}
	for r := 0; r < int(rec.NumRows()); r++ {
		w.WriteByte('{')
		for c, col := range rec.Columns() {
			if c > 0 {
				w.WriteByte(',')
			}
			w.Write(names[c])
			w.WriteByte(':')
			v, err := json.Marshal(jsonValue(col, r))
			if err != nil {
				return err
			}
			w.Write(v)
		}
		w.WriteString("}\n")
	}
	return nil
}

// jsonValue is the JSON form of value r of col (null for nulls).
func jsonValue(col arrow.Array, r int) any {
	if col.IsNull(r) {
		return nil
	}
	if s, ok := col.(*array.String); ok {
		return s.Value(r)
	}
	return col.GetOneForMarshal(r)
}
