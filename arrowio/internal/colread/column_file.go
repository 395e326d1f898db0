package colread

import (
	"io"

	"github.com/quiverio/quiver/arrowio/internal/page"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/arrowmem"
)

// ReadsFromFile reports whether the leaf decodes its chunk as
// Pages.AttachFile reads it: a plaintext, uncompressed chunk of PLAIN values
// copied as they are into Arrow (no conversion), without CRC
// verification, which needs each page whole. Other chunks are read whole:
// their pages would all be materialized, a read each.
func (l *LeafReader) ReadsFromFile() bool {
	return l.plain && l.codec == footer.CodecUncompressed && l.Pages.Crypt == nil && !l.Pages.VerifyCRC && l.CopiesValues()
}

// CopiesValues reports whether the leaf's PLAIN values are its Arrow
// values byte for byte: fixed width, no conversion.
func (l *LeafReader) CopiesValues() bool {
	return l.t.kind == fixedTarget && l.t.conv == nil && !l.t.varDecimal && l.t.physWidth == l.t.width
}

// startPlacedPage starts data page p, which the page iterator returned with
// only its first bytes, reading its PLAIN values straight from the file
// into the batch's values buffer. It reports false, having done
// nothing, when the page is not PLAIN or its first bytes do not hold its
// level sections; the caller then materializes the page.
func (l *LeafReader) startPlacedPage(p *page.Raw) (bool, error) {
	enc := footer.Encoding(-1)
	switch h := &p.Header; {
	case h.Type == footer.PageTypeData && h.DataPageHeader != nil:
		enc = h.DataPageHeader.Encoding
	case h.Type == footer.PageTypeDataV2 && h.DataPageHeaderV2 != nil:
		enc = h.DataPageHeaderV2.Encoding
	}
	if enc != footer.EncodingPlain {
		return false, nil
	}
	dp, err := page.SplitData(p, l.codec, l.dec, nil, l.node.MaxDef, l.node.MaxRep)
	if err != nil {
		return false, nil // the whole page gives the error, if it has one
	}
	l.placed = filePlain{width: l.t.width, head: dp.Values, src: l.Pages.Src, off: p.MoreOff, left: int64(p.More),
		bounce: l.placed.bounce, most: bounceWindows * l.Pages.WindowSize}
	return true, l.usePage(dp, &l.placed)
}

// filePlain decodes the PLAIN values of a page read by startPlacedPage:
// those in the window are copied, the rest read from the file, at most
// most bytes at a time, into a bounce buffer kept from page to page of the
// chunk and copied from there into the values buffer. Reading
// straight into the values buffer saves that copy, but the kernel's copy
// into memory not in cache measured slower than the two (taxi plain 152.9
// -> 76.6 ms, alternating A/B n=5, commit e006aab).
type filePlain struct {
	width  int
	head   []byte // the page's values in the window, not consumed yet
	src    io.ReaderAt
	off    int64 // file offset of the values after head
	left   int64 // bytes of values from off
	bounce []byte
	// most is the most bytes read into bounce at once.
	most int
}

func (d *filePlain) start([]byte, int) error { return nil }

func (d *filePlain) next(out *colOut, at, k int) error {
	need := k * d.width
	if int64(need) > int64(len(d.head))+d.left {
		return errShortPage("PLAIN values", need, len(d.head)+int(d.left))
	}
	dst := out.values.Bytes()[at*d.width : at*d.width+need]
	n := copy(dst, d.head)
	d.head = d.head[n:]
	for rest := dst[n:]; len(rest) > 0; {
		if cap(d.bounce) < min(len(rest), d.most) {
			arrowmem.PutBytes(d.bounce)
			d.bounce = arrowmem.GetBytes(int(min(d.left, int64(d.most))))
		}
		b := d.bounce[:min(len(rest), d.most)]
		if err := page.ReadFull(d.src, b, d.off); err != nil {
			return err
		}
		copy(rest, b)
		rest = rest[len(b):]
		d.off += int64(len(b))
		d.left -= int64(len(b))
	}
	return nil
}

// bounceWindows is the most a filePlain reads at once into its bounce
// buffer, in windows of the page iterator: 2 MiB by default, small enough
// to stay in cache between the read and the copy (256 KiB measured no
// different), and in the tests' small windows small enough that a page
// takes several reads.
const bounceWindows = 32
