package pqcli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/csv"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/dataset"
	"github.com/quiverio/quiver/footer"
)

// convertChunk is how many CSV or JSON lines rows are parsed into one
// record batch.
const convertChunk = 1 << 16

// runConvert writes a CSV, JSON lines or Parquet file as Parquet, or as
// a hive-partitioned dataset with --partition-by.
func runConvert(args []string, out io.Writer) error {
	fs := newFlags("convert")
	from := fs.String("from", "auto", "input format: csv, jsonl, parquet, or auto (from the file name)")
	codec := fs.String("codec", "snappy", "compression: uncompressed, snappy, gzip, zstd, brotli, lz4_raw")
	level := fs.Int("level", 0, "compression level (0: the codec's default)")
	rowGroupRows := fs.Int64("row-group-rows", 1<<20, "most rows in a row group")
	rowGroupBytes := fs.Int64("row-group-bytes", arrowio.DefaultMaxRowGroupBytes, "encoded, compressed bytes at which a row group ends")
	sortBy := fs.String("sort-by", "", "declare the rows sorted by these columns: col[:desc][:nulls_first],... (written as sorting_columns; rows are not reordered)")
	pageSize := fs.Int("page-size", arrowio.DefaultDataPageSize, "data page size in bytes")
	pageVersion := fs.Int("page-version", 1, "data page version: 1 or 2")
	dictionary := fs.Bool("dictionary", true, "dictionary-encode columns (falling back when the dictionary grows too large)")
	encoding := fs.String("encoding", "", "non-dictionary encoding for every column (plain, delta_binary_packed, ...; default: plain)")
	stats := fs.Bool("statistics", true, "write column chunk statistics")
	fastSnappy := fs.Bool("fast-snappy", false, "snappy with the faster encoder: quicker writes, text 6-7% larger")
	cdc := fs.Bool("cdc", false, "content-defined chunking: cut data pages where the values say, so edits leave most pages byte-identical")
	cdcMin := fs.Int64("cdc-min-size", arrowio.DefaultCDCMinChunkSize, "content-defined chunking: bytes of values below which a page is not cut")
	cdcMax := fs.Int64("cdc-max-size", arrowio.DefaultCDCMaxChunkSize, "content-defined chunking: bytes of values at which a page is cut")
	cdcNorm := fs.Int("cdc-norm-level", 0, "content-defined chunking: normalization level (higher: page sizes closer to their mean)")
	progress := fs.String("progress", "auto", "progress bar on stderr: auto (when stderr is a terminal), always or never")
	partitionBy := fs.String("partition-by", "", "write OUT as a directory of hive partitions (key=value/) by these comma-separated columns")
	maxRowsPerFile := fs.Int64("max-rows-per-file", 0, "with --partition-by: start a new file in a partition after this many rows (0: no limit)")
	keys := addKeyFlags(fs) // an encrypted Parquet input's keys
	int96 := addInt96Flag(fs)
	in, outPath, err := parseTwoFiles(fs, args)
	if err != nil {
		return err
	}
	decryption, err := keys.config()
	if err != nil {
		return err
	}
	read := arrowio.ReadOptions{Decryption: decryption}
	if read.Mapping, err = int96(); err != nil {
		return err
	}
	opts := arrowio.WriteOptions{
		MaxRowGroupRows:   *rowGroupRows,
		MaxRowGroupBytes:  *rowGroupBytes,
		DataPageSize:      *pageSize,
		DisableDictionary: !*dictionary,
		DisableStatistics: !*stats,
		FastSnappy:        *fastSnappy,
	}
	if *cdc {
		opts.ContentDefinedChunking = &arrowio.CDCOptions{MinChunkSize: *cdcMin, MaxChunkSize: *cdcMax, NormLevel: *cdcNorm}
	}
	if opts.Compression, err = parseCodec(*codec); err != nil {
		return err
	}
	if *level != 0 {
		opts.CompressionLevel = footer.Some(*level)
	}
	switch *pageVersion {
	case 1:
		opts.PageVersion = arrowio.PageV1
	case 2:
		opts.PageVersion = arrowio.PageV2
	default:
		return fmt.Errorf("%w: --page-version %d: want 1 or 2", errUsage, *pageVersion)
	}
	if *encoding != "" {
		enc, err := parseEncoding(*encoding)
		if err != nil {
			return err
		}
		opts.Encoding = footer.Some(enc)
	}
	if *rowGroupRows <= 0 {
		return fmt.Errorf("%w: --row-group-rows %d: want a positive count", errUsage, *rowGroupRows)
	}
	if *rowGroupBytes <= 0 {
		return fmt.Errorf("%w: --row-group-bytes %d: want a positive size", errUsage, *rowGroupBytes)
	}
	if opts.SortingColumns, err = parseSortBy(*sortBy); err != nil {
		return err
	}
	format := *from
	if format == "auto" {
		format = formatOf(in)
	}
	bar, err := newProgress(*progress, os.Stderr)
	if err != nil {
		return err
	}
	src, err := openSource(format, in, read, bar)
	if err != nil {
		return err
	}
	defer src.close()
	if *partitionBy != "" {
		wo := dataset.WriteOptions{PartitionBy: strings.Split(*partitionBy, ","), MaxRowsPerFile: *maxRowsPerFile, RowGroupRows: *rowGroupRows, File: opts}
		files, err := writeDataset(outPath, src, wo, bar)
		bar.finish()
		if err != nil {
			return err
		}
		var rows int64
		parts := map[string]bool{}
		for _, f := range files {
			rows += f.Rows
			parts[filepath.Dir(f.Path)] = true
		}
		fmt.Fprintf(out, "wrote %d rows to %d files in %d partitions under %s\n", rows, len(files), len(parts), outPath)
		return nil
	}
	if *maxRowsPerFile != 0 {
		return fmt.Errorf("%w: --max-rows-per-file applies with --partition-by", errUsage)
	}
	rows, err := writeParquet(outPath, src, opts, bar)
	bar.finish()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "wrote %d rows to %s\n", rows, outPath)
	return nil
}

