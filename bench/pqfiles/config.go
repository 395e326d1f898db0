package pqfiles

import (
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/bench/datasets"
	"github.com/quiverio/quiver/footer"
)

// Version identifies the writer configurations below; together with
// [datasets.Version] it names the cache directory. Change it whenever a
// configuration writes different bytes.
const Version = 2

// Config is one way of writing a dataset: codec, dictionary, page version
// and the non-dictionary encoding of each leaf. It becomes pqarrow writer
// properties ([Config.Write]) or quiver writer options
// ([Config.WriteQuiver]), so both writers get the same settings.
type Config struct {
	// Name is the short name used in benchmark and file names.
	Name string

	codec      footer.CompressionCodec
	dictionary bool
	pageV2     bool
	// encoding returns the non-dictionary encoding of the leaf at path of
	// physical type t, or false to leave the writer's default (PLAIN).
	encoding func(d *datasets.Dataset, path string, t parquet.Type) (footer.Encoding, bool)
}

var (
	// DictSnappy is arrow-go's default layout (dictionary encoding with
	// PLAIN fallback, data page v1) compressed with snappy.
	DictSnappy = &Config{Name: "dict-snappy", codec: footer.CodecSnappy, dictionary: true}
	// Plain is PLAIN encoding, dictionary off, uncompressed, data page v1.
	Plain = &Config{Name: "plain", codec: footer.CodecUncompressed}
	// ZstdV2 is dictionary encoding compressed with zstd (default level)
	// in data pages v2.
	ZstdV2 = &Config{Name: "zstd-v2", codec: footer.CodecZstd, dictionary: true, pageV2: true}
	// Delta turns dictionaries off and stores INT32/INT64 leaves as
	// DELTA_BINARY_PACKED, the dataset's prefix-sharing strings as
	// DELTA_BYTE_ARRAY and other strings as DELTA_LENGTH_BYTE_ARRAY, in
	// uncompressed data pages v2: the encodings alone, as the project's
	// reader and writer speed goals measure them (version 1 compressed
	// them with snappy, which buried the decoding under the codec).
	Delta = &Config{Name: "delta", codec: footer.CodecUncompressed, pageV2: true, encoding: deltaEncoding}
	// BSSZstd stores FLOAT/DOUBLE leaves as BYTE_STREAM_SPLIT, dictionary
	// off, compressed with zstd, data page v1.
	BSSZstd = &Config{Name: "bss-zstd", codec: footer.CodecZstd, encoding: bssEncoding}
)

// Codec returns the compression codec of c's pages.
func (c *Config) Codec() footer.CompressionCodec { return c.codec }

func deltaEncoding(d *datasets.Dataset, path string, t parquet.Type) (footer.Encoding, bool) {
	switch t {
	case parquet.Types.Int32, parquet.Types.Int64:
		return footer.EncodingDeltaBinaryPacked, true
	case parquet.Types.ByteArray:
		if slices.Contains(d.PrefixStrings, path) {
			return footer.EncodingDeltaByteArray, true
		}
		return footer.EncodingDeltaLengthByteArray, true
	}
	return 0, false
}

func bssEncoding(_ *datasets.Dataset, _ string, t parquet.Type) (footer.Encoding, bool) {
	if t == parquet.Types.Float || t == parquet.Types.Double {
		return footer.EncodingByteStreamSplit, true
	}
	return 0, false
}

// leafEncodings returns the dotted path of every leaf of d that c gives an
// encoding, with that encoding.
func (c *Config) leafEncodings(d *datasets.Dataset) (map[string]footer.Encoding, error) {
	out := map[string]footer.Encoding{}
	if c.encoding == nil {
		return out, nil
	}
	leaves, err := pqarrow.ToParquet(d.Schema, parquet.NewWriterProperties(), arrowProps)
	if err != nil {
		return nil, fmt.Errorf("pqfiles: %s schema: %w", d.Name, err)
	}
	for i := range leaves.NumColumns() {
		col := leaves.Column(i)
		path := col.ColumnPath().String()
		if enc, ok := c.encoding(d, path, col.PhysicalType()); ok {
			out[path] = enc
		}
	}
	return out, nil
}

// rowGroupRows is the row-group length that holds the largest of d's
// batches at size s, so each batch is one row group.
func rowGroupRows(d *datasets.Dataset, s datasets.Size) int64 {
	rows, groups := int64(d.Rows(s)), int64(d.RowGroups)
	return (rows + groups - 1) / groups
}

// Configs returns the configurations each dataset is written with: every
// flat table with dictionary+snappy, plain and zstd v2; the integer and
// string tables also with delta encodings; the float table with
// BYTE_STREAM_SPLIT; the nested table with dictionary+snappy and plain;
// the wide table with dictionary+snappy only.
func Configs(d *datasets.Dataset) []*Config {
	switch d.Name {
	case "floats":
		return []*Config{DictSnappy, Plain, BSSZstd}
	case "nested":
		return []*Config{DictSnappy, Plain}
	case "wide":
		return []*Config{DictSnappy}
	default:
		return []*Config{DictSnappy, Plain, ZstdV2, Delta}
	}
}

