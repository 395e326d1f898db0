package page

import (
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
)

// pageCrypt is the decryption state of one encrypted column chunk's pages.
type Crypt struct {
	Cipher *encrypt.ChunkCipher
	// DictFirst says the chunk's first page is its dictionary page (the
	// chunk metadata has a dictionary_page_offset), which decides the
	// first header's AAD before it can be read.
	DictFirst bool
	dataPages int // data pages decrypted so far: the next one's ordinal
}

// nextEncrypted is next for an encrypted chunk: each page is a header
// module followed by a page module whose size the header's
// compressed_page_size gives. Both are decrypted in place in the chunk's
// buffer, so the payload aliases it as plaintext payloads do. The header
// module's plaintext may be longer than the PageHeader (parquet-java pads
// it); the page starts after the module either way.
func (it *Iterator) nextEncrypted() (p Raw, ok bool, err error) {
	pc := it.Crypt
	p.Offset = it.Base + int64(it.pos)
	hdrType, pageType := encrypt.ModuleDataPageHeader, encrypt.ModuleDataPage
	if it.Ordinal == 0 && pc.DictFirst {
		hdrType, pageType = encrypt.ModuleDictionaryPageHeader, encrypt.ModuleDictionaryPage
	}
	it.Ordinal++ // errors from here on name this page
	plain, n, err := pc.Cipher.Open(it.Data[it.pos:], hdrType, pc.dataPages)
	if err != nil {
		return p, false, fmt.Errorf("page header at offset %d: %w", p.Offset, err)
	}
	if _, err := footer.UnmarshalPageHeaderInto(plain, &p.Header, &it.store); err != nil {
		return p, false, fmt.Errorf("decrypted page header at offset %d: %w", p.Offset, err)
	}
	h := &p.Header
	isDict := h.Type == footer.PageTypeDictionary
	if isDict != (hdrType == encrypt.ModuleDictionaryPageHeader) {
		return p, false, fmt.Errorf("%w: page at offset %d is a %s page where the chunk metadata puts %s",
			errs.ErrCorrupt, p.Offset, h.Type, hdrType)
	}
	start := it.pos + n
	if h.CompressedPageSize < 0 || h.UncompressedPageSize < 0 || int(h.CompressedPageSize) > len(it.Data)-start {
		return p, false, fmt.Errorf("%w: encrypted page at offset %d declares %d bytes (%d uncompressed), the column chunk has %d left",
			errs.ErrCorrupt, p.Offset, h.CompressedPageSize, h.UncompressedPageSize, len(it.Data)-start)
	}
	stored := it.Data[start : start+int(h.CompressedPageSize)]
	if err := it.checkCRC(h, stored, p.Offset); err != nil {
		return p, false, err
	}
	payload, m, err := pc.Cipher.Open(stored, pageType, pc.dataPages)
	if err != nil {
		return p, false, fmt.Errorf("page at offset %d: %w", p.Offset, err)
	}
	if m != len(stored) {
		return p, false, fmt.Errorf("%w: page at offset %d: the encrypted page of %d bytes holds a module of %d",
			errs.ErrCorrupt, p.Offset, len(stored), m)
	}
	p.Payload = payload
	it.pos = start + len(stored)
	if !isDict {
		pc.dataPages++
	}
	return p, true, nil
}
