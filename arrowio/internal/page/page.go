package page

import (
	"encoding/binary"
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/codec"
	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/levels"

	"github.com/quiverio/quiver/footer"
)

// dataPage is a data page (v1 or v2) split into its sections, with the
// values decompressed.
type Data struct {
	NumValues int // levels in the page: values and nulls
	Encoding  footer.Encoding
	// LevelEncoding is RLE (the hybrid) or the deprecated BIT_PACKED; data
	// page v2 levels are always RLE.
	LevelEncoding footer.Encoding
	RepLevels     []byte // the repetition level section without any length prefix
	DefLevels     []byte // the definition level section without any length prefix
	Values        []byte
	// NumNulls is the page header's null count for v2 pages; v1 headers
	// have none, and 0 stands for it.
	NumNulls int
}

// splitDataPage decompresses p (a DATA_PAGE or DATA_PAGE_V2) with d into
// buf when its codec needs it and splits it into sections for a leaf with
// the given maximum levels. buf is reused storage with enough capacity for
// the page; the result may alias p.payload or buf. An uncompressed page
// may come with only its first bytes (p.more > 0): its values section is
// then the part of them past the levels.
func SplitData(p *Raw, codec footer.CompressionCodec, d *codec.Decompressor, buf []byte, maxDef, maxRep int16) (Data, error) {
	h := &p.Header
	switch h.Type {
	case footer.PageTypeData:
		dh := h.DataPageHeader
		if dh == nil {
			return Data{}, fmt.Errorf("%w: DATA_PAGE without data_page_header", errs.ErrCorrupt)
		}
		if dh.NumValues < 0 {
			return Data{}, fmt.Errorf("%w: data page declares %d values", errs.ErrCorrupt, dh.NumValues)
		}
		body, err := Decompress(d, p, codec, buf, p.Payload, int(h.UncompressedPageSize)-p.More)
		if err != nil {
			return Data{}, err
		}
		dp := Data{NumValues: int(dh.NumValues), Encoding: dh.Encoding, LevelEncoding: footer.EncodingRLE}
		if maxRep > 0 {
			dp.LevelEncoding = dh.RepetitionLevelEncoding
			if dp.RepLevels, body, err = v1Levels(body, dh.RepetitionLevelEncoding, dp.NumValues, maxRep, "repetition"); err != nil {
				return Data{}, err
			}
		}
		if maxDef > 0 {
			dp.LevelEncoding = dh.DefinitionLevelEncoding
			if dp.DefLevels, body, err = v1Levels(body, dh.DefinitionLevelEncoding, dp.NumValues, maxDef, "definition"); err != nil {
				return Data{}, err
			}
		}
		if maxRep > 0 && maxDef > 0 && dh.RepetitionLevelEncoding != dh.DefinitionLevelEncoding {
			return Data{}, fmt.Errorf("%w: repetition levels encoded %s but definition levels %s", errs.ErrUnsupported,
				dh.RepetitionLevelEncoding, dh.DefinitionLevelEncoding)
		}
		dp.Values = body
		return dp, nil
	case footer.PageTypeDataV2:
		dp, values, err := SplitV2Levels(p)
		if err != nil {
			return Data{}, err
		}
		size := int(h.UncompressedPageSize) - (len(p.Payload) - len(values)) - p.More
		if compressed, ok := h.DataPageHeaderV2.IsCompressed.Get(); ok && !compressed {
			codec = footer.CodecUncompressed
		}
		if dp.Values, err = Decompress(d, p, codec, buf, values, size); err != nil {
			return Data{}, err
		}
		return dp, nil
	}
	return Data{}, fmt.Errorf("%w: page type %s is not a data page", errs.ErrCorrupt, h.Type)
}

// SplitV2Levels checks the header of data page v2 p and splits its level
// sections, which are never compressed, off its values section (returned
// as it is stored).
func SplitV2Levels(p *Raw) (dp Data, values []byte, err error) {
	h := &p.Header
	dh := h.DataPageHeaderV2
	if dh == nil {
		return Data{}, nil, fmt.Errorf("%w: DATA_PAGE_V2 without data_page_header_v2", errs.ErrCorrupt)
	}
	rl, dl := int(dh.RepetitionLevelsByteLength), int(dh.DefinitionLevelsByteLength)
	if dh.NumValues < 0 || dh.NumNulls < 0 || dh.NumNulls > dh.NumValues || dh.NumRows < 0 || rl < 0 || dl < 0 ||
		rl+dl > len(p.Payload) || rl+dl > int(h.UncompressedPageSize) {
		return Data{}, nil, fmt.Errorf("%w: data page v2 header: %d values, %d nulls, %d rows, level sections of %d and %d bytes in a page of %d (%d uncompressed)",
			errs.ErrCorrupt, dh.NumValues, dh.NumNulls, dh.NumRows, rl, dl, len(p.Payload), h.UncompressedPageSize)
	}
	dp = Data{
		NumValues:     int(dh.NumValues),
		NumNulls:      int(dh.NumNulls),
		Encoding:      dh.Encoding,
		LevelEncoding: footer.EncodingRLE,
		RepLevels:     p.Payload[:rl],
		DefLevels:     p.Payload[rl : rl+dl],
	}
	return dp, p.Payload[rl+dl:], nil
}

// v1Levels cuts one level section off the front of a v1 page body: RLE
// sections carry a 4-byte little-endian length, BIT_PACKED sections are
// exactly the bits of n levels.
func v1Levels(body []byte, enc footer.Encoding, n int, max int16, what string) (section, rest []byte, err error) {
	switch enc {
	case footer.EncodingRLE:
		if len(body) < 4 {
			return nil, nil, fmt.Errorf("%w: %s level section length needs 4 bytes, page has %d", errs.ErrCorrupt, what, len(body))
		}
		l := binary.LittleEndian.Uint32(body)
		if uint64(l) > uint64(len(body)-4) {
			return nil, nil, fmt.Errorf("%w: %s level section of %d bytes, page has %d", errs.ErrCorrupt, what, l, len(body)-4)
		}
		return body[4 : 4+l], body[4+l:], nil
	case footer.EncodingBitPacked:
		l := (uint64(n)*uint64(levels.Width(max)) + 7) / 8
		if l > uint64(len(body)) {
			return nil, nil, fmt.Errorf("%w: %d bit-packed %s levels need %d bytes, page has %d", errs.ErrCorrupt, n, what, l, len(body))
		}
		return body[:l], body[l:], nil
	}
	return nil, nil, fmt.Errorf("%w: %s levels encoded with %s", errs.ErrUnsupported, what, enc)
}

// Decompress decompresses src, the stored bytes of page p, into dst with
// d. The page iterator and d take their checks from the same option: when
// d verifies codec checksums, the iterator has verified p's CRC, if p has
// one, over the stored bytes decompression reads, so zstd's content
// checksum of the same page would check nothing more and is skipped.
func Decompress(d *codec.Decompressor, p *Raw, c footer.CompressionCodec, dst, src []byte, size int) ([]byte, error) {
	if d.Checksums && p.Header.CRC.Set {
		d.Checksums = false
		defer func() { d.Checksums = true }()
	}
	return d.Decompress(c, dst, src, size)
}
