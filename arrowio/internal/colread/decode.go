package colread

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/internal/arrowmem"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
)

// valueDecoder decodes the values section of a leaf's data pages in one
// encoding. A page may be consumed over several calls of next, since a
// batch can end inside a page.
type valueDecoder interface {
	// start begins a page whose values section is src and which holds at
	// most count values (its level count).
	start(src []byte, count int) error
	// next decodes the page's next k values densely into out at slot at.
	next(out *colOut, at, k int) error
}

// valueDecoders holds a leaf's value decoder for each page encoding met so
// far, so that the pages of one encoding share one decoder. An array, not
// a map: a chunk's reader would otherwise allocate a map of its own, which
// on a file of many small chunks is a good part of what reading allocates.
type valueDecoders [footer.EncodingByteStreamSplit + 1]valueDecoder

// get returns the decoder for enc, or nil before set stored one.
func (d *valueDecoders) get(enc footer.Encoding) valueDecoder {
	if uint(enc) < uint(len(d)) {
		return d[enc]
	}
	return nil
}

// set keeps vd as the decoder for enc. Encodings past the array have no
// decoder (newValueDecoder refuses them), so there is nothing to keep.
func (d *valueDecoders) set(enc footer.Encoding, vd valueDecoder) {
	if uint(enc) < uint(len(d)) {
		d[enc] = vd
	}
}

// scratchHolder is a value decoder that keeps pooled scratch from page to
// page.
type scratchHolder interface {
	// releaseScratch returns the scratch to its pool.
	releaseScratch()
}

// release returns the decoders' pooled scratch and forgets the decoders,
// when the leaf's chunk is done: the next chunk's decoders take the
// scratch from the pool instead of allocating their own.
func (d *valueDecoders) release() {
	for i, vd := range d {
		if s, ok := vd.(scratchHolder); ok {
			s.releaseScratch()
		}
		d[i] = nil
	}
}

// newValueDecoder returns the decoder for encoding enc of leaf values
// landing in t. dict is the column chunk's dictionary (nil before a
// dictionary page); idx is scratch for dictionary indices.
func newValueDecoder(enc footer.Encoding, t *target, dict *dictionary, idx *[]uint32) (valueDecoder, error) {
	switch enc {
	case footer.EncodingPlain:
		switch {
		case t.varDecimal:
			return &plainVarDecimal{t: t}, nil
		case t.kind == fixedTarget:
			return &plainFixed{t: t}, nil
		case t.kind == boolTarget:
			return &plainBool{}, nil
		case t.kind == binaryTarget:
			if t.large {
				return &plainBinary[int64]{}, nil
			}
			return &plainBinary[int32]{}, nil
		}
	case footer.EncodingPlainDictionary, footer.EncodingRLEDictionary:
		if dict == nil {
			return nil, fmt.Errorf("%w: %s data page without a dictionary page before it", errs.ErrCorrupt, enc)
		}
		dict.decoder = dictDecoder{dict: dict, idx: idx}
		return &dict.decoder, nil
	case footer.EncodingRLE:
		if t.kind == boolTarget {
			return &rleBool{}, nil
		}
	case footer.EncodingByteStreamSplit:
		if t.kind == fixedTarget {
			return newBSSDecoder(t), nil
		}
	case footer.EncodingDeltaBinaryPacked:
		if t.kind == fixedTarget && (t.physWidth == 4 || t.physWidth == 8) {
			return newDeltaInts(t), nil
		}
	case footer.EncodingDeltaLengthByteArray, footer.EncodingDeltaByteArray:
		if t.kind == binaryTarget || t.varDecimal {
			return newDeltaBinary(enc, t), nil
		}
		if enc == footer.EncodingDeltaByteArray && t.kind == fixedTarget && t.physWidth > 0 {
			return newDeltaFixed(t), nil
		}
	}
	return nil, fmt.Errorf("%w: encoding %s for values read as %s", errs.ErrUnsupported, enc, t.typ)
}

// plainFixed decodes PLAIN values of fixed width (INT32, INT64, INT96,
// FLOAT, DOUBLE, FIXED_LEN_BYTE_ARRAY).
type plainFixed struct {
	t   *target
	src []byte
}

func (d *plainFixed) start(src []byte, _ int) error { d.src = src; return nil }

func (d *plainFixed) next(out *colOut, at, k int) error {
	w := d.t.physWidth
	need := k * w
	if need > len(d.src) {
		return errShortPage("PLAIN values", need, len(d.src))
	}
	if err := d.t.convert(out.values.Bytes()[at*d.t.width:], d.src, k); err != nil {
		return err
	}
	d.src = d.src[need:]
	return nil
}

// plainBool decodes PLAIN booleans: bits, LSB first.
type plainBool struct {
	src []byte
	bit int
}

func (d *plainBool) start(src []byte, _ int) error { d.src, d.bit = src, 0; return nil }

