package colread

import (
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/internal/arrowmem"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
)

// The decoders in this file handle encodings whose kernels decode a whole
// page at once (BYTE_STREAM_SPLIT, whose streams span the page, and the
// DELTA encodings, whose state runs from the page's first value). When a
// batch takes every value of a page, the page decodes straight into the
// Arrow buffer; when a batch ends inside the page, the page decodes once,
// in the physical layout, into scratch reused from page to page, and runs
// of it are copied (or converted) into the batches.

// maxDeltaPageData bounds the bytes one DELTA_BYTE_ARRAY page may expand
// to: shared prefixes let a small page declare enormous values, and no
// legitimate page comes near this.
const maxDeltaPageData = 1 << 30

// pagedFixed hands out a page of fixed-width physical values that decode
// decodes all at once, from src, into a buffer of n*physWidth bytes.
type pagedFixed struct {
	t       *target
	src     []byte                 // the current page's values section
	n       int                    // values in the current page
	decode  func(dst []byte) error // decodes the current page's n values
	decoded bool                   // vals holds the page, decoded into scratch
	scratch []byte
	vals    []byte // the decoded values not yet handed out
}

func (p *pagedFixed) releaseScratch() {
	arrowmem.PutBytes(p.scratch)
	p.scratch, p.vals = nil, nil
}

// reset starts a page of n values in the values section src.
func (p *pagedFixed) reset(src []byte, n int) {
	p.src, p.n, p.decoded, p.vals = src, n, false, nil
}

func (p *pagedFixed) next(out *colOut, at, k int) error {
	w := p.t.physWidth
	if !p.decoded {
		if k > p.n {
			return fmt.Errorf("%w: the page's values section holds %d values, its levels need %d", errs.ErrCorrupt, p.n, k)
		}
		if k == p.n && p.t.conv == nil {
			// The batch takes the whole page: decode in place.
			err := p.decode(out.values.Bytes()[at*w : (at+k)*w])
			p.n = 0
			return err
		}
		if cap(p.scratch) < p.n*w {
			arrowmem.PutBytes(p.scratch)
			p.scratch = arrowmem.GetBytes(p.n * w)
		}
		p.vals = p.scratch[:p.n*w]
		if err := p.decode(p.vals); err != nil {
			return err
		}
		p.decoded = true
	}
	if k*w > len(p.vals) {
		return fmt.Errorf("%w: the page's values section holds %d values, its levels need %d more", errs.ErrCorrupt, len(p.vals)/w, k)
	}
	if err := p.t.convert(out.values.Bytes()[at*p.t.width:], p.vals, k); err != nil {
		return err
	}
	p.vals = p.vals[k*w:]
	return nil
}

// bssDecoder decodes BYTE_STREAM_SPLIT pages of fixed-width values.
type bssDecoder struct{ pagedFixed }

func newBSSDecoder(t *target) *bssDecoder {
	d := &bssDecoder{pagedFixed: pagedFixed{t: t}}
	d.decode = func(dst []byte) error { return kernels.ByteStreamSplitDecode(dst, d.src, t.physWidth) }
	return d
}

func (d *bssDecoder) start(src []byte, count int) error {
	w := d.t.physWidth
	if w == 0 || len(src)%w != 0 || len(src)/w > count {
		return fmt.Errorf("%w: BYTE_STREAM_SPLIT section of %d bytes is not at most %d values of %d bytes", errs.ErrCorrupt, len(src), count, w)
	}
	d.reset(src, len(src)/w)
	return nil
}

// deltaInts decodes DELTA_BINARY_PACKED INT32 and INT64 pages.
type deltaInts struct{ pagedFixed }

func newDeltaInts(t *target) *deltaInts {
	d := &deltaInts{pagedFixed: pagedFixed{t: t}}
	d.decode = func(dst []byte) error {
		var err error
		if t.physWidth == 4 {
			_, err = kernels.DeltaBinaryPackedInt32(arrowmem.ViewCap[int32](dst), d.src)
		} else {
			_, err = kernels.DeltaBinaryPackedInt64(arrowmem.ViewCap[int64](dst), d.src)
		}
		return err
	}
	return d
}

func (d *deltaInts) start(src []byte, count int) error {
	h, err := kernels.ParseDeltaHeader(src)
	if err != nil {
		return err
	}
	if h.Count > count {
		return fmt.Errorf("%w: DELTA_BINARY_PACKED stream of %d values in a page of %d", errs.ErrCorrupt, h.Count, count)
	}
	d.reset(src, h.Count)
	return nil
}

// deltaFixed decodes DELTA_BYTE_ARRAY pages of FIXED_LEN_BYTE_ARRAY values.
type deltaFixed struct {
	pagedFixed
	prefix []int32
}

func newDeltaFixed(t *target) *deltaFixed {
	d := &deltaFixed{pagedFixed: pagedFixed{t: t}}
	d.decode = func(dst []byte) error {
		if cap(d.prefix) < 2*d.n {
			d.prefix = make([]int32, 2*d.n)
		}
		_, err := kernels.DeltaByteArrayFixed(dst, t.physWidth, d.prefix[:2*d.n], d.src)
		return err
	}
	return d
}

func (d *deltaFixed) start(src []byte, count int) error {
	h, err := kernels.ParseDeltaHeader(src)
	if err != nil {
		return err
	}
	w := d.t.physWidth
	if h.Count > count || h.Count > maxDeltaPageData/max(w, 1) {
		return fmt.Errorf("%w: DELTA_BYTE_ARRAY stream of %d values of %d bytes in a page of %d", errs.ErrCorrupt, h.Count, w, count)
	}
	d.reset(src, h.Count)
	return nil
}

