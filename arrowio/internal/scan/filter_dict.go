package scan

import (
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/codec"
	"github.com/quiverio/quiver/arrowio/internal/colread"
	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/arrowio/internal/page"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// dictPruneBytes is the largest dictionary page (header and compressed
// values) a filtered read fetches to rule a row group out by its values:
// small dictionaries cost about one page index read.
const dictPruneBytes = 64 << 10

// readDictionaries returns, for each predicate column, the distinct values
// of its chunk in row group i, PLAIN-encoded one by one, when every data
// page of the chunk is dictionary-encoded (by its encoding_stats) and the
// dictionary page is small; nil otherwise (and for encrypted chunks, whose
// dictionary pages are modules this shortcut does not open).
func (r *File) readDictionaries(rg *footer.RowGroup, i int) ([][][]byte, error) {
	leaves := r.filter.bound.Leaves()
	out := make([][][]byte, len(leaves))
	dec := decompressors.Get().(*codec.Decompressor)
	dec.Checksums = r.Options.VerifyCRC
	defer decompressors.Put(dec)
	for c, leaf := range leaves {
		md := rg.Columns[leaf.Column].MetaData
		if md == nil || !colread.DictionaryOnly(md) || rg.Columns[leaf.Column].CryptoMetadata != nil {
			continue
		}
		vals, err := r.readDictionaryValues(md, leaf, dec)
		if err != nil {
			return nil, fmt.Errorf("row group %d, column %q: dictionary: %w", i, leaf.DottedPath(), err)
		}
		out[c] = vals
	}
	return out, nil
}

// readDictionaryValues reads the dictionary page at the start of the
// chunk when it fits in dictPruneBytes, and splits its values; nil when it
// is larger or the chunk does not start with one.
func (r *File) readDictionaryValues(md *footer.ColumnMetaData, leaf *footer.Node, dec *codec.Decompressor) ([][]byte, error) {
	start, length, err := page.ChunkRange(md, r.Footer.MetaOffset, false)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errs.ErrCorrupt, err)
	}
	buf := make([]byte, min(length, dictPruneBytes))
	if err := r.readFull(buf, start); err != nil {
		return nil, err
	}
	var h footer.PageHeader
	n, err := footer.Unmarshal(buf, &h)
	if err != nil || h.Type != footer.PageTypeDictionary || h.DictionaryPageHeader == nil ||
		h.CompressedPageSize < 0 || int(h.CompressedPageSize) > len(buf)-n ||
		h.UncompressedPageSize < 0 || int(h.UncompressedPageSize) > 4*dictPruneBytes {
		return nil, nil // larger than worth reading, or not a dictionary page to go by
	}
	var dst []byte // uncompressed pages decode in place
	if md.Codec != footer.CodecUncompressed {
		dst = make([]byte, h.UncompressedPageSize)
	}
	body, err := dec.Decompress(md.Codec, dst, buf[n:n+int(h.CompressedPageSize)], int(h.UncompressedPageSize))
	if err != nil {
		return nil, err
	}
	return pageindex.SplitPlain(leaf.Physical, leaf.TypeLength, int(h.DictionaryPageHeader.NumValues), body)
}
