package levels

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/kernels"
)

// Column holds one leaf column's part of a batch of whole rows: its
// decoded levels and its dense values.
type Column struct {
	// Def holds the definition level of every entry. When the leaf's
	// maximum definition level is 0 it may be nil: then the column has one
	// entry per row.
	Def []int16
	// Rep holds the repetition level of every entry, 0 where a row
	// starts. It is ignored when the leaf's maximum repetition level is 0.
	Rep []int16
	// Values holds the leaf's values for the entries whose definition
	// level is the leaf's DefLevel, in order and without nulls, as an
	// array of the leaf's type.
	Values arrow.Array
	// Owned says the caller gives Values up: nothing else refers to its
	// buffers, and after Assemble the caller only releases it. Assemble
	// may then spread the values over the leaf's slots, nulls included,
	// inside Values's own buffers when their capacity holds every slot,
	// instead of copying them into new ones.
	Owned bool
}

// Assembler builds the Arrow arrays of one nested field from the levels
// and values of its leaf columns. It keeps scratch space between calls,
// so one Assembler serves one goroutine at a time.
type Assembler struct {
	root   *plan
	leaves []*plan
	fixed  []int64 // element offsets of a fixed-size list, for its checks
	masks  *walkMasks
}

// NewAssembler checks the plan tree below root and returns its assembler.
// A tree whose levels do not nest as [Node] describes, or whose kinds do
// not match their types, is an error wrapping [ErrPlan]; an Arrow type
// the package does not build, [ErrUnsupported].
func NewAssembler(root *Node) (*Assembler, error) {
	p, leaves, err := compile(root)
	if err != nil {
		return nil, err
	}
	return &Assembler{root: p, leaves: leaves, masks: new(walkMasks)}, nil
}

// Columns returns the number of leaf columns the plan reads.
func (a *Assembler) Columns() int { return len(a.leaves) }

// Assemble builds the field's array of rows rows from cols, one Column per
// leaf in Column order; the caller releases it. Values arrays are retained
// where the result uses them as they are (leaves without nulls) and can
// be released by the caller afterwards; levels are not retained.
//
// Every count is checked against the levels: an array is never built from
// levels and values that disagree, which is an error wrapping
// [ErrCorrupt].
func (a *Assembler) Assemble(mem memory.Allocator, rows int, cols []Column) (arrow.Array, error) {
	if len(cols) != len(a.leaves) {
		return nil, fmt.Errorf("%w: %d columns for a plan of %d leaves", ErrPlan, len(cols), len(a.leaves))
	}
	if rows < 0 {
		return nil, fmt.Errorf("%w: %d rows", ErrPlan, rows)
	}
	cs := make([]Column, len(cols))
	for i, c := range cols {
		l := a.leaves[i]
		if c.Values == nil || !arrow.TypeEqual(c.Values.DataType(), l.Type) {
			return nil, fmt.Errorf("%w: values of leaf %q are not %s", ErrPlan, l.Name, l.Type)
		}
		if c.Values.NullN() != 0 {
			return nil, fmt.Errorf("%w: dense values of leaf %q hold %d nulls", ErrPlan, l.Name, c.Values.NullN())
		}
		if c.Def == nil && l.DefLevel > 0 {
			c.Def = []int16{}
		}
		switch {
		case l.RepLevel == 0:
			c.Rep = nil
		case c.Rep == nil:
			c.Rep = []int16{}
		}
		if c.Rep != nil && len(c.Rep) != len(c.Def) {
			return nil, fmt.Errorf("%w: leaf %q has %d repetition and %d definition levels", ErrCorrupt, l.Name, len(c.Rep), len(c.Def))
		}
		if c.Rep != nil {
			if starts := CountRows(c.Rep); starts != rows {
				return nil, fmt.Errorf("%w: leaf %q: %d rows asked, the %d repetition levels start %d",
					ErrCorrupt, l.Name, rows, len(c.Rep), starts)
			}
			if len(c.Rep) > 0 && c.Rep[0] != 0 {
				return nil, fmt.Errorf("%w: leaf %q: the first repetition level is %d, not a row start", ErrCorrupt, l.Name, c.Rep[0])
			}
		}
		cs[i] = c
	}
	d, err := a.build(mem, a.root, rows, cs)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return array.MakeFromData(d), nil
}