// arrowProps are the Arrow-level writer options of every configuration:
// the Arrow schema is stored in the footer, as pyarrow and arrow-go do by
// default, so readers restore the exact Arrow types.
var arrowProps = pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())

// WriterProperties returns the pqarrow writer properties of c for d at
// size s. Codec and encoding numbers are the thrift values in both
// libraries, so they convert directly.
func (c *Config) WriterProperties(d *datasets.Dataset, s datasets.Size) (*parquet.WriterProperties, error) {
	encs, err := c.leafEncodings(d)
	if err != nil {
		return nil, err
	}
	version := parquet.DataPageV1
	if c.pageV2 {
		version = parquet.DataPageV2
	}
	opts := []parquet.WriterProperty{
		parquet.WithCompression(compress.Compression(c.codec)),
		parquet.WithDictionaryDefault(c.dictionary),
		parquet.WithDataPageVersion(version),
		parquet.WithMaxRowGroupLength(rowGroupRows(d, s)),
	}
	for path, enc := range encs {
		opts = append(opts, parquet.WithEncodingFor(path, parquet.Encoding(enc)))
	}
	return parquet.NewWriterProperties(opts...), nil
}

// QuiverOptions returns quiver's writer options for c on d at size s:
// the same codec, dictionary, page version, encodings and row groups as
// [Config.WriterProperties], page CRCs off as pqarrow writes them, with
// the given parallelism (1: sequential, 0: GOMAXPROCS).
func (c *Config) QuiverOptions(d *datasets.Dataset, s datasets.Size, parallelism int) (arrowio.WriteOptions, error) {
	encs, err := c.leafEncodings(d)
	if err != nil {
		return arrowio.WriteOptions{}, err
	}
	opts := arrowio.WriteOptions{
		Compression:       c.codec,
		DisableDictionary: !c.dictionary,
		PageVersion:       arrowio.PageV1,
		MaxRowGroupRows:   rowGroupRows(d, s),
		MaxRowGroupBytes:  -1, // pqarrow has no byte limit
		DisableCRC:        true,
		Parallelism:       parallelism,
	}
	if c.pageV2 {
		opts.PageVersion = arrowio.PageV2
	}
	if len(encs) > 0 {
		opts.Columns = map[string]arrowio.ColumnOptions{}
		for path, enc := range encs {
			opts.Columns[path] = arrowio.ColumnOptions{Encoding: footer.Some(enc)}
		}
	}
	return opts, nil
}

// Write writes recs (d's batches at size s) to w as one Parquet file in
// configuration c, one row group per batch, and closes the file (not w).
func (c *Config) Write(w io.Writer, d *datasets.Dataset, s datasets.Size, recs []arrow.RecordBatch) error {
	props, err := c.WriterProperties(d, s)
	if err != nil {
		return err
	}
	fw, err := pqarrow.NewFileWriter(d.Schema, writerOnly{w}, props, arrowProps)
	if err != nil {
		return fmt.Errorf("pqfiles: %s/%s: %w", d.Name, c.Name, err)
	}
	for _, r := range recs {
		if err := fw.Write(r); err != nil {
			fw.Close()
			return fmt.Errorf("pqfiles: %s/%s: %w", d.Name, c.Name, err)
		}
	}
	if err := fw.Close(); err != nil {
		return fmt.Errorf("pqfiles: %s/%s: %w", d.Name, c.Name, err)
	}
	return nil
}

// writerOnly hides any Close method of the caller's writer from pqarrow,
// whose Close would otherwise close it.
type writerOnly struct{ io.Writer }

// WriteQuiver is [Config.Write] with quiver's writer (arrowio.NewWriter
// with [Config.QuiverOptions]). Errors wrapping arrowio.ErrUnsupported
// mean quiver cannot write d yet.
func (c *Config) WriteQuiver(w io.Writer, d *datasets.Dataset, s datasets.Size, recs []arrow.RecordBatch, parallelism int) error {
	opts, err := c.QuiverOptions(d, s, parallelism)
	if err != nil {
		return err
	}
	qw, err := arrowio.NewWriter(w, d.Schema, opts)
	if err != nil {
		return fmt.Errorf("pqfiles: quiver %s/%s: %w", d.Name, c.Name, err)
	}
	for _, r := range recs {
		// pqarrow's Write makes each batch a row group; Flush does
		// the same here.
		err := qw.Write(r)
		if err == nil {
			err = qw.Flush()
		}
		if err != nil {
			qw.Close()
			return fmt.Errorf("pqfiles: quiver %s/%s: %w", d.Name, c.Name, err)
		}
	}
	if err := qw.Close(); err != nil {
		return fmt.Errorf("pqfiles: quiver %s/%s: %w", d.Name, c.Name, err)
	}
	return nil
}
