package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/csv"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
)

// convertChunk is how many CSV or JSON lines rows are parsed into one
// record batch.
const convertChunk = 1 << 16

// runConvert writes a CSV, JSON lines or Parquet file as Parquet.
func runConvert(args []string, out io.Writer) error {
	fs := newFlags("convert")
	from := fs.String("from", "auto", "input format: csv, jsonl, parquet, or auto (from the file name)")
	codec := fs.String("codec", "snappy", "compression: uncompressed, snappy, gzip, zstd, brotli, lz4_raw")
	level := fs.Int("level", 0, "compression level (0: the codec's default)")
	rowGroupRows := fs.Int64("row-group-rows", 1<<20, "rows per row group")
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
	keys := addKeyFlags(fs) // an encrypted Parquet input's keys
	in, outPath, err := parseTwoFiles(fs, args)
	if err != nil {
		return err
	}
	decryption, err := keys.config()
	if err != nil {
		return err
	}
	opts := arrowio.WriteOptions{
		MaxRowGroupRows:   *rowGroupRows,
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
	format := *from
	if format == "auto" {
		format = formatOf(in)
	}
	bar, err := newProgress(*progress, os.Stderr)
	if err != nil {
		return err
	}
	src, err := openSource(format, in, decryption, bar)
	if err != nil {
		return err
	}
	defer src.close()
	rows, err := writeParquet(outPath, src, opts, *rowGroupRows, bar)
	bar.finish()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "wrote %d rows to %s\n", rows, outPath)
	return nil
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

// openSource opens path as format (a Parquet file with decryption, when
// not nil), reporting progress to bar.
func openSource(format, path string, decryption *encrypt.DecryptionConfig, bar *progress) (*source, error) {
	if format == "parquet" {
		rd, err := openReader(path, arrowio.ReadOptions{Decryption: decryption})
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

// writeParquet writes src's batches to path as row groups of rowGroupRows
// rows (the last may be shorter), through a temporary file that replaces
// path only when everything is written. It returns the rows written.
func writeParquet(path string, src *source, opts arrowio.WriteOptions, rowGroupRows int64, bar *progress) (int64, error) {
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
	var (
		pending []arrow.RecordBatch
		held    int64
		rows    int64
	)
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		rec, err := concatBatches(pending)
		for _, r := range pending {
			r.Release()
		}
		pending, held = pending[:0], 0
		if err != nil {
			return err
		}
		defer rec.Release()
		return w.Write(rec)
	}
	for src.rr.Next() {
		rec := src.rr.RecordBatch()
		for off := int64(0); off < rec.NumRows(); {
			n := min(rec.NumRows()-off, rowGroupRows-held)
			pending = append(pending, rec.NewSlice(off, off+n))
			held, off, rows = held+n, off+n, rows+n
			if held == rowGroupRows {
				if err = flush(); err != nil {
					break
				}
			}
		}
		if err != nil {
			break
		}
		bar.update(rows)
	}
	if err == nil {
		err = src.rr.Err()
	}
	if err == nil {
		err = flush()
	}
	for _, r := range pending {
		r.Release()
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

// concatBatches joins record batches of one schema into one.
func concatBatches(recs []arrow.RecordBatch) (arrow.RecordBatch, error) {
	if len(recs) == 1 {
		recs[0].Retain()
		return recs[0], nil
	}
	schema := recs[0].Schema()
	cols := make([]arrow.Array, schema.NumFields())
	parts := make([]arrow.Array, len(recs))
	var rows int64
	for _, r := range recs {
		rows += r.NumRows()
	}
	for i := range cols {
		for j, r := range recs {
			parts[j] = r.Column(i)
		}
		c, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			for _, done := range cols[:i] {
				done.Release()
			}
			return nil, fmt.Errorf("joining batches of column %q: %w", schema.Field(i).Name, err)
		}
		cols[i] = c
	}
	rec := array.NewRecordBatch(schema, cols, rows)
	for _, c := range cols {
		c.Release()
	}
	return rec, nil
}
