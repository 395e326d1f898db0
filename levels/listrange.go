package levels

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/quiverio/quiver/internal/arrowmem"
)

// listRanges reads the child slots of a list-like array's slots: its
// offsets (and sizes, for views) checked to cover every slot once, so
// that at never reads past them.
type listRanges struct {
	layout layout
	o32    []int32
	s32    []int32
	o64    []int64
	s64    []int64
	size   int
}

// newListRanges returns the ranges of d, the array of list node p.
func newListRanges(p *plan, d arrow.ArrayData) (listRanges, error) {
	r := listRanges{layout: p.layout, size: p.size}
	if d.Len() == 0 || p.layout == layoutFixedList {
		return r, nil
	}
	width := 4
	if p.layout == layoutList64 || p.layout == layoutView64 {
		width = 8
	}
	view := p.layout == layoutView32 || p.layout == layoutView64
	end := d.Offset() + d.Len() // slots read: [Offset, end)
	need := end + 1             // offsets, one past the last slot's
	if view {
		need = end
	}
	b := d.Buffers()
	buf := func(i, need int) ([]byte, error) {
		if len(b) <= i || b[i] == nil || b[i].Len() < width*need {
			return nil, fmt.Errorf("%w: field %q: %d slots need %d bytes of buffer %d", ErrCorrupt, p.Name, end, width*need, i)
		}
		return b[i].Bytes(), nil
	}
	o, err := buf(1, need)
	if err != nil {
		return r, err
	}
	var sz []byte
	if view {
		if sz, err = buf(2, end); err != nil {
			return r, err
		}
	}
	if width == 4 {
		r.o32, r.s32 = arrowmem.View[int32](o), arrowmem.View[int32](sz)
	} else {
		r.o64, r.s64 = arrowmem.View[int64](o), arrowmem.View[int64](sz)
	}
	return r, nil
}

// at returns the child slots [a, b) of list slot i (counted from the
// start of the array's buffers).
func (r *listRanges) at(i int) (int, int) {
	switch r.layout {
	case layoutList32, layoutMap:
		return int(r.o32[i]), int(r.o32[i+1])
	case layoutList64:
		return int(r.o64[i]), int(r.o64[i+1])
	case layoutView32:
		return int(r.o32[i]), int(r.o32[i]) + int(r.s32[i])
	case layoutView64:
		return int(r.o64[i]), int(r.o64[i]) + int(r.s64[i])
	}
	return i * r.size, (i + 1) * r.size // fixed-size list
}
