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

// columnSettings are one leaf's resolved options.
type Settings struct {
	Codec       footer.CompressionCodec
	Level       int // defaultLevel or the codec's level
	Dictionary  bool
	DictLimit   int
	Encoding    footer.Encoding // the non-dictionary encoding
	Statistics  bool
	PageStats   bool
	Truncate    int // 0: never
	PageSize    int
	PageRows    int
	PageVersion PageVersion
	Crc         bool
	PageIndex   bool
	Bloom       *BloomFilterOptions // nil: no bloom filter
}
