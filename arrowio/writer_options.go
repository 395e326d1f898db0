package arrowio

import (
	"fmt"
	"runtime"

	"github.com/quiverio/quiver/arrowio/internal/colwrite"

	"github.com/quiverio/quiver/arrowio/internal/codec"
	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
)

// PageVersion selects the data page layout a [Writer] writes.
type PageVersion = colwrite.PageVersion

// Data page versions. The zero value means PageV1.
const (
	// PageV1 writes DATA_PAGE pages: levels and values compressed together,
	// each level stream behind a 4-byte length.
	PageV1 = colwrite.PageV1
	// PageV2 writes DATA_PAGE_V2 pages: levels stay uncompressed ahead of
	// the (optionally compressed) values, and the header counts rows and
	// nulls.
	PageV2 = colwrite.PageV2
)

// BloomFilterOptions sizes the bloom filters of a column
// ([ColumnOptions.BloomFilter]): one per column chunk, from the number
// of distinct values and the false-positive probability, or from a byte
// budget. Sizes are powers of two from 32 bytes to 128 MiB.
type BloomFilterOptions = colwrite.BloomFilterOptions

// Defaults the [Writer] applies to zero-valued [WriteOptions] fields.
const (
	DefaultDataPageSize              = 1 << 20
	DefaultDictionaryPageSizeLimit   = 1 << 20
	DefaultDictionaryEncodedPageRows = 20_000
	DefaultMaxRowGroupRows           = 64 << 20
	DefaultMaxRowGroupBytes          = 128 << 20
	DefaultStatisticsTruncate        = 64
	DefaultCDCMinChunkSize           = 256 << 10
	DefaultCDCMaxChunkSize           = 1 << 20
)

// CDCOptions turns on content-defined chunking
// ([WriteOptions.ContentDefinedChunking]): data pages are cut where a
// rolling gear hash over each column's logical values (levels included)
// says, the algorithm and parameters of Arrow C++ 21 (pyarrow's
// use_content_defined_chunking) and arrow-rs, so that inserting or
// deleting rows changes only the pages near the edit and deduplicating
// storage keeps the others. Each column chunk starts the hash afresh.
// Sizes count the values' Arrow bytes and 2 bytes per level. The zero
// value is Arrow's defaults.
//
// After an insert, the pages holding the new rows change, and so do the
// pages after them until the chunker cuts where it cut before, which
// Arrow's algorithm takes from no page to several to do. An insert also
// moves the boundaries of the row groups after it, each of which starts
// the hash, and its dictionaries, afresh: dedup works best within one
// row group.
type CDCOptions struct {
	// MinChunkSize is the size below which a page is not cut
	// (0: DefaultCDCMinChunkSize).
	MinChunkSize int64
	// MaxChunkSize is the size at which a page is cut whatever the hash
	// says (0: DefaultCDCMaxChunkSize). It must exceed MinChunkSize.
	MaxChunkSize int64
	// NormLevel narrows (positive) or widens (negative) the spread of
	// page sizes around their mean by taking bits off the hash mask, or
	// adding them.
	NormLevel int
}