func (d *plainBool) next(out *colOut, at, k int) error {
	if k > len(d.src)*8-d.bit {
		return errShortPage("PLAIN booleans", (d.bit+k+7)/8, len(d.src))
	}
	if err := kernels.CopyBits(out.values.Bytes(), at, d.src, d.bit, k); err != nil {
		return err
	}
	d.bit += k
	return nil
}

// plainBinary decodes PLAIN BYTE_ARRAY values into offsets of type O.
type plainBinary[O int32 | int64] struct{ src []byte }

func (d *plainBinary[O]) start(src []byte, _ int) error { d.src = src; return nil }

func (d *plainBinary[O]) next(out *colOut, at, k int) error {
	offsets := offsetsOf[O](out)[at : at+k+1]
	// The k values take at most the page's bytes left less their 4-byte
	// lengths. They are first decoded into the room the buffer has, which
	// the batch's estimate (LeafReader.dataHint) makes enough as a rule:
	// asking for that bound instead would grow the buffer for every batch
	// that ends inside a page. Should the room run short, the values'
	// exact size is summed and the buffer grown to it at the batch's rate.
	bound := max(len(d.src)-4*k, 0)
	data := out.growData(min(bound, out.dataRoom()))
	n, used, err := kernels.PlainByteArray(offsets, data, d.src)
	if errors.Is(err, kernels.ErrShortBuffer) {
		var size int
		if size, err = kernels.PlainByteArraySize(d.src, k); err != nil {
			return err
		}
		n, used, err = kernels.PlainByteArray(offsets, out.growDataFor(size, at+k), d.src)
	}
	if err != nil {
		return err
	}
	out.dataLen += n
	d.src = d.src[used:]
	return nil
}

// offsetsOf views out's offsets as O.
func offsetsOf[O int32 | int64](out *colOut) []O {
	var o O
	if _, ok := any(o).(int64); ok {
		return any(offsets64(out)).([]O)
	}
	return any(offsets32(out)).([]O)
}

// plainVarDecimal decodes PLAIN BYTE_ARRAY decimals into fixed-width
// Arrow decimals.
type plainVarDecimal struct {
	t   *target
	src []byte
}

func (d *plainVarDecimal) start(src []byte, _ int) error { d.src = src; return nil }

func (d *plainVarDecimal) next(out *colOut, at, k int) error {
	w := d.t.width
	vals := out.values.Bytes()[at*w : (at+k)*w]
	for i := range k {
		if len(d.src) < 4 {
			return errShortPage("PLAIN decimal length", 4, len(d.src))
		}
		l := binary.LittleEndian.Uint32(d.src)
		if uint64(l) > uint64(len(d.src)-4) {
			return errShortPage("PLAIN decimal", int(l), len(d.src)-4)
		}
		if err := putDecimal(vals[i*w:(i+1)*w], d.src[4:4+l]); err != nil {
			return err
		}
		d.src = d.src[4+l:]
	}
	return nil
}

// rleBool decodes RLE booleans: a 4-byte length, then the hybrid stream
// of bit width 1.
type rleBool struct{ dec kernels.RLEDecoder }

func (d *rleBool) start(src []byte, _ int) error {
	if len(src) < 4 {
		return errShortPage("RLE boolean length", 4, len(src))
	}
	l := binary.LittleEndian.Uint32(src)
	if uint64(l) > uint64(len(src)-4) {
		return errShortPage("RLE booleans", int(l), len(src)-4)
	}
	d.dec.Reset(src[4:4+l], 1)
	return nil
}

func (d *rleBool) next(out *colOut, at, k int) error {
	_, err := d.dec.DecodeBitmap(out.values.Bytes(), at, k)
	return err
}

// dictDecoder decodes RLE_DICTIONARY (and PLAIN_DICTIONARY) indices and
// gathers the dictionary's values.
type dictDecoder struct {
	dict *dictionary
	idx  *[]uint32
	dec  kernels.RLEDecoder
}

func (d *dictDecoder) start(src []byte, count int) error {
	if count == 0 && len(src) == 0 {
		return nil
	}
	if len(src) < 1 {
		return errShortPage("dictionary index bit width", 1, 0)
	}
	w := uint(src[0])
	if w > 32 {
		return fmt.Errorf("%w: dictionary indices of bit width %d", errs.ErrCorrupt, w)
	}
	d.dec.Reset(src[1:], w)
	return nil
}

func (d *dictDecoder) next(out *colOut, at, k int) error {
	idx := d.indices(k)
	if _, err := d.dec.DecodeUint32(idx); err != nil {
		return err
	}
	return d.dict.gather(out, at, idx)
}

// indices returns k indices of the leaf's index scratch, which it grows
// from the byte pools when short.
func (d *dictDecoder) indices(k int) []uint32 {
	if cap(*d.idx) < k {
		arrowmem.PutBytes(arrowmem.BytesCap(*d.idx))
		*d.idx = arrowmem.ViewCap[uint32](arrowmem.GetBytes(4 * k))
	}
	return (*d.idx)[:k]
}
