package bench

import (
	"fmt"
	"os"

	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/quiverio/quiver/footer"
)

// zstdDec is shared by every floor read; DecodeAll is safe for concurrent
// use and a decoder is costly to build. It skips the frames' optional
// checksums, as quiver does unless asked to verify them: the floor is the
// least work a reader must do.
var zstdDec, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.IgnoreChecksum(true))

// readFloor is the decompression floor, what every reader must pay at
// least: it parses the footer (quiver's footer package), reads each column
// chunk with one ReadAt, walks its page headers (footer.Unmarshal on
// PageHeader) and decompresses every page with klauspost/compress into a
// reused buffer. No value is decoded.
func readFloor(path, _ string, _ int) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	ft, err := footer.ReadFooter(f, st.Size())
	if err != nil {
		return 0, err
	}
	var chunk, out []byte
	for i, rg := range ft.Meta.RowGroups {
		for j, cc := range rg.Columns {
			md := cc.MetaData
			if md == nil {
				return 0, fmt.Errorf("row group %d column %d: no column metadata", i, j)
			}
			start := md.DataPageOffset
			if d, ok := md.DictionaryPageOffset.Get(); ok && d > 0 && d < start {
				start = d
			}
			chunk = grow(chunk, int(md.TotalCompressedSize))[:md.TotalCompressedSize]
			if _, err := f.ReadAt(chunk, start); err != nil {
				return 0, fmt.Errorf("row group %d column %d: %w", i, j, err)
			}
			if out, err = decompressPages(chunk, md.Codec, out); err != nil {
				return 0, fmt.Errorf("row group %d column %d: %w", i, j, err)
			}
		}
	}
	return ft.Meta.NumRows, nil
}

// decompressPages walks the pages of one column chunk and decompresses
// each into out, which it grows as needed and returns for reuse.
func decompressPages(chunk []byte, codec footer.CompressionCodec, out []byte) ([]byte, error) {
	err := walkPages(chunk, func(body []byte, full int) error {
		out = grow(out, full)
		return decompress(out[:full], body, codec)
	})
	return out, err
}

// walkPages calls fn with the compressed part of each page of one column
// chunk and the size it decompresses to: the body of a page v1, the
// values of a page v2 (its levels are never compressed). Pages v2 stored
// uncompressed are left out.
func walkPages(chunk []byte, fn func(body []byte, full int) error) error {
	var ph footer.PageHeader
	for p := 0; p < len(chunk); {
		n, err := footer.Unmarshal(chunk[p:], &ph)
		if err != nil {
			return err
		}
		p += n
		size, full := int(ph.CompressedPageSize), int(ph.UncompressedPageSize)
		if size < 0 || full < 0 || size > len(chunk)-p {
			return fmt.Errorf("page at %d: %d compressed bytes, %d left", p, size, len(chunk)-p)
		}
		body := chunk[p : p+size]
		p += size
		if v2 := ph.DataPageHeaderV2; v2 != nil {
			levels := int(v2.DefinitionLevelsByteLength) + int(v2.RepetitionLevelsByteLength)
			if levels < 0 || levels > size || levels > full {
				return fmt.Errorf("page at %d: %d level bytes in a %d-byte page", p, levels, size)
			}
			if !v2.IsCompressedOrDefault() {
				continue
			}
			body, full = body[levels:], full-levels
		}
		if err := fn(body, full); err != nil {
			return err
		}
	}
	return nil
}

// decompress decompresses body, compressed with codec, into out, which
// holds exactly its decompressed size. An uncompressed body is left where
// it is, as a reader decodes it in place: out is not written.
func decompress(out, body []byte, codec footer.CompressionCodec) error {
	switch codec {
	case footer.CodecUncompressed:
	case footer.CodecSnappy:
		if _, err := snappy.Decode(out, body); err != nil {
			return err
		}
	case footer.CodecZstd:
		if _, err := zstdDec.DecodeAll(body, out[:0]); err != nil {
			return err
		}
	default:
		return fmt.Errorf("codec %v is not in the benchmark configurations", codec)
	}
	return nil
}
