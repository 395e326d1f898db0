package colwrite

import (
	"github.com/quiverio/quiver/footer"
)

// PageVersion selects the data page layout a [Writer] writes.
type PageVersion int8

// Data page versions. The zero value means PageV1.
const (
	// PageV1 writes DATA_PAGE pages: levels and values compressed together,
	// each level stream behind a 4-byte length.
	PageV1 PageVersion = 1
	// PageV2 writes DATA_PAGE_V2 pages: levels stay uncompressed ahead of
	// the (optionally compressed) values, and the header counts rows and
	// nulls.
	PageV2 PageVersion = 2
)

// Settings are one leaf's options, resolved from arrowio.WriteOptions.
type Settings struct {
	Codec      footer.CompressionCodec // the pages' compression
	Level      int                     // the codec's level (codec.DefaultLevel: its default)
	FastSnappy bool                    // snappy's fast encoder choice (codec.SnappyChoice)
	Dictionary bool                    // chunks start dictionary-encoded
	DictLimit  int                     // dictionary bytes at which a chunk falls back to Encoding
	Encoding   footer.Encoding         // the non-dictionary encoding
	Statistics bool                    // chunk statistics, and page-index bounds
	PageStats  bool                    // statistics in data page headers too
	Truncate   int                     // bytes byte-array bounds are cut to (0: never)
	PageSize   int                     // encoded bytes at which a page is cut
	PageRows   int                     // rows at which a page is cut (0: no limit)
	// DictPageRows is the rows at which a dictionary-encoded page is cut
	// when PageRows is 0 (0: no limit).
	DictPageRows int
	PageVersion  PageVersion         // data page layout
	CRC          bool                // page CRCs
	PageIndex    bool                // ColumnIndex and OffsetIndex
	Bloom        *BloomFilterOptions // nil: no bloom filter
	CDC          *CDCSettings        // content-defined chunking (nil: off)
}
