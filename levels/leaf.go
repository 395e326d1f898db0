package levels

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/internal/arrowmem"
	"github.com/quiverio/quiver/kernels"
)

// leafData builds leaf p's array of slots slots from its dense values:
// the values array itself when no slot is null, otherwise the values
// spread over the valid slots of validity. When owned (see Column.Owned)
// the spread happens inside the values' own buffer if it has the room.
func leafData(mem memory.Allocator, p *plan, dense arrow.Array, owned bool, slots int, validity *memory.Buffer, nulls int) (arrow.ArrayData, error) {
	if dense.Len() != slots-nulls {
		return nil, fmt.Errorf("%w: leaf %q has %d values for %d present slots", ErrCorrupt, p.Name, dense.Len(), slots-nulls)
	}
	if p.layout == layoutNull {
		return array.NewData(p.Type, slots, []*memory.Buffer{nil}, nil, slots, 0), nil
	}
	if dense.Len() == 0 && slots > 0 {
		// Every slot is null; an empty values array may have no buffers.
		a := arrowmem.NullArray(mem, p.Type, slots)
		defer a.Release()
		d := a.Data()
		d.Retain()
		return d, nil
	}
	src := dense.Data()
	if nulls == 0 {
		src.Retain()
		return src, nil
	}
	valid := validity.Bytes()
	bufs := src.Buffers()
	off := src.Offset()
	// spreadTo returns the buffer of n bytes the spread writes: bufs[1]
	// itself, lengthened, when it may be reused and has the room (the
	// dense values are then its prefix), else a new buffer.
	spreadTo := func(n int) *memory.Buffer {
		if owned && off == 0 && bufs[1].Cap() >= n {
			bufs[1].ResizeNoShrink(n)
			bufs[1].Retain()
			return bufs[1]
		}
		b := memory.NewResizableBuffer(mem)
		b.Resize(n)
		return b
	}
	switch p.layout {
	case layoutBool:
		vals := spreadTo(int(bitutil.BytesForBits(int64(slots))))
		defer vals.Release()
		if vals == bufs[1] {
			if _, err := kernels.SpreadBits(vals.Bytes(), 0, slots, valid); err != nil {
				return nil, fmt.Errorf("%w: leaf %q: %w", ErrCorrupt, p.Name, err)
			}
		} else {
			spreadBits(vals.Bytes(), bufs[1].Bytes(), off, valid, slots)
		}
		kernels.ClearBitsFrom(vals.Bytes(), slots)
		return array.NewData(p.Type, slots, []*memory.Buffer{validity, vals}, nil, nulls, 0), nil
	case layoutBinary32, layoutBinary64:
		w := 4
		if p.layout == layoutBinary64 {
			w = 8
		}
		from := bufs[1].Bytes()[off*w : (off+dense.Len()+1)*w]
		offs := spreadTo(w * (slots + 1))
		defer offs.Release()
		var err error
		if w == 4 {
			_, err = kernels.SpreadOffsets(arrowmem.View[int32](offs.Bytes()), arrowmem.View[int32](from), valid, 0)
		} else {
			_, err = kernels.SpreadOffsets(arrowmem.View[int64](offs.Bytes()), arrowmem.View[int64](from), valid, 0)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: leaf %q: %w", ErrCorrupt, p.Name, err)
		}
		return array.NewData(p.Type, slots, []*memory.Buffer{validity, offs, bufs[2]}, nil, nulls, 0), nil
	}
	w := p.width
	from := bufs[1].Bytes()[off*w : (off+dense.Len())*w]
	vals := spreadTo(w * slots)
	defer vals.Release()
	dst := vals.Bytes()
	var err error
	switch w {
	case 1:
		_, err = kernels.Spread(dst, from, valid, 0)
	case 2:
		err = spreadAs[[2]byte](dst, from, valid)
	case 4:
		err = spreadAs[uint32](dst, from, valid)
	case 8:
		err = spreadAs[uint64](dst, from, valid)
	case 16: // also the views of layoutBinaryView
		err = spreadAs[[16]byte](dst, from, valid)
	case 32:
		err = spreadAs[[32]byte](dst, from, valid)
	default:
		spreadWide(dst, from, w, valid, slots)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: leaf %q: %w", ErrCorrupt, p.Name, err)
	}
	// Views keep pointing into the data buffers of the dense values; a
	// null slot's view is zero, an empty inline value.
	return array.NewData(p.Type, slots, append([]*memory.Buffer{validity, vals}, bufs[2:]...), nil, nulls, 0), nil
}

// spreadAs runs kernels.Spread over dst and src viewed as values of type T.
func spreadAs[T any](dst, src []byte, valid []byte) error {
	_, err := kernels.Spread(arrowmem.View[T](dst), arrowmem.View[T](src), valid, 0)
	return err
}

// spreadWide spreads values of w bytes, a width no Go type has. It walks
// from the end, so src may be dst's own prefix.
func spreadWide(dst, src []byte, w int, valid []byte, slots int) {
	j := len(src) / w
	for i := slots - 1; i >= 0; i-- {
		d := dst[i*w : i*w+w]
		if bitutil.BitIsSet(valid, i) {
			j--
			copy(d, src[j*w:j*w+w])
		} else {
			clear(d)
		}
	}
}

// spreadBits spreads the booleans of src, from bit off, over the valid
// slots of dst; null slots are false.
func spreadBits(dst, src []byte, off int, valid []byte, slots int) {
	j := off
	for i := range slots {
		v := bitutil.BitIsSet(valid, i) && bitutil.BitIsSet(src, j)
		bitutil.SetBitTo(dst, i, v)
		j += int(b2u(bitutil.BitIsSet(valid, i)))
	}
}
