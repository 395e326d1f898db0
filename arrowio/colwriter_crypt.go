package arrowio

import (
	"fmt"
	"hash/crc32"
	"math"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
)

// pageSealer is the encryption state of the column chunk a columnWriter
// is writing.
type pageSealer struct {
	c         *encrypt.ChunkCipher
	dataPages int    // data pages written: the next one's AAD ordinal
	page, hdr []byte // scratch: the sealed page, the header's plaintext
}

// startEncryption gives column writer c, about to write the chunk of leaf
// column col in the next row group, that chunk's cipher (none for a
// plaintext column or file).
func (w *Writer) startEncryption(c *columnWriter, col int) error {
	if w.enc == nil {
		return nil
	}
	cc, err := w.enc.Chunk(len(w.rowGroups), col)
	if err != nil {
		return fmt.Errorf("column %q: %w", c.path, err)
	}
	if cc == nil {
		c.crypt = nil
		return nil
	}
	if c.crypt == nil {
		c.crypt = &pageSealer{}
	}
	c.crypt.c, c.crypt.dataPages = cc, 0
	return nil
}

// writeEncryptedPage is writePage's end for an encrypted chunk: out (body
// compressed) becomes a page module and c.hdr, which declares its size and
// CRC, a header module, both appended to *dst.
func (c *columnWriter) writeEncryptedPage(dst *[]byte, body, out []byte, enc footer.Encoding) error {
	s := c.crypt
	pageType, hdrType := encrypt.ModuleDataPage, encrypt.ModuleDataPageHeader
	if c.hdr.Type == footer.PageTypeDictionary {
		pageType, hdrType = encrypt.ModuleDictionaryPage, encrypt.ModuleDictionaryPageHeader
	}
	if len(out) > math.MaxInt32-s.c.Overhead(pageType) {
		return fmt.Errorf("%w: column %q: an encrypted page of %d bytes is larger than a page header can declare", errs.ErrUnsupported, c.path, len(out))
	}
	var err error
	if s.page, err = s.c.Seal(s.page[:0], out, pageType, s.dataPages); err != nil {
		return fmt.Errorf("column %q: %w", c.path, err)
	}
	c.hdr.UncompressedPageSize = int32(len(body))
	c.hdr.CompressedPageSize = int32(len(s.page))
	if c.set.crc {
		c.hdr.CRC = footer.Some(int32(crc32.ChecksumIEEE(s.page)))
	}
	s.hdr = footer.Marshal(s.hdr[:0], &c.hdr)
	before := len(*dst)
	if *dst, err = s.c.Seal(*dst, s.hdr, hdrType, s.dataPages); err != nil {
		return fmt.Errorf("column %q: %w", c.path, err)
	}
	hdrLen := len(*dst) - before
	*dst = append(*dst, s.page...)
	c.uncompressed += int64(hdrLen + len(body))
	c.countPage(c.hdr.Type, enc)
	if pageType == encrypt.ModuleDataPage {
		s.dataPages++
	}
	return nil
}

// magic returns the magic the file starts and ends with.
func (w *Writer) magic() string {
	if w.enc != nil {
		return w.enc.Magic()
	}
	return magic
}

// appendFooter appends the footer fm, encrypted or signed when the file
// is encrypted, to dst.
func (w *Writer) appendFooter(dst []byte, fm *footer.FileMetaData) []byte {
	if w.enc != nil {
		return w.enc.AppendFooter(dst, fm)
	}
	return footer.Marshal(dst, fm)
}

// finishEncryption records how each column chunk is encrypted and seals
// the column metadata of those with their own key (or all, under a
// plaintext footer). It runs at Close, once the page indexes and bloom
// filters have added their offsets to the metadata.
func (w *Writer) finishEncryption() error {
	if w.enc == nil {
		return nil
	}
	for r := range w.rowGroups {
		for c := range w.rowGroups[r].Columns {
			if err := w.enc.FinishChunk(&w.rowGroups[r].Columns[c], r, c); err != nil {
				return err
			}
		}
	}
	return nil
}
