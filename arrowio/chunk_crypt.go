package arrowio

import (
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
)

// pageCrypt is the decryption state of one encrypted column chunk's pages.
type pageCrypt struct {
	c *encrypt.ChunkCipher
	// dictFirst says the chunk's first page is its dictionary page (the
	// chunk metadata has a dictionary_page_offset), which decides the
	// first header's AAD before it can be read.
	dictFirst bool
	dataPages int // data pages decrypted so far: the next one's ordinal
}

// nextEncrypted is next for an encrypted chunk: each page is a header
// module followed by a page module whose size the header's
// compressed_page_size gives. Both are decrypted in place in the chunk's
// buffer, so the payload aliases it as plaintext payloads do. The header
// module's plaintext may be longer than the PageHeader (parquet-java pads
// it); the page starts after the module either way.
func (it *pageIterator) nextEncrypted() (p rawPage, ok bool, err error) {
	pc := it.crypt
	p.offset = it.base + int64(it.pos)
	hdrType, pageType := encrypt.ModuleDataPageHeader, encrypt.ModuleDataPage
	if it.ordinal == 0 && pc.dictFirst {
		hdrType, pageType = encrypt.ModuleDictionaryPageHeader, encrypt.ModuleDictionaryPage
	}
	it.ordinal++ // errors from here on name this page
	plain, n, err := pc.c.Open(it.data[it.pos:], hdrType, pc.dataPages)
	if err != nil {
		return p, false, fmt.Errorf("page header at offset %d: %w", p.offset, err)
	}
	if _, err := footer.UnmarshalPageHeaderInto(plain, &p.header, &it.store); err != nil {
		return p, false, fmt.Errorf("decrypted page header at offset %d: %w", p.offset, err)
	}
	h := &p.header
	isDict := h.Type == footer.PageTypeDictionary
	if isDict != (hdrType == encrypt.ModuleDictionaryPageHeader) {
		return p, false, fmt.Errorf("%w: page at offset %d is a %s page where the chunk metadata puts %s",
			errs.ErrCorrupt, p.offset, h.Type, hdrType)
	}
	start := it.pos + n
	if h.CompressedPageSize < 0 || h.UncompressedPageSize < 0 || int(h.CompressedPageSize) > len(it.data)-start {
		return p, false, fmt.Errorf("%w: encrypted page at offset %d declares %d bytes (%d uncompressed), the column chunk has %d left",
			errs.ErrCorrupt, p.offset, h.CompressedPageSize, h.UncompressedPageSize, len(it.data)-start)
	}
	stored := it.data[start : start+int(h.CompressedPageSize)]
	if err := it.checkCRC(h, stored, p.offset); err != nil {
		return p, false, err
	}
	payload, m, err := pc.c.Open(stored, pageType, pc.dataPages)
	if err != nil {
		return p, false, fmt.Errorf("page at offset %d: %w", p.offset, err)
	}
	if m != len(stored) {
		return p, false, fmt.Errorf("%w: page at offset %d: the encrypted page of %d bytes holds a module of %d",
			errs.ErrCorrupt, p.offset, len(stored), m)
	}
	p.payload = payload
	it.pos = start + len(stored)
	if !isDict {
		pc.dataPages++
	}
	return p, true, nil
}

// chunkCiphers returns the decryption of the pages of leaves' chunks in
// row group rg of rows rows, nil for plaintext chunks; a chunk whose key
// is missing is an error naming it (unless the row group is empty, when
// no page is read).
func (r *Reader) chunkCiphers(rg int, leaves []*footer.Node, rows int64) ([]*pageCrypt, error) {
	out := make([]*pageCrypt, len(leaves))
	if r.crypt == nil || rows == 0 {
		return out, nil
	}
	for k, leaf := range leaves {
		c, err := r.crypt.Chunk(rg, leaf.Column)
		if err != nil {
			return nil, fmt.Errorf("row group %d, column %q: %w", rg, leaf.DottedPath(), err)
		}
		if c == nil {
			continue
		}
		if md := r.ft.Meta.RowGroups[rg].Columns[leaf.Column].MetaData; md != nil {
			// As in chunkRange, offsets before the leading magic mean "none".
			d, ok := md.DictionaryPageOffset.Get()
			out[k] = &pageCrypt{c: c, dictFirst: ok && d >= 4}
		}
	}
	return out, nil
}

// setPageCrypt hands each leaf of column reader l its chunk's decryption.
func setPageCrypt(l columnReader, pcs []*pageCrypt) {
	switch l := l.(type) {
	case *leafReader:
		l.pages.crypt = pcs[0]
	case *nestedReader:
		for i := range l.leaves {
			l.leaves[i].pages.crypt = pcs[i]
		}
	}
}