// buffers collects the buffers of a node under construction, to release
// them when it fails.
type buffers []*memory.Buffer

func (b *buffers) add(buf *memory.Buffer) *memory.Buffer {
	*b = append(*b, buf)
	return buf
}

func (b buffers) release() {
	for _, buf := range b {
		if buf != nil {
			buf.Release()
		}
	}
}

// build assembles p's array of slots slots.
func (a *Assembler) build(mem memory.Allocator, p *plan, slots int, cols []Column) (arrow.ArrayData, error) {
	c := &cols[p.rep]
	if c.Def == nil {
		// No definition levels: the column has one entry per row and
		// every node above it is required and outside lists.
		return a.finish(mem, p, slots, cols, nil, 0, nil, 0)
	}
	var (
		bufs     buffers
		validity *memory.Buffer
		valid    []byte
	)
	if p.DefLevel > p.SlotDefLevel || p.padCount != nil {
		validity = bufs.add(memory.NewResizableBuffer(mem))
		validity.Resize(max((slots+63)/64*8, 8)) // never empty: walk tells nullable nodes by a non-nil bitmap
		valid = validity.Bytes()
	}
	var (
		nulls, elems int
		err          error
		offsets      *memory.Buffer
	)
	switch p.layout {
	case layoutList32, layoutView32, layoutMap:
		offsets = bufs.add(memory.NewResizableBuffer(mem))
		offsets.Resize(4 * (slots + 1))
		nulls, elems, err = walk(p, c.Def, c.Rep, slots, valid, arrow.Int32Traits.CastFromBytes(offsets.Bytes()), a.masks)
	case layoutList64, layoutView64:
		offsets = bufs.add(memory.NewResizableBuffer(mem))
		offsets.Resize(8 * (slots + 1))
		nulls, elems, err = walk(p, c.Def, c.Rep, slots, valid, arrow.Int64Traits.CastFromBytes(offsets.Bytes()), a.masks)
	case layoutFixedList:
		if cap(a.fixed) < slots+1 {
			a.fixed = make([]int64, slots+1)
		}
		nulls, elems, err = walk(p, c.Def, c.Rep, slots, valid, a.fixed[:slots+1], a.masks)
	case layoutStruct, layoutNull, layoutBool, layoutBinary32, layoutBinary64, layoutBinaryView, layoutFixed:
		if valid == nil && p.parent != nil && p.parent.rep == p.rep {
			// A required node read from its parent's column: compile
			// gave it the parent's element (or slot) levels, so the
			// parent's pass over the same levels counted its slots.
			break
		}
		nulls, _, err = walk[int32](p, c.Def, c.Rep, slots, valid, nil, a.masks)
	}
	if err != nil {
		bufs.release()
		return nil, err
	}
	if validity != nil {
		validity.Resize(int((slots + 7) / 8))
		kernels.ClearBitsFrom(validity.Bytes(), slots)
		if nulls == 0 {
			validity.Release()
			validity, bufs[0] = nil, nil
		}
	}
	d, err := a.finish(mem, p, slots, cols, validity, nulls, offsets, elems)
	bufs.release() // the array data holds its own references
	return d, err
}