// WriteOptions configures a [Writer]. The zero value writes uncompressed
// version 1 data pages of up to 1 MiB, dictionary-encodes every column that
// can be (falling back to PLAIN when a column's dictionary passes 1 MiB),
// writes statistics and page CRCs, and closes a row group at 64 Mi rows
// or 128 MiB of encoded, compressed bytes, whichever comes first.
type WriteOptions struct {
	// Compression is the codec of every column without its own
	// (UNCOMPRESSED by default; LZ4 and LZO cannot be written).
	Compression footer.CompressionCodec
	// CompressionLevel is the codec's level when set (gzip 1-9, zstd 1-22,
	// brotli 0-11); unset means the codec's default.
	CompressionLevel footer.Optional[int]
	// FastSnappy compresses SNAPPY pages with the faster of the two
	// snappy encoders Quiver has, trying the other only on pages the fast
	// one barely shrinks. By default a column's pages go to the encoder
	// that compresses them better by 3% or more (6% on pages the fast one
	// barely shrinks, where the other is slowest; pqarrow's snappy uses
	// the better one on every page): text-heavy files come out 2-3%
	// smaller than with FastSnappy, and take 15-25% more time to write
	// (bench lineitem and strings, dictionary and snappy, one core).
	FastSnappy bool
	// DataPageSize is the target size in bytes of a data page's encoded
	// levels and values before compression (0: DefaultDataPageSize). Pages
	// are cut between batches of at most 1024 rows, so they may run over.
	DataPageSize int
	// DataPageRows caps the rows of a data page (0: no cap but on
	// dictionary-encoded pages, which hold at most
	// DefaultDictionaryEncodedPageRows, as parquet-java and arrow-rs cut
	// every page; no cap at all when negative or with
	// ContentDefinedChunking, whose cuts a row count would move). A page of
	// indices into a few values reaches the page size only after millions
	// of rows, held as 4-byte indices until it is written: a 1,000-column
	// table of 100k rows held each column's chunk so until its row group
	// was written, and the page index could skip no part of it. Other
	// pages are held as their values, which the page size bounds, and
	// compress better whole (BYTE_STREAM_SPLIT doubles with zstd: 7%
	// larger in pages of 20,000).
	DataPageRows int
	// MaxRowGroupRows caps the rows of a row group: the row group being
	// filled is written out when it reaches it, wherever the batches
	// begin and end (0: DefaultMaxRowGroupRows).
	MaxRowGroupRows int64
	// MaxRowGroupBytes is the encoded, compressed size at which the row
	// group being filled is written out: its pages so far, plus the pages
	// and dictionaries still being filled at the compression ratio of
	// their column's pages so far (or of the column in earlier row
	// groups; uncompressed in the first row group until the column writes
	// a page, so that one may end early). The size is looked at every
	// 1,024 rows or more (as the bytes per row so far say the limit is
	// near), so a row group may pass it by a little (0:
	// DefaultMaxRowGroupBytes; negative: no cap).
	MaxRowGroupBytes int64
	// PageVersion is PageV1 (the default) or PageV2.
	PageVersion PageVersion
	// DisableDictionary turns dictionary encoding off for every column
	// without its own setting.
	DisableDictionary bool
	// DictionaryPageSizeLimit is the PLAIN size in bytes at which a column
	// chunk's dictionary stops growing and the chunk falls back to its
	// non-dictionary encoding (0: DefaultDictionaryPageSizeLimit).
	DictionaryPageSizeLimit int
	// Encoding, when set, is the non-dictionary encoding of every column
	// without its own, used from the start when dictionary encoding is off
	// and after a fallback otherwise. Unset means PLAIN (RLE for booleans in
	// version 2 pages). It must suit every such column's physical type.
	Encoding footer.Optional[footer.Encoding]
	// DisableStatistics leaves column chunk statistics out.
	DisableStatistics bool
	// PageStatistics also writes statistics in every data page header.
	PageStatistics bool
	// StatisticsTruncate is the most bytes a BYTE_ARRAY or
	// FIXED_LEN_BYTE_ARRAY min or max keeps: a longer min is cut to that
	// prefix and a longer max to a prefix incremented to stay an upper
	// bound, and is_min/max_value_exact say so (0: DefaultStatisticsTruncate;
	// negative: never truncate).
	StatisticsTruncate int
	// DisableCRC leaves the page CRC-32 out of page headers.
	DisableCRC bool
	// DisablePageIndex leaves out the ColumnIndex and OffsetIndex the
	// Writer otherwise stores for every column chunk (between the last row
	// group and the footer). ColumnIndex bounds are truncated as
	// StatisticsTruncate says; a column without statistics gets only an
	// OffsetIndex.
	DisablePageIndex bool
	// SortingColumns says how the rows of every row group are sorted: it
	// is written as each row group's sorting_columns, and a reader puts it
	// in the Arrow schema metadata under [SortingColumnsKey]. The Writer
	// does not sort or check the order; each entry must name a distinct
	// leaf.
	SortingColumns []SortingColumn
	// KeyValueMetadata is stored in the footer after the ARROW:schema entry,
	// which it may not replace.
	KeyValueMetadata []footer.KeyValue
	// Parallelism bounds the goroutines encoding the column chunks of a row
	// group (0: GOMAXPROCS; 1: sequential). The output is the same for
	// every value.
	Parallelism int
	// Columns overrides the settings above for single columns, keyed by
	// the leaf's dotted Parquet path ("a" for a top-level column, "a.b" for
	// field b of struct a). A key that names no leaf is an error.
	Columns map[string]ColumnOptions
	// ContentDefinedChunking, when set, cuts every column's data pages
	// where its values say (see CDCOptions) instead of only where they
	// fill DataPageSize, which still caps a page. Snappy's encoder choice
	// is then settled by each column chunk's first pages and kept, so that
	// equal pages compress to equal bytes wherever they fall.
	ContentDefinedChunking *CDCOptions
	// Encryption, when set, encrypts the file with Parquet modular
	// encryption: pages, page headers and column metadata of the columns
	// it selects, and the footer (or, with PlaintextFooter, signs it).
	// Page CRCs are then computed on the encrypted pages.
	Encryption *encrypt.EncryptionConfig
}

