package colwrite

import (
	"fmt"
	"math"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
)

// PageSealer is the encryption state of the column chunk a [Writer] is
// writing.
type PageSealer struct {
	Cipher    *encrypt.ChunkCipher // the chunk's cipher, which seals pages and headers
	DataPages int                  // data pages written: the next one's AAD ordinal
	page, hdr []byte               // scratch: the sealed page, the header's plaintext
}

// writeEncryptedPage is writePage's end for an encrypted chunk: out (body
// compressed) becomes a page module and c.hdr, which declares its size and
// CRC, a header module, both appended to *dst.
func (c *Writer) writeEncryptedPage(dst *[]byte, body, out []byte, enc footer.Encoding) error {
	s := c.Crypt
	pageType, hdrType := encrypt.ModuleDataPage, encrypt.ModuleDataPageHeader
	if c.hdr.Type == footer.PageTypeDictionary {
		pageType, hdrType = encrypt.ModuleDictionaryPage, encrypt.ModuleDictionaryPageHeader
	}
	if len(out) > math.MaxInt32-s.Cipher.Overhead(pageType) {
		return fmt.Errorf("%w: column %q: an encrypted page of %d bytes is larger than a page header can declare", errs.ErrUnsupported, c.Path, len(out))
	}
	var err error
	if s.page, err = s.Cipher.Seal(s.page[:0], out, pageType, s.DataPages); err != nil {
		return fmt.Errorf("column %q: %w", c.Path, err)
	}
	c.setPageSizes(body, s.page)
	s.hdr = footer.Marshal(s.hdr[:0], &c.hdr)
	before := len(*dst)
	if *dst, err = s.Cipher.Seal(*dst, s.hdr, hdrType, s.DataPages); err != nil {
		return fmt.Errorf("column %q: %w", c.Path, err)
	}
	hdrLen := len(*dst) - before
	*dst = append(*dst, s.page...)
	c.pageWritten(hdrLen, len(body), enc)
	if pageType == encrypt.ModuleDataPage {
		s.DataPages++
	}
	return nil
}
