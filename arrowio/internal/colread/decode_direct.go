package colread

import (
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/page"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/quiverio/quiver/footer"
)

// startDirectPage starts compressed data page p by decompressing its PLAIN
// values straight into out's values buffer at slot at, where fill decodes
// the page next, instead of into the page buffer to be copied from there.
// That takes values that need no decoding (copiesValues) in a section
// compressed on its own: every data page v2, and v1 pages of leaves
// without levels. The page must fit the batch of n slots and out's
// buffers as fill grows them. It reports false, having done nothing but
// that growth, for any other page, and for pages whose header does not
// add up, which the page buffer's path then reports.
func (l *LeafReader) startDirectPage(p *page.Raw, out *colOut, at, n int) (bool, error) {
	if l.codec == footer.CodecUncompressed || p.More > 0 || !l.CopiesValues() {
		return false, nil
	}
	h := &p.Header
	var dp page.Data
	values, size := p.Payload, int(h.UncompressedPageSize)
	switch {
	case h.Type == footer.PageTypeData && h.DataPageHeader != nil && l.node.MaxDef == 0 && l.node.MaxRep == 0:
		dh := h.DataPageHeader
		dp = page.Data{NumValues: int(dh.NumValues), Encoding: dh.Encoding, LevelEncoding: footer.EncodingRLE}
	case h.Type == footer.PageTypeDataV2:
		if compressed, ok := h.DataPageHeaderV2.IsCompressed.Get(); ok && !compressed {
			return false, nil
		}
		var err error
		if dp, values, err = page.SplitV2Levels(p); err != nil {
			return false, nil
		}
		size -= len(p.Payload) - len(values)
	default:
		return false, nil
	}
	present := dp.NumValues - dp.NumNulls
	w := l.t.width
	if dp.Encoding != footer.EncodingPlain || dp.NumValues < 0 || dp.NumValues > n-at || size != present*w ||
		out.growStep(at, dp.NumValues) < dp.NumValues {
		return false, nil
	}
	if _, err := page.Decompress(l.dec, p, l.codec, out.values.Bytes()[at*w:at*w], values, size); err != nil {
		return true, err
	}
	l.inPlace = InPlace{n: present}
	return true, l.usePage(dp, &l.inPlace)
}

// InPlace decodes a page whose values startDirectPage decompressed into
// the batch already: n dense values from the slot fill decodes the page
// to. fill consumes the page in one step, as startDirectPage grew the
// buffers to hold it, so the values are where that step expects them.
type InPlace struct{ n int }

func (d *InPlace) start([]byte, int) error { return nil }

func (d *InPlace) next(_ *colOut, _, k int) error {
	if k > d.n {
		return fmt.Errorf("%w: the definition levels count %d values, the page header %d", errs.ErrCorrupt, k, d.n)
	}
	d.n -= k
	return nil
}
