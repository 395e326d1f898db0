package colwrite

import (
	"fmt"
	"math"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
)

// bytesPage is the page of a BYTE_ARRAY column that is not dictionary-
// encoded, its values kept as its encoding writes them as they arrive, so
// that the page's end appends them with no pass over the values: PLAIN
// values behind their lengths, or the length streams and bytes of the
// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY encodings.
type bytesPage struct {
	enc    footer.Encoding
	vals   []byte  // PLAIN: the values, each behind its 4-byte length; DELTA_LENGTH_BYTE_ARRAY: the values; DELTA_BYTE_ARRAY: their suffixes
	lens   []int32 // DELTA_*: the length of each value (DELTA_BYTE_ARRAY: of its suffix)
	shared []int32 // DELTA_BYTE_ARRAY: the length of the prefix each value shares with the one before it
	last   []byte  // DELTA_BYTE_ARRAY: the page's last value
	count  int     // values
	size   int     // bytes of the values
}

// reset empties the page for values of encoding enc, keeping its memory.
func (p *bytesPage) reset(enc footer.Encoding) {
	p.enc = enc
	p.vals, p.lens, p.shared, p.last = p.vals[:0], p.lens[:0], p.shared[:0], p.last[:0]
	p.count, p.size = 0, 0
}

// bytes estimates the page's encoded size: the values and 4 bytes
// apiece, PLAIN's size exactly.
func (p *bytesPage) bytes() int { return p.size + 4*p.count }

// checkEncoding reports an encoding the page cannot hold.
func checkEncoding(enc footer.Encoding) error {
	switch enc {
	case footer.EncodingPlain, footer.EncodingDeltaLengthByteArray, footer.EncodingDeltaByteArray:
		return nil
	}
	return fmt.Errorf("%w: encoding %s for BYTE_ARRAY", errs.ErrUnsupported, enc)
}

// checkLengths reports a value of offs (not empty) longer than the 2^31-1
// bytes a BYTE_ARRAY length holds.
func checkLengths[O kernels.Offset](offs []O) error {
	if int64(offs[len(offs)-1]-offs[0]) <= math.MaxInt32 {
		return nil
	}
	for i := 1; i < len(offs); i++ {
		if l := int64(offs[i] - offs[i-1]); l > math.MaxInt32 {
			return fmt.Errorf("%w: a BYTE_ARRAY value of %d bytes", errs.ErrUnsupported, l)
		}
	}
	return nil
}

// addPage adds the values of offs and data (at least one, each within
// data and at most math.MaxInt32 bytes long) to p. plainDone says that
// PLAIN values are already in p.vals (scanUnsigned put them there).
func addPage[O kernels.Offset](p *bytesPage, offs []O, data []byte, plainDone bool) error {
	n := len(offs) - 1
	bytes := int(offs[n] - offs[0])
	switch p.enc {
	case footer.EncodingPlain:
		if !plainDone {
			var err error
			if p.vals, err = kernels.AppendPlainByteArray(growDoubling(p.vals, 4*n+bytes), offs, data); err != nil {
				return err
			}
		}
	case footer.EncodingDeltaLengthByteArray:
		p.lens = growDoubling(p.lens, n)
		for i := range n {
			p.lens = append(p.lens, int32(offs[i+1]-offs[i]))
		}
		p.vals = append(growDoubling(p.vals, bytes), data[offs[0]:offs[n]]...)
	case footer.EncodingDeltaByteArray:
		p.lens, p.shared = growDoubling(p.lens, n), growDoubling(p.shared, n)
		p.vals = growDoubling(p.vals, bytes)
		out, pos := p.vals[len(p.vals):cap(p.vals)], 0
		prev := p.last
		for i := range n {
			at, end := int(offs[i]), int(offs[i+1])
			v := data[at:end]
			s := commonPrefix(prev, v)
			p.shared = append(p.shared, int32(s))
			p.lens = append(p.lens, int32(len(v)-s))
			// Suffixes of up to 16 bytes move as 16 bytes when both
			// slices have them, the bytes past one overwritten by the
			// next or left in the spare capacity.
			if at+s+16 <= len(data) && pos+16 <= len(out) {
				*(*[16]byte)(out[pos : pos+16]) = *(*[16]byte)(data[at+s : at+s+16])
				if len(v)-s > 16 {
					copy(out[pos+16:], v[s+16:])
				}
			} else {
				copy(out[pos:], v[s:])
			}
			pos += len(v) - s
			prev = v
		}
		p.vals = p.vals[:len(p.vals)+pos]
		p.last = append(p.last[:0], prev...)
	}
	p.count += n
	p.size += bytes
	return nil
}

// addValue adds v, at most math.MaxInt32 bytes long, to p.
func (p *bytesPage) addValue(v []byte) error {
	offs := [2]int32{0, int32(len(v))}
	return addPage(p, offs[:], v, false)
}

// appendTo appends the page's values, encoded, to dst, and empties the
// page.
func (p *bytesPage) appendTo(dst []byte) []byte {
	switch p.enc {
	case footer.EncodingPlain:
		dst = append(dst, p.vals...)
	case footer.EncodingDeltaLengthByteArray:
		dst = append(kernels.AppendDeltaBinaryPackedInt32(dst, p.lens), p.vals...)
	case footer.EncodingDeltaByteArray:
		dst = kernels.AppendDeltaBinaryPackedInt32(dst, p.shared)
		dst = append(kernels.AppendDeltaBinaryPackedInt32(dst, p.lens), p.vals...)
	}
	p.reset(p.enc)
	return dst
}
