package arrowio

import (
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/colwrite"

	"github.com/quiverio/quiver/footer"
)

// startEncryption gives column writer c, about to write the chunk of leaf
// column col in the next row group, that chunk's cipher (none for a
// plaintext column or file).
func (w *Writer) startEncryption(c *colwrite.Writer, col int) error {
	if w.enc == nil {
		return nil
	}
	cc, err := w.enc.Chunk(len(w.rowGroups), col)
	if err != nil {
		return fmt.Errorf("column %q: %w", c.Path, err)
	}
	if cc == nil {
		c.Crypt = nil
		return nil
	}
	if c.Crypt == nil {
		c.Crypt = &colwrite.PageSealer{}
	}
	c.Crypt.Cipher, c.Crypt.DataPages = cc, 0
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