// finish builds p's array data from the validity and offsets its pass
// found and the arrays of its children.
func (a *Assembler) finish(mem memory.Allocator, p *plan, slots int, cols []Column, validity *memory.Buffer, nulls int,
	offsets *memory.Buffer, elems int) (arrow.ArrayData, error) {
	switch p.layout {
	case layoutStruct:
		kids, err := a.children(mem, p, slots, cols)
		if err != nil {
			return nil, err
		}
		defer releaseAll(kids)
		return array.NewData(p.Type, slots, []*memory.Buffer{validity}, kids, nulls, 0), nil
	case layoutList32, layoutList64, layoutMap:
		kids, err := a.children(mem, p, elems, cols)
		if err != nil {
			return nil, err
		}
		defer releaseAll(kids)
		return array.NewData(p.Type, slots, []*memory.Buffer{validity, offsets}, kids, nulls, 0), nil
	case layoutView32, layoutView64:
		sizes := viewSizes(mem, p.layout, offsets, slots)
		defer sizes.Release()
		kids, err := a.children(mem, p, elems, cols)
		if err != nil {
			return nil, err
		}
		defer releaseAll(kids)
		return array.NewData(p.Type, slots, []*memory.Buffer{validity, offsets, sizes}, kids, nulls, 0), nil
	case layoutFixedList:
		if err := a.checkFixed(p, slots, validity); err != nil {
			return nil, err
		}
		kids, err := a.children(mem, p, slots*p.size, cols)
		if err != nil {
			return nil, err
		}
		defer releaseAll(kids)
		return array.NewData(p.Type, slots, []*memory.Buffer{validity}, kids, nulls, 0), nil
	}
	c := &cols[p.Column]
	return leafData(mem, p, c.Values, c.Owned, slots, validity, nulls)
}

// children builds p's children of slots slots each.
func (a *Assembler) children(mem memory.Allocator, p *plan, slots int, cols []Column) ([]arrow.ArrayData, error) {
	kids := make([]arrow.ArrayData, 0, len(p.children))
	for _, c := range p.children {
		d, err := a.build(mem, c, slots, cols)
		if err != nil {
			releaseAll(kids)
			return nil, err
		}
		kids = append(kids, d)
	}
	return kids, nil
}

func releaseAll(ds []arrow.ArrayData) {
	for _, d := range ds {
		d.Release()
	}
}

// checkFixed checks that every present slot of fixed-size list p holds
// exactly p.size elements and every null one none, from the offsets its
// pass left in a.fixed, and that its child's slots fit an int.
func (a *Assembler) checkFixed(p *plan, slots int, validity *memory.Buffer) error {
	if p.size > 0 && slots > (1<<40)/p.size {
		return fmt.Errorf("%w: fixed_size_list %q of %d slots of %d elements", ErrUnsupported, p.Name, slots, p.size)
	}
	var valid []byte
	if validity != nil {
		valid = validity.Bytes()
	}
	off := a.fixed[:slots+1]
	for i := range slots {
		n, want := off[i+1]-off[i], int64(p.size)
		if valid != nil && valid[i>>3]>>(i&7)&1 == 0 {
			want = 0
		}
		if n != want {
			return fmt.Errorf("%w: fixed_size_list %q of size %d has %d elements in slot %d", ErrCorrupt, p.Name, p.size, n, i)
		}
	}
	return nil
}

// viewSizes turns the slots+1 offsets of a list view into its slots
// offsets and returns the buffer of its slots sizes.
func viewSizes(mem memory.Allocator, l layout, offsets *memory.Buffer, slots int) *memory.Buffer {
	sizes := memory.NewResizableBuffer(mem)
	if l == layoutView32 {
		sizes.Resize(4 * slots)
		o, s := arrow.Int32Traits.CastFromBytes(offsets.Bytes()), arrow.Int32Traits.CastFromBytes(sizes.Bytes())
		for i := range s {
			s[i] = o[i+1] - o[i]
		}
		offsets.Resize(4 * slots)
		return sizes
	}
	sizes.Resize(8 * slots)
	o, s := arrow.Int64Traits.CastFromBytes(offsets.Bytes()), arrow.Int64Traits.CastFromBytes(sizes.Bytes())
	for i := range s {
		s[i] = o[i+1] - o[i]
	}
	offsets.Resize(8 * slots)
	return sizes
}
