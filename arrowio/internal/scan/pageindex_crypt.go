package scan

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// Page indexes and bloom filters of encrypted column chunks are modules of
// their own (the spec's ColumnIndex, OffsetIndex, bloom filter header and
// bitset module types), sealed with the chunk's key.

// indexCipher returns the cipher of the chunk of leaf column col in row
// group rg, nil for a plaintext chunk or file.
func (r *File) indexCipher(rg, col int) (*encrypt.ChunkCipher, error) {
	if r.Crypt == nil {
		return nil, nil
	}
	return r.Crypt.Chunk(rg, col)
}

// readIndex reads the ColumnIndex or OffsetIndex (msg, a module of type t
// when encrypted) of leaf in row group rg that off and length locate, and
// reports false when they are unset.
func (r *File) readIndex(rg int, leaf *footer.Node, off footer.Optional[int64], length footer.Optional[int32], msg footer.Message, t encrypt.ModuleType) (bool, error) {
	start, end, ok, err := pageindex.IndexSpan(off, length, r.Footer.MetaOffset)
	if err != nil {
		return false, r.indexError(rg, leaf, off.Value, err)
	}
	if !ok {
		return false, nil
	}
	c, err := r.indexCipher(rg, leaf.Column)
	if err != nil {
		return false, r.indexError(rg, leaf, start, err)
	}
	buf := make([]byte, end-start)
	if _, err := io.ReadFull(io.NewSectionReader(indexSource{r}, start, end-start), buf); err != nil {
		return false, r.indexError(rg, leaf, start, fmt.Errorf("reading the index at offset %d: %w", start, err))
	}
	plain, err := encrypt.OpenModule(c, buf, t)
	if err != nil {
		return false, r.indexError(rg, leaf, start, err)
	}
	if _, err := footer.Unmarshal(plain, msg); err != nil {
		return false, r.indexError(rg, leaf, start, fmt.Errorf("%w: index at offset %d: %w", pageindex.ErrCorrupt, start, err))
	}
	return true, nil
}

// readBloom reads the bloom filter of leaf's chunk in row group rg (md its
// metadata), nil when it has none: a plaintext filter with or without
// bloom_filter_length, or the header and bitset modules of an encrypted
// chunk.
func (r *File) readBloom(rg int, leaf *footer.Node, md *footer.ColumnMetaData) (*pageindex.Bloom, error) {
	off, ok := md.BloomFilterOffset.Get()
	if !ok {
		return nil, nil
	}
	c, err := r.indexCipher(rg, leaf.Column)
	if err != nil {
		return nil, r.indexError(rg, leaf, off, err)
	}
	var b *pageindex.Bloom
	if c == nil {
		b, err = pageindex.ReadBloom(indexSource{r}, off, md.BloomFilterLength.Or(0), r.Footer.MetaOffset)
	} else {
		b, err = r.readSealedBloom(c, off, md.BloomFilterLength.Or(0))
	}
	if err != nil {
		return nil, r.indexError(rg, leaf, off, err)
	}
	return b, nil
}

// readSealedBloom reads an encrypted bloom filter at off: a header module
// and a bitset module, each behind its 4-byte length, length bytes in all
// (0: not recorded).
func (r *File) readSealedBloom(c *encrypt.ChunkCipher, off int64, length int32) (*pageindex.Bloom, error) {
	limit := r.Footer.MetaOffset
	module := func(at int64, t encrypt.ModuleType) ([]byte, int64, error) {
		var lb [4]byte
		if at < 4 || at > limit-4 {
			return nil, 0, fmt.Errorf("%w: %s module at offset %d outside the %d bytes before the footer", pageindex.ErrCorrupt, t, at, limit)
		}
		if _, err := io.ReadFull(io.NewSectionReader(indexSource{r}, at, 4), lb[:]); err != nil {
			return nil, 0, fmt.Errorf("reading the %s at offset %d: %w", t, at, err)
		}
		n := int64(binary.LittleEndian.Uint32(lb[:]))
		if n > limit-at-4 || n > pageindex.MaxBloomBytes+1<<10 {
			return nil, 0, fmt.Errorf("%w: %s module at offset %d declares %d bytes", pageindex.ErrCorrupt, t, at, n)
		}
		buf := make([]byte, 4+n)
		if _, err := io.ReadFull(io.NewSectionReader(indexSource{r}, at, 4+n), buf); err != nil {
			return nil, 0, fmt.Errorf("reading the %s at offset %d: %w", t, at, err)
		}
		plain, err := encrypt.OpenModule(c, buf, t)
		if errors.Is(err, encrypt.ErrCorrupt) {
			err = fmt.Errorf("%w: %w", errs.ErrCorrupt, err)
		}
		return plain, at + 4 + n, err
	}
	hdr, next, err := module(off, encrypt.ModuleBloomFilterHeader)
	if err != nil {
		return nil, err
	}
	bitset, end, err := module(next, encrypt.ModuleBloomFilterBitset)
	if err != nil {
		return nil, err
	}
	if length != 0 && end-off != int64(length) {
		return nil, fmt.Errorf("%w: encrypted bloom filter at offset %d takes %d bytes, bloom_filter_length says %d", pageindex.ErrCorrupt, off, end-off, length)
	}
	// parquet-java pads the header module's plaintext with zeros after
	// the Thrift header, as it does page headers: the bitset follows the
	// header as parsed.
	var h footer.BloomFilterHeader
	n, err := footer.Unmarshal(hdr, &h)
	if err != nil {
		return nil, fmt.Errorf("%w: bloom filter header at offset %d: %w", pageindex.ErrCorrupt, off, err)
	}
	b, _, err := pageindex.ParseBloom(append(hdr[:n:n], bitset...))
	if err != nil {
		return nil, fmt.Errorf("bloom filter at offset %d: %w", off, err)
	}
	return b, nil
}
