package levels

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/internal/arrowmem"
	"github.com/quiverio/quiver/kernels"
)

// dense returns the values of the leaf slots in st.runs as one array
// without nulls: a slice of the leaf array when they are one run,
// otherwise a copy.
func (st *shredLeaf) dense(mem memory.Allocator) (arrow.Array, error) {
	p, d := st.p, st.d
	if p.layout == layoutNull {
		return array.NewNull(0), nil
	}
	if len(st.runs) == 0 {
		return arrowmem.NullArray(mem, p.Type, 0), nil
	}
	if len(st.runs) == 2 {
		s := array.NewSliceData(d, int64(st.runs[0]), int64(st.runs[1]))
		defer s.Release()
		return array.MakeFromData(s), nil
	}
	base := d.Offset()
	src := d.Buffers()
	n := st.count
	switch p.layout {
	case layoutBool:
		vals := memory.NewResizableBuffer(mem)
		defer vals.Release()
		vals.Resize((n + 7) / 8)
		at := 0
		for i := 0; i < len(st.runs); i += 2 {
			lo, hi := st.runs[i], st.runs[i+1]
			if err := kernels.CopyBits(vals.Bytes(), at, src[1].Bytes(), base+lo, hi-lo); err != nil {
				return nil, fmt.Errorf("%w: leaf %q: %w", ErrCorrupt, p.Name, err)
			}
			at += hi - lo
		}
		kernels.ClearBitsFrom(vals.Bytes(), n)
		return makeArray(p.Type, n, vals), nil
	case layoutBinary32:
		return denseBinary[int32](mem, p, st.runs, n, base, src)
	case layoutBinary64:
		return denseBinary[int64](mem, p, st.runs, n, base, src)
	}
	w := p.width
	vals := memory.NewResizableBuffer(mem)
	defer vals.Release()
	vals.Resize(n * w)
	dst, from := vals.Bytes(), src[1].Bytes()
	at := 0
	for i := 0; i < len(st.runs); i += 2 {
		lo, hi := base+st.runs[i], base+st.runs[i+1]
		at += copy(dst[at:], from[lo*w:hi*w])
	}
	if p.layout == layoutBinaryView {
		// The copied views point into the same data buffers.
		return makeArray(p.Type, n, vals, src[2:]...), nil
	}
	return makeArray(p.Type, n, vals), nil
}

// denseBinary copies the byte-array values of runs into new offsets and
// data.
func denseBinary[O offset](mem memory.Allocator, p *plan, runs []int, n, base int, src []*memory.Buffer) (arrow.Array, error) {
	off := arrowmem.View[O](src[1].Bytes())
	var data []byte
	if src[2] != nil {
		data = src[2].Bytes()
	}
	size := 0
	for i := 0; i < len(runs); i += 2 {
		size += int(off[base+runs[i+1]] - off[base+runs[i]])
	}
	offs := memory.NewResizableBuffer(mem)
	defer offs.Release()
	w := 4
	if _, wide := any(O(0)).(int64); wide {
		w = 8
	}
	offs.Resize(w * (n + 1))
	bytes := memory.NewResizableBuffer(mem)
	defer bytes.Release()
	bytes.Resize(size)
	dst, out := arrowmem.View[O](offs.Bytes()), bytes.Bytes()
	at, pos := 0, 0
	dst[0] = 0
	for i := 0; i < len(runs); i += 2 {
		lo, hi := base+runs[i], base+runs[i+1]
		start, end := off[lo], off[hi]
		if start < 0 || end < start || int(end) > len(data) {
			return nil, fmt.Errorf("%w: leaf %q: value offsets %d..%d outside %d data bytes", ErrCorrupt, p.Name, start, end, len(data))
		}
		copy(out[pos:], data[start:end])
		shift := O(pos) - start
		for j := lo; j < hi; j++ {
			at++
			dst[at] = off[j+1] + shift
		}
		pos += int(end - start)
	}
	return makeArray(p.Type, n, offs, bytes), nil
}

// makeArray builds an array without nulls of n values from its value
// buffer and, for byte arrays, data.
func makeArray(dt arrow.DataType, n int, vals *memory.Buffer, data ...*memory.Buffer) arrow.Array {
	bufs := append([]*memory.Buffer{nil, vals}, data...)
	d := array.NewData(dt, n, bufs, nil, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}
