package colread

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/internal/arrowmem"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
)

// dictionary is a column chunk's dictionary page, decoded once into the
// leaf's Arrow representation so that every index gathers a finished value.
type dictionary struct {
	t   *target
	len int
	// fixed: len*t.width bytes; binary: offsets and data, checked once
	// in bytes for the gathers.
	values  []byte
	offsets []int32
	data    []byte
	bytes   kernels.ByteArrayDict
	// decoder is the value decoder of the chunk's dictionary-encoded
	// pages (both encodings: it restarts at every page).
	decoder dictDecoder
}

// newDictionary decodes a dictionary page (PLAIN or PLAIN_DICTIONARY
// encoded, count values) for target t into d, which a leaf reader keeps
// for its chunk. Every count is checked against the page's bytes before
// anything is allocated. pooled, when not nil, points at the byte pools'
// buffer page was decompressed into: fixed-width values that need no
// conversion then stay there, the dictionary taking the buffer (and
// setting *pooled to nil) rather than copying them out.
func newDictionary(d *dictionary, t *target, enc footer.Encoding, count int, page []byte, pooled *[]byte) (*dictionary, error) {
	if enc != footer.EncodingPlain && enc != footer.EncodingPlainDictionary {
		return nil, fmt.Errorf("%w: dictionary page encoded %s", errs.ErrUnsupported, enc)
	}
	if count < 0 {
		return nil, fmt.Errorf("%w: dictionary page declares %d values", errs.ErrCorrupt, count)
	}
	*d = dictionary{t: t, len: count}
	switch {
	case t.varDecimal:
		offsets, data, err := plainByteArrays(count, page)
		if err != nil {
			return nil, err
		}
		d.values = arrowmem.GetBytes(count * t.width)
		err = putDecimals(d.values, t.width, offsets, data)
		arrowmem.PutBytes(data)
		arrowmem.PutBytes(arrowmem.BytesCap(offsets))
		if err != nil {
			d.release()
			return nil, err
		}
	case t.kind == fixedTarget:
		need := count * t.physWidth
		if t.physWidth == 0 || need/t.physWidth != count || need > len(page) {
			return nil, errShortPage(fmt.Sprintf("dictionary of %d values of %d bytes", count, t.physWidth), need, len(page))
		}
		if pooled != nil && t.conv == nil && t.width == t.physWidth && len(page) > 0 &&
			unsafe.SliceData(*pooled) == unsafe.SliceData(page) {
			d.values, *pooled = (*pooled)[:need], nil
			break
		}
		d.values = arrowmem.GetBytes(count * t.width)
		if err := t.convert(d.values, page, count); err != nil {
			d.release()
			return nil, err
		}
	case t.kind == binaryTarget:
		var err error
		if d.offsets, d.data, err = plainByteArrays(count, page); err != nil {
			return nil, err
		}
		if d.bytes, err = kernels.NewByteArrayDict(d.offsets, d.data); err != nil {
			d.release()
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%w: dictionary page for values read as %s", errs.ErrUnsupported, t.typ)
	}
	return d, nil
}

// gather writes the values at idx into out's slots [at, at+len(idx)).
// Indices past the dictionary are an error wrapping kernels.ErrOutOfRange.
func (d *dictionary) gather(out *colOut, at int, idx []uint32) error {
	if len(idx) > 0 && int(idx[0]) < d.len && len(idx) <= d.len-int(idx[0]) && kernels.Sequential(idx) {
		return d.copyRun(out, at, int(idx[0]), len(idx))
	}
	switch d.t.kind {
	case fixedTarget:
		w := d.t.width
		return kernels.GatherFixed(out.values.Bytes()[at*w:(at+len(idx))*w], d.values, w, idx)
	case binaryTarget:
		// One pass when the data buffer already has room for the longest
		// value at every index; otherwise size the values first.
		bound := int64(len(idx)) * int64(d.bytes.MaxLen())
		var data []byte
		if bound <= int64(out.data.Cap()-out.dataLen-dataSlack) {
			data = out.growData(int(bound))
		} else {
			size, err := kernels.GatherByteArraySize(&d.bytes, idx)
			if err != nil {
				return err
			}
			data = out.growDataFor(size, at+len(idx))
		}
		var n int
		var err error
		if d.t.large {
			n, err = kernels.GatherByteArray(offsets64(out)[at:at+len(idx)+1], data, &d.bytes, idx)
		} else {
			n, err = kernels.GatherByteArray(offsets32(out)[at:at+len(idx)+1], data, &d.bytes, idx)
		}
		out.dataLen += n
		return err
	}
	return fmt.Errorf("%w: dictionary values read as %s", errs.ErrUnsupported, d.t.typ)
}

// copyRun writes the dictionary's values [from, from+n) into out's slots
// [at, at+n): the gather of indices that count up by one, as the pages of
// a column of distinct values hold them, done as one copy.
func (d *dictionary) copyRun(out *colOut, at, from, n int) error {
	switch d.t.kind {
	case fixedTarget:
		w := d.t.width
		copy(out.values.Bytes()[at*w:(at+n)*w], d.values[from*w:(from+n)*w])
		return nil
	case binaryTarget:
		src := d.offsets[from : from+n+1]
		size := int(src[n] - src[0])
		if !d.t.large && int64(out.dataLen)+int64(size) > math.MaxInt32 {
			return fmt.Errorf("%w: byte array data passes 2 GiB in one batch", kernels.ErrOffsetOverflow)
		}
		data := out.growDataFor(size, at+n)
		copy(data[out.dataLen:], d.data[src[0]:src[n]])
		if d.t.large {
			rebaseOffsets(offsets64(out)[at+1:at+n+1], src[1:], int64(out.dataLen)-int64(src[0]))
		} else {
			rebaseOffsets(offsets32(out)[at+1:at+n+1], src[1:], int32(out.dataLen-int(src[0])))
		}
		out.dataLen += size
		return nil
	}
	return fmt.Errorf("%w: dictionary values read as %s", errs.ErrUnsupported, d.t.typ)
}

// rebaseOffsets sets dst[i] to src[i] + base.
func rebaseOffsets[O int32 | int64](dst []O, src []int32, base O) {
	dst = dst[:len(src)]
	for i, o := range src {
		dst[i] = O(o) + base
	}
}

// plainByteArrays decodes count PLAIN byte arrays from page into offsets
// and data from the byte pools (see release).
func plainByteArrays(count int, page []byte) ([]int32, []byte, error) {
	if count > len(page)/4 {
		return nil, nil, errShortPage(fmt.Sprintf("dictionary of %d byte arrays", count), 4*count, len(page))
	}
	offsets := arrowmem.ViewCap[int32](arrowmem.GetBytes(4 * (count + 1)))
	offsets[0] = 0
	data := arrowmem.GetBytes(len(page) + kernels.GatherSlack) // the slack a ByteArrayDict wants
	n, _, err := kernels.PlainByteArray(offsets, data, page)
	if err != nil {
		arrowmem.PutBytes(arrowmem.BytesCap(offsets))
		arrowmem.PutBytes(data)
		return nil, nil, err
	}
	return offsets, data[:n], nil
}

// release returns the dictionary's pooled buffers; it is not used again.
func (d *dictionary) release() {
	arrowmem.PutBytes(d.values)
	arrowmem.PutBytes(arrowmem.BytesCap(d.offsets))
	arrowmem.PutBytes(d.data)
	*d = dictionary{}
}
