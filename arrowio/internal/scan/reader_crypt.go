package scan

import (
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/page"
	"github.com/quiverio/quiver/footer"
)

// chunkCiphers returns the decryption of the pages of leaves' chunks in
// row group rg of rows rows, nil for plaintext chunks; a chunk whose key
// is missing is an error naming it (unless the row group is empty, when
// no page is read).
func (r *File) chunkCiphers(rg int, leaves []*footer.Node, rows int64) ([]*page.Crypt, error) {
	out := make([]*page.Crypt, len(leaves))
	if r.Crypt == nil || rows == 0 {
		return out, nil
	}
	for k, leaf := range leaves {
		c, err := r.Crypt.Chunk(rg, leaf.Column)
		if err != nil {
			return nil, fmt.Errorf("row group %d, column %q: %w", rg, leaf.DottedPath(), err)
		}
		if c == nil {
			continue
		}
		if md := r.Footer.Meta.RowGroups[rg].Columns[leaf.Column].MetaData; md != nil {
			// As in chunkRange, offsets before the leading magic mean "none".
			d, ok := md.DictionaryPageOffset.Get()
			out[k] = &page.Crypt{Cipher: c, DictFirst: ok && d >= 4}
		}
	}
	return out, nil
}
