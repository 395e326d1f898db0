package codec_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/codec"
	"github.com/quiverio/quiver/arrowio/internal/codec/codectest"
	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

// corpusPage is the compressed part of one page of a corpus file.
type corpusPage struct {
	where string // file, row group, column and page
	codec footer.CompressionCodec
	data  []byte
	size  int // the uncompressed size its header declares
}

// walkPages calls fn for every page of every readable column chunk of the
// Parquet file at path: chunks whose metadata is missing or encrypted are
// passed over. For a DATA_PAGE_V2 it gives only the values section, with
// codec UNCOMPRESSED when the header says it is not compressed. It returns
// an error when the footer, a chunk's range or a page header is unusable.
func walkPages(path string, fn func(corpusPage)) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	ft, err := footer.ReadFooter(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return err
	}
	for rg, g := range ft.Meta.RowGroups {
		for col, cc := range g.Columns {
			md := cc.MetaData
			if md == nil || cc.CryptoMetadata != nil {
				continue
			}
			start := md.DataPageOffset
			if off, ok := md.DictionaryPageOffset.Get(); ok && off > 0 { // some writers set 0 for none
				start = off
			}
			end := start + md.TotalCompressedSize
			if start < 4 || md.TotalCompressedSize < 0 || end > int64(len(b)) {
				return fmt.Errorf("row group %d column %d: chunk [%d, %d) outside the %d-byte file", rg, col, start, end, len(b))
			}
			chunk := b[start:end]
			for page := 0; len(chunk) > 0; page++ {
				where := fmt.Sprintf("%s row group %d column %d page %d", filepath.Base(path), rg, col, page)
				var h footer.PageHeader
				n, err := footer.Unmarshal(chunk, &h)
				if err != nil {
					return fmt.Errorf("%s: page header: %w", where, err)
				}
				chunk = chunk[n:]
				body, size := int(h.CompressedPageSize), int(h.UncompressedPageSize)
				if body < 0 || body > len(chunk) || size < 0 {
					return fmt.Errorf("%s: page of %d bytes (%d uncompressed) in the %d left", where, body, size, len(chunk))
				}
				p := corpusPage{where: where, codec: md.Codec, data: chunk[:body], size: size}
				chunk = chunk[body:]
				if v2 := h.DataPageHeaderV2; h.Type == footer.PageTypeDataV2 && v2 != nil {
					levels := int(v2.RepetitionLevelsByteLength) + int(v2.DefinitionLevelsByteLength)
					if levels < 0 || levels > body || levels > size {
						return fmt.Errorf("%s: %d bytes of levels in a page of %d (%d uncompressed)", where, levels, body, size)
					}
					p.data, p.size = p.data[levels:], size-levels
					if !v2.IsCompressedOrDefault() {
						p.codec = footer.CodecUncompressed
					}
				}
				fn(p)
			}
		}
	}
	return nil
}

// TestDecompressCorpus decompresses every page of every file of the
// conformance corpus (up to codectest.MaxCorpusPage). In data/ each must come out at
// exactly its declared size, and one byte more or less must be an error; in
// bad_data/, and in the file of data/ whose last page is truncated, pages
// may fail but must not panic. Every codec but LZO must be met.
func TestDecompressCorpus(t *testing.T) {
	root := corpus.Dir(t)
	var d codec.Decompressor
	seen := map[footer.CompressionCodec]int{}
	for _, rel := range corpus.Files(t) {
		bad := strings.HasPrefix(rel, "bad_data") || rel == filepath.Join("data", "nation.dict-malformed.parquet")
		err := walkPages(filepath.Join(root, rel), func(p corpusPage) {
			if p.size > codectest.MaxCorpusPage {
				t.Logf("%s: %s page of %d bytes passed over", p.where, p.codec, p.size)
				return
			}
			_, err := decodePage(&d, p.codec, p.data, p.size)
			if bad {
				return
			}
			if err != nil {
				t.Errorf("%s: %v", p.where, err)
				return
			}
			seen[p.codec]++
			for _, wrong := range []int{p.size - 1, p.size + 1} {
				if wrong < 0 {
					continue
				}
				if _, err := decodePage(&d, p.codec, p.data, wrong); !errors.Is(err, errs.ErrCorrupt) {
					t.Errorf("%s: %s page of %d bytes declared as %d: got %v, want ErrCorrupt", p.where, p.codec, p.size, wrong, err)
				}
			}
		})
		if err != nil && !bad && !errors.Is(err, footer.ErrEncryptedFooter) {
			t.Errorf("%s: %v", rel, err)
		}
	}
	for codec := footer.CodecUncompressed; codec <= footer.CodecLZ4Raw; codec++ {
		if codec != footer.CodecLZO && seen[codec] == 0 {
			t.Errorf("no %s page in the corpus", codec)
		}
	}
	t.Logf("pages decompressed per codec: %v", seen)
}

// TestDecompressCorpusLZ4 checks which of the deprecated LZ4 forms the
// corpus files use: parquet-mr's Hadoop framing, or not.
func TestDecompressCorpusLZ4(t *testing.T) {
	root := corpus.Dir(t)
	for file, hadoop := range map[string]bool{
		"hadoop_lz4_compressed.parquet":        true,
		"hadoop_lz4_compressed_larger.parquet": true,
		"non_hadoop_lz4_compressed.parquet":    false,
	} {
		pages := 0
		err := walkPages(filepath.Join(root, "data", file), func(p corpusPage) {
			if p.codec != footer.CodecLZ4 {
				t.Errorf("%s: codec %s, want LZ4", p.where, p.codec)
				return
			}
			pages++
			if _, ok := codec.DecodeHadoopLZ4(make([]byte, p.size), p.data); ok != hadoop {
				t.Errorf("%s: Hadoop framing %v, want %v", p.where, ok, hadoop)
			}
		})
		if err != nil || pages == 0 {
			t.Errorf("%s: %d pages, %v", file, pages, err)
		}
	}
}