// SortingColumn is one key of [WriteOptions.SortingColumns].
type SortingColumn struct {
	// Column is the leaf's dotted Parquet path ("a", "a.b").
	Column string
	// Descending says larger values come first.
	Descending bool
	// NullsFirst says nulls come before the values.
	NullsFirst bool
}

// ColumnOptions overrides the [WriteOptions] of one leaf column; unset
// fields inherit.
type ColumnOptions struct {
	Compression      footer.Optional[footer.CompressionCodec]
	CompressionLevel footer.Optional[int]
	// Dictionary turns dictionary encoding on or off for the column.
	Dictionary footer.Optional[bool]
	// Encoding is the column's non-dictionary encoding: PLAIN, RLE
	// (BOOLEAN), DELTA_BINARY_PACKED (INT32, INT64), DELTA_LENGTH_BYTE_ARRAY
	// (BYTE_ARRAY), DELTA_BYTE_ARRAY (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY) or
	// BYTE_STREAM_SPLIT (INT32, INT64, FLOAT, DOUBLE, FIXED_LEN_BYTE_ARRAY).
	Encoding footer.Optional[footer.Encoding]
	// Statistics turns column chunk statistics on or off.
	Statistics footer.Optional[bool]
	// PageIndex turns the column's ColumnIndex and OffsetIndex on or off.
	PageIndex footer.Optional[bool]
	// BloomFilter, when set, writes a split-block bloom filter of the
	// column's values for every column chunk (not for BOOLEAN columns).
	BloomFilter *BloomFilterOptions
}

// dictPageRows returns the row cap of a dictionary-encoded data page
// when DataPageRows leaves it to the default, 0 for none.
func (o *WriteOptions) dictPageRows() int {
	if o.DataPageRows != 0 || o.ContentDefinedChunking != nil {
		return 0
	}
	return DefaultDictionaryEncodedPageRows
}

