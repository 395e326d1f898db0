package pqcli

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/dataset"
)

// isDataset reports whether name is a local directory or a glob, which pq
// reads as one dataset of many files.
func isDataset(name string) bool {
	if isURL(name) {
		return false
	}
	if strings.ContainsAny(name, "*?[") {
		return true
	}
	st, err := os.Stat(name)
	return err == nil && st.IsDir()
}

// records is the rows of a file, URL or dataset being read, and what
// closes what was opened for them.
type records struct {
	array.RecordReader
	close func() error
	// file is the Reader of a single file or URL, nil for a dataset.
	file *reader
}

// openRecords returns a reader of the rows of name (a file, URL, directory
// or glob) that opts selects.
func openRecords(ctx context.Context, name string, opts arrowio.ReadOptions) (*records, error) {
	if isDataset(name) {
		ds, err := openDataset(ctx, name, dataset.Options{Columns: opts.Columns, Filter: opts.Filter, Read: opts})
		if err != nil {
			return nil, err
		}
		rr, err := ds.RecordReader(ctx)
		if err != nil {
			return nil, err
		}
		return &records{RecordReader: rr, close: func() error { return nil }}, nil
	}
	rd, err := openReader(name, opts)
	if err != nil {
		return nil, err
	}
	rr, err := rd.RecordReader(ctx)
	if err != nil {
		rd.Close()
		return nil, err
	}
	return &records{RecordReader: rr, close: rd.Close, file: rd}, nil
}

// openDataset opens the dataset at name, a directory or glob. One in which
// no file is found is an error here, as in DuckDB's read_parquet: a
// mistyped glob should not print nothing.
func openDataset(ctx context.Context, name string, opts dataset.Options) (*dataset.Dataset, error) {
	ds, err := dataset.Open(ctx, nil, []string{name}, opts)
	if err != nil {
		return nil, err
	}
	if len(ds.Schema().Fields()) == 0 {
		return nil, fmt.Errorf("no Parquet file found at %q", name)
	}
	return ds, nil
}

// datasetMeta prints a summary of the dataset at name: files, rows,
// bytes, partition keys with their distinct values, and the schema.
func datasetMeta(name string, out io.Writer) error {
	ctx := context.Background()
	ds, err := openDataset(ctx, name, dataset.Options{})
	if err != nil {
		return err
	}
	rows, err := ds.CountRows(ctx)
	if err != nil {
		return err
	}
	files := ds.Files()
	var bytes int64
	values := map[string][]string{}
	var keys []string
	for _, f := range files {
		bytes += f.Size
		for _, p := range f.Partitions {
			if _, ok := values[p.Key]; !ok {
				keys = append(keys, p.Key)
			}
			v := p.Value
			if p.Null {
				v = "NULL"
			}
			if !slices.Contains(values[p.Key], v) {
				values[p.Key] = append(values[p.Key], v)
			}
		}
	}
	fmt.Fprintf(out, "dataset:     %s\n", name)
	fmt.Fprintf(out, "files:       %d (%d bytes)\n", len(files), bytes)
	fmt.Fprintf(out, "rows:        %d\n", rows)
	for _, k := range keys {
		vs := values[k]
		slices.Sort(vs)
		shown := vs
		if len(shown) > 8 {
			shown = shown[:8]
		}
		more := ""
		if len(vs) > len(shown) {
			more = fmt.Sprintf(", … (%d in all)", len(vs))
		}
		fmt.Fprintf(out, "partition:   %s = %s%s\n", k, strings.Join(shown, ", "), more)
	}
	fmt.Fprintf(out, "schema:\n")
	writeArrowFields(out, ds.Schema())
	return nil
}