// writeDataset writes src's batches under the directory root as a
// hive-partitioned dataset; each file appears whole or not at all.
func writeDataset(root string, src *source, opts dataset.WriteOptions, bar *progress) ([]dataset.WrittenFile, error) {
	for _, c := range opts.PartitionBy {
		if len(src.rr.Schema().FieldIndices(c)) == 0 {
			return nil, fmt.Errorf("%w: --partition-by %q: no such column in %s", errUsage, c, src.rr.Schema())
		}
	}
	w, err := dataset.NewWriter(context.Background(), nil, root, src.rr.Schema(), opts)
	if err != nil {
		return nil, err
	}
	var rows int64
	for src.rr.Next() {
		rec := src.rr.RecordBatch()
		if err := w.Write(rec); err != nil {
			return w.Files(), err
		}
		rows += rec.NumRows()
		bar.update(rows)
	}
	if err := src.rr.Err(); err != nil {
		w.Abort()
		return w.Files(), err
	}
	err = w.Close()
	return w.Files(), err
}

// parseTwoFiles parses args into fs and returns its IN and OUT arguments;
// flags may come before, between or after them.
func parseTwoFiles(fs *flag.FlagSet, args []string) (string, string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return "", "", fmt.Errorf("%w: %v", errUsage, err)
		}
		if fs.NArg() == 0 {
			break
		}
		files, args = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	if len(files) != 2 {
		return "", "", fmt.Errorf("%w: %s takes IN and OUT files, got %d arguments", errUsage, fs.Name(), len(files))
	}
	return files[0], files[1], nil
}

// parseCodec returns the codec a --codec value names.
func parseCodec(name string) (footer.CompressionCodec, error) {
	for _, c := range []footer.CompressionCodec{footer.CodecUncompressed, footer.CodecSnappy, footer.CodecGzip,
		footer.CodecZstd, footer.CodecBrotli, footer.CodecLZ4Raw} {
		if strings.EqualFold(c.String(), name) {
			return c, nil
		}
	}
	return 0, fmt.Errorf("%w: --codec %q: want uncompressed, snappy, gzip, zstd, brotli or lz4_raw", errUsage, name)
}

// parseSortBy returns the sorting columns a --sort-by value names:
// comma-separated columns, each a dotted leaf path followed by any of
// ":desc" and ":nulls_first" (ascending, nulls last otherwise).
func parseSortBy(v string) ([]arrowio.SortingColumn, error) {
	if v == "" {
		return nil, nil
	}
	var out []arrowio.SortingColumn
	for _, key := range strings.Split(v, ",") {
		parts := strings.Split(key, ":")
		sc := arrowio.SortingColumn{Column: parts[0]}
		if sc.Column == "" {
			return nil, fmt.Errorf("%w: --sort-by %q: an empty column name", errUsage, v)
		}
		for _, p := range parts[1:] {
			switch strings.ToLower(p) {
			case "desc":
				sc.Descending = true
			case "asc":
			case "nulls_first":
				sc.NullsFirst = true
			case "nulls_last":
			default:
				return nil, fmt.Errorf("%w: --sort-by %q: %q is not asc, desc, nulls_first or nulls_last", errUsage, v, p)
			}
		}
		out = append(out, sc)
	}
	return out, nil
}