// resolve returns the settings of leaf n from o, checking the codec, level
// and encoding against the leaf's physical type.
func (o *WriteOptions) resolve(n *footer.Node) (colwrite.Settings, error) {
	s := colwrite.Settings{
		Codec:        o.Compression,
		Level:        codec.DefaultLevel,
		FastSnappy:   o.FastSnappy,
		Dictionary:   !o.DisableDictionary,
		DictLimit:    positiveOr(o.DictionaryPageSizeLimit, DefaultDictionaryPageSizeLimit),
		Statistics:   !o.DisableStatistics,
		PageStats:    o.PageStatistics && !o.DisableStatistics,
		Truncate:     o.StatisticsTruncate,
		PageSize:     positiveOr(o.DataPageSize, DefaultDataPageSize),
		PageRows:     max(o.DataPageRows, 0),
		DictPageRows: o.dictPageRows(),
		PageVersion:  o.PageVersion,
		CRC:          !o.DisableCRC,
		PageIndex:    !o.DisablePageIndex,
	}
	if c := o.ContentDefinedChunking; c != nil {
		s.CDC = &colwrite.CDCSettings{MinSize: c.MinChunkSize, MaxSize: c.MaxChunkSize, NormLevel: c.NormLevel}
		if s.CDC.MinSize == 0 {
			s.CDC.MinSize = DefaultCDCMinChunkSize
		}
		if s.CDC.MaxSize == 0 {
			s.CDC.MaxSize = DefaultCDCMaxChunkSize
		}
		if _, err := colwrite.CDCMask(*s.CDC); err != nil {
			return s, err
		}
	}
	if s.Truncate == 0 {
		s.Truncate = DefaultStatisticsTruncate
	} else if s.Truncate < 0 {
		s.Truncate = 0
	}
	if s.PageVersion == 0 {
		s.PageVersion = PageV1
	}
	if s.PageVersion != PageV1 && s.PageVersion != PageV2 {
		return s, fmt.Errorf("%w: page version %d", errs.ErrUnsupported, s.PageVersion)
	}
	if l, ok := o.CompressionLevel.Get(); ok {
		s.Level = l
	}
	enc, hasEnc := o.Encoding.Get()
	c, ok := o.Columns[n.DottedPath()]
	if ok {
		if v, set := c.Compression.Get(); set {
			s.Codec = v
			s.Level = codec.DefaultLevel
		}
		if v, set := c.CompressionLevel.Get(); set {
			s.Level = v
		}
		if v, set := c.Dictionary.Get(); set {
			s.Dictionary = v
		}
		if v, set := c.Statistics.Get(); set {
			s.Statistics = v
			s.PageStats = s.PageStats && v
		}
		if v, set := c.Encoding.Get(); set {
			enc, hasEnc = v, true
		}
		if v, set := c.PageIndex.Get(); set {
			s.PageIndex = v
		}
		if c.BloomFilter != nil {
			if err := c.BloomFilter.Check(n); err != nil {
				return s, err
			}
			s.Bloom = c.BloomFilter
		}
	}
	if err := codec.CheckLevel(s.Codec, s.Level); err != nil {
		return s, err
	}
	if !hasEnc {
		enc = footer.EncodingPlain
		if n.Physical == footer.TypeBoolean && s.PageVersion == PageV2 {
			enc = footer.EncodingRLE
		}
	}
	if !encodingFits(enc, n.Physical) {
		return s, fmt.Errorf("%w: encoding %s for a %s column", errs.ErrUnsupported, enc, n.Physical)
	}
	s.Encoding = enc
	if n.Physical == footer.TypeBoolean {
		s.Dictionary = false // as other writers, never dictionary-encode booleans
	}
	return s, nil
}

// encodingFits reports whether the writer can encode values of physical
// type t with enc.
func encodingFits(enc footer.Encoding, t footer.Type) bool {
	switch enc {
	case footer.EncodingPlain:
		return t != footer.TypeInt96
	case footer.EncodingRLE:
		return t == footer.TypeBoolean
	case footer.EncodingDeltaBinaryPacked:
		return t == footer.TypeInt32 || t == footer.TypeInt64
	case footer.EncodingDeltaLengthByteArray:
		return t == footer.TypeByteArray
	case footer.EncodingDeltaByteArray:
		return t == footer.TypeByteArray || t == footer.TypeFixedLenByteArray
	case footer.EncodingByteStreamSplit:
		switch t {
		case footer.TypeInt32, footer.TypeInt64, footer.TypeFloat, footer.TypeDouble, footer.TypeFixedLenByteArray:
			return true
		}
	}
	return false
}

// positiveOr returns v when it is positive and def otherwise.
func positiveOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// parallelism returns the number of goroutines to encode n columns with.
func (o *WriteOptions) parallelism(n int) int {
	p := o.Parallelism
	if p <= 0 {
		p = runtime.GOMAXPROCS(0)
	}
	return max(1, min(p, n))
}