// deltaBinary decodes DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY pages of
// byte arrays: straight into the batch's offsets and data when the batch
// takes the whole page, otherwise into scratch offsets and data once, from
// which runs are handed out.
type deltaBinary struct {
	enc     footer.Encoding
	t       *target
	src     []byte
	offsets []int64
	prefix  []int32
	data    []byte
	decoded bool // the page is in offsets and data
	pos     int  // next value to hand out
	n       int  // values in the page
}

func newDeltaBinary(enc footer.Encoding, t *target) *deltaBinary { return &deltaBinary{enc: enc, t: t} }

func (d *deltaBinary) start(src []byte, count int) error {
	h, err := kernels.ParseDeltaHeader(src)
	if err != nil {
		return err
	}
	if h.Count > count {
		return fmt.Errorf("%w: %s stream of %d values in a page of %d", errs.ErrCorrupt, d.enc, h.Count, count)
	}
	d.src, d.n, d.pos, d.decoded = src, h.Count, 0, false
	if cap(d.prefix) < d.n {
		arrowmem.PutBytes(arrowmem.BytesCap(d.prefix))
		d.prefix = arrowmem.ViewCap[int32](arrowmem.GetBytes(4 * d.n))
	}
	return nil
}

func (d *deltaBinary) releaseScratch() {
	arrowmem.PutBytes(arrowmem.BytesCap(d.prefix))
	arrowmem.PutBytes(arrowmem.BytesCap(d.offsets))
	arrowmem.PutBytes(d.data)
	d.prefix, d.offsets, d.data, d.src = nil, nil, nil, nil
}

// decodeDelta decodes the page's n values into offsets (offsets[0] set by
// the caller) and the data that grow(size) returns, and reports the bytes
// of data written.
func decodeDelta[O int32 | int64](enc footer.Encoding, offsets []O, prefix []int32, src []byte, grow func(size int) []byte) (int, error) {
	if enc == footer.EncodingDeltaLengthByteArray {
		n, _, err := kernels.DeltaLengthByteArray(offsets, grow(len(src)), src)
		return n, err
	}
	size, suffixAt, err := kernels.DeltaByteArrayOffsets(offsets, prefix, src)
	if err != nil {
		return 0, err
	}
	if size > maxDeltaPageData {
		return 0, fmt.Errorf("%w: DELTA_BYTE_ARRAY page expands to %d bytes, more than the %d allowed", errs.ErrCorrupt, size, maxDeltaPageData)
	}
	_, err = kernels.DeltaByteArrayData(grow(size), offsets, prefix, src[suffixAt:])
	return size, err
}

// decodeScratch decodes the page into the scratch offsets and data.
func (d *deltaBinary) decodeScratch() error {
	if cap(d.offsets) < d.n+1 {
		arrowmem.PutBytes(arrowmem.BytesCap(d.offsets))
		d.offsets = arrowmem.ViewCap[int64](arrowmem.GetBytes(8 * (d.n + 1)))
	}
	d.offsets = d.offsets[:d.n+1]
	d.offsets[0] = 0
	_, err := decodeDelta(d.enc, d.offsets, d.prefix[:d.n], d.src, func(size int) []byte {
		if cap(d.data) < size+16 {
			arrowmem.PutBytes(d.data)
			d.data = arrowmem.GetBytes(size + 16)
		}
		d.data = d.data[:size+16]
		return d.data
	})
	d.decoded = true
	return err
}

// decodeInto decodes the whole page into out at slot at.
func decodeInto[O int32 | int64](d *deltaBinary, out *colOut, at int) error {
	offsets := offsetsOf[O](out)[at : at+d.n+1]
	n, err := decodeDelta(d.enc, offsets, d.prefix[:d.n], d.src, func(size int) []byte {
		return out.growDataFor(size, at+d.n)
	})
	out.dataLen += n
	d.pos = d.n
	return err
}

func (d *deltaBinary) next(out *colOut, at, k int) error {
	if !d.decoded && d.pos == 0 && k == d.n && !d.t.varDecimal {
		if d.t.large {
			return decodeInto[int64](d, out, at)
		}
		return decodeInto[int32](d, out, at)
	}
	if !d.decoded {
		if err := d.decodeScratch(); err != nil {
			return err
		}
	}
	if k > d.n-d.pos {
		return fmt.Errorf("%w: the page's values section holds %d values, its levels need %d more", errs.ErrCorrupt, d.n-d.pos, k)
	}
	src := d.offsets[d.pos : d.pos+k+1]
	if d.t.varDecimal {
		d.pos += k
		return putDecimals(out.values.Bytes()[at*d.t.width:], d.t.width, src, d.data)
	}
	size := int(src[k] - src[0])
	data := out.growDataFor(size, at+k)
	copy(data[out.dataLen:], d.data[src[0]:src[k]])
	base := int64(out.dataLen) - src[0]
	if d.t.large {
		dst := offsets64(out)[at+1 : at+k+1]
		for i := range dst {
			dst[i] = src[i+1] + base
		}
	} else {
		if int64(out.dataLen)+int64(size) > 1<<31-1 {
			return fmt.Errorf("%w: byte array data passes 2 GiB in one batch; read it as large_string/large_binary", errs.ErrUnsupported)
		}
		dst := offsets32(out)[at+1 : at+k+1]
		for i := range dst {
			dst[i] = int32(src[i+1] + base)
		}
	}
	out.dataLen += size
	d.pos += k
	return nil
}
