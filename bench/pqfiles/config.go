package pqfiles

import (
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/quiverio/quiver/bench/datasets"
)

// Version identifies the writer configurations below; together with
// [datasets.Version] it names the cache directory. Change it whenever a
// configuration writes different bytes.
const Version = 1

// Config is one set of pqarrow writer options.
type Config struct {
	// Name is the short name used in benchmark and file names.
	Name string
	// options returns the writer properties for the dataset's leaves
	// (besides the row-group length, which Write sets).
	options func(d *datasets.Dataset, leaves *schema.Schema) []parquet.WriterProperty
}

var (
	// DictSnappy is arrow-go's default layout (dictionary encoding with
	// PLAIN fallback, data page v1) compressed with snappy.
	DictSnappy = &Config{Name: "dict-snappy", options: func(*datasets.Dataset, *schema.Schema) []parquet.WriterProperty {
		return []parquet.WriterProperty{parquet.WithCompression(compress.Codecs.Snappy)}
	}}
	// Plain is PLAIN encoding, dictionary off, uncompressed, data page v1.
	Plain = &Config{Name: "plain", options: func(*datasets.Dataset, *schema.Schema) []parquet.WriterProperty {
		return []parquet.WriterProperty{
			parquet.WithDictionaryDefault(false),
			parquet.WithCompression(compress.Codecs.Uncompressed),
		}
	}}
	// ZstdV2 is dictionary encoding compressed with zstd (default level)
	// in data pages v2.
	ZstdV2 = &Config{Name: "zstd-v2", options: func(*datasets.Dataset, *schema.Schema) []parquet.WriterProperty {
		return []parquet.WriterProperty{
			parquet.WithCompression(compress.Codecs.Zstd),
			parquet.WithDataPageVersion(parquet.DataPageV2),
		}
	}}
	// Delta turns dictionaries off and stores INT32/INT64 leaves as
	// DELTA_BINARY_PACKED, the dataset's prefix-sharing strings as
	// DELTA_BYTE_ARRAY and other strings as DELTA_LENGTH_BYTE_ARRAY, in
	// snappy-compressed data pages v2 (what parquet-mr's v2 writer does).
	Delta = &Config{Name: "delta", options: deltaOptions}
	// BSSZstd stores FLOAT/DOUBLE leaves as BYTE_STREAM_SPLIT, dictionary
	// off, compressed with zstd, data page v1.
	BSSZstd = &Config{Name: "bss-zstd", options: bssOptions}
)

func deltaOptions(d *datasets.Dataset, leaves *schema.Schema) []parquet.WriterProperty {
	opts := []parquet.WriterProperty{
		parquet.WithDictionaryDefault(false),
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithDataPageVersion(parquet.DataPageV2),
	}
	for i := range leaves.NumColumns() {
		col := leaves.Column(i)
		path := col.ColumnPath().String()
		switch col.PhysicalType() {
		case parquet.Types.Int32, parquet.Types.Int64:
			opts = append(opts, parquet.WithEncodingFor(path, parquet.Encodings.DeltaBinaryPacked))
		case parquet.Types.ByteArray:
			enc := parquet.Encodings.DeltaLengthByteArray
			if slices.Contains(d.PrefixStrings, path) {
				enc = parquet.Encodings.DeltaByteArray
			}
			opts = append(opts, parquet.WithEncodingFor(path, enc))
		}
	}
	return opts
}

func bssOptions(_ *datasets.Dataset, leaves *schema.Schema) []parquet.WriterProperty {
	opts := []parquet.WriterProperty{
		parquet.WithDictionaryDefault(false),
		parquet.WithCompression(compress.Codecs.Zstd),
	}
	for i := range leaves.NumColumns() {
		col := leaves.Column(i)
		if t := col.PhysicalType(); t == parquet.Types.Float || t == parquet.Types.Double {
			opts = append(opts, parquet.WithEncodingFor(col.ColumnPath().String(), parquet.Encodings.ByteStreamSplit))
		}
	}
	return opts
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

// WriterProperties returns the Parquet writer properties c uses for d,
// with row groups long enough to hold the largest of d's batches at size s.
func (c *Config) WriterProperties(d *datasets.Dataset, s datasets.Size) (*parquet.WriterProperties, error) {
	leaves, err := pqarrow.ToParquet(d.Schema, parquet.NewWriterProperties(), arrowProps)
	if err != nil {
		return nil, fmt.Errorf("pqfiles: %s schema: %w", d.Name, err)
	}
	rows := int64(d.Rows(s))
	groups := int64(d.RowGroups)
	opts := append(c.options(d, leaves), parquet.WithMaxRowGroupLength((rows+groups-1)/groups))
	return parquet.NewWriterProperties(opts...), nil
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