// parseEncoding returns the encoding an --encoding value names.
func parseEncoding(name string) (footer.Encoding, error) {
	for _, e := range []footer.Encoding{footer.EncodingPlain, footer.EncodingRLE, footer.EncodingDeltaBinaryPacked,
		footer.EncodingDeltaLengthByteArray, footer.EncodingDeltaByteArray, footer.EncodingByteStreamSplit} {
		if strings.EqualFold(e.String(), name) {
			return e, nil
		}
	}
	return 0, fmt.Errorf("%w: --encoding %q: want plain, rle, delta_binary_packed, delta_length_byte_array, delta_byte_array or byte_stream_split", errUsage, name)
}

// formatOf guesses an input format from a file name's extension.
func formatOf(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv", ".tsv":
		return "csv"
	case ".json", ".jsonl", ".ndjson":
		return "jsonl"
	}
	return "parquet"
}

// source is the input of a conversion: its record batches and what to
// close after them.
type source struct {
	rr    array.RecordReader
	close func()
}

// openSource opens path as format (a Parquet file read with read),
// reporting progress to bar.
func openSource(format, path string, read arrowio.ReadOptions, bar *progress) (*source, error) {
	if format == "parquet" {
		rd, err := openReader(path, read)
		if err != nil {
			return nil, err
		}
		bar.total = rd.NumRows()
		rr, err := rd.RecordReader(context.Background())
		if err != nil {
			rd.Close()
			return nil, err
		}
		return &source{rr: rr, close: func() { rr.Release(); rd.Close() }}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	rr, size, err := openText(format, f, bar)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// The text readers count progress in input bytes.
	bar.total, bar.bytes = size, true
	return &source{rr: rr, close: func() { rr.Release(); f.Close() }}, nil
}

// sampleBytes is how much of a text input its column types are inferred
// from.
const sampleBytes = 4 << 20

// openText infers the schema of a CSV or JSON lines file from its first
// sampleBytes (whole lines) and returns a reader of its batches that
// counts the bytes it reads into bar, and the file's size.
func openText(format string, f *os.File, bar *progress) (array.RecordReader, int64, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	sample := make([]byte, min(st.Size(), sampleBytes))
	if _, err := io.ReadFull(f, sample); err != nil {
		return nil, 0, err
	}
	if int64(len(sample)) < st.Size() {
		// Only whole lines (a quoted CSV field may still span the cut;
		// its record is then left out of the sample).
		sample = sample[:bytes.LastIndexByte(sample, '\n')+1]
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, 0, err
	}
	in := &countingReader{r: f, n: &bar.read}
	switch format {
	case "csv":
		schema, err := inferCSV(sample)
		if err != nil {
			return nil, 0, err
		}
		return csv.NewReader(in, schema, csv.WithHeader(true), csv.WithChunk(convertChunk), csv.WithNullReader(true, "")), st.Size(), nil
	case "jsonl":
		schema, err := inferJSON(sample)
		if err != nil {
			return nil, 0, err
		}
		return array.NewJSONReader(in, schema, array.WithChunk(convertChunk)), st.Size(), nil
	}
	return nil, 0, fmt.Errorf("%w: --from %q: want csv, jsonl, parquet or auto", errUsage, format)
}

// countingReader adds the bytes read through it to *n.
type countingReader struct {
	r io.Reader
	n *int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	*c.n += int64(k)
	return k, err
}

// writeParquet writes the batches of src to a Parquet file at path with
// opts (the Writer cuts the row groups) and returns the rows written. It
// writes a temporary file beside path and renames it, so that a failed
// conversion leaves no partial file.
func writeParquet(path string, src *source, opts arrowio.WriteOptions, bar *progress) (int64, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	w, err := arrowio.NewWriter(tmp, src.rr.Schema(), opts)
	if err != nil {
		tmp.Close()
		return 0, err
	}
	var rows int64
	for src.rr.Next() {
		rec := src.rr.RecordBatch()
		if err = w.Write(rec); err != nil {
			break
		}
		rows += rec.NumRows()
		bar.update(rows)
	}
	if err == nil {
		err = src.rr.Err()
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	return rows, os.Rename(tmp.Name(), path)
}
