package levels

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// refLeaf is the first shredder's state for one leaf, kept as the
// reference the run-based Shredder is checked against: it visits the
// path from the root down, one recursive call per present list slot.
type refLeaf struct {
	path []*plan
	data []arrow.ArrayData
	def  []int16
	rep  []int16
	presentRuns
}

// refShred returns the definition levels, repetition levels and present
// leaf runs of every leaf of s's plan for arr, the reference way.
func refShred(s *Shredder, arr arrow.Array) ([]refLeaf, error) {
	out := make([]refLeaf, len(s.leaves))
	for i, l := range s.leaves {
		st := &out[i]
		for n := l; n != nil; n = n.parent {
			st.path = append([]*plan{n}, st.path...)
		}
		st.data = make([]arrow.ArrayData, len(st.path))
		st.data[0] = arr.Data()
		if err := st.visit(0, 0, arr.Len(), 0); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// emit adds one entry.
func (st *refLeaf) emit(d, r int16) {
	st.def = append(st.def, d)
	st.rep = append(st.rep, r)
}

// visit adds the entries of slots [lo, hi) of the array of path node k;
// the first slot's first entry has repetition level first, every other
// slot's the node's own.
func (st *refLeaf) visit(k, lo, hi int, first int16) error {
	p, d := st.path[k], st.data[k]
	if lo < 0 || hi > d.Len() || lo > hi {
		return fmt.Errorf("%w: slots [%d, %d) of field %q, whose array has %d", ErrCorrupt, lo, hi, p.Name, d.Len())
	}
	if p.Kind == Leaf {
		return st.leaf(p, d, lo, hi, first)
	}
	valid := validityOf(d)
	base := d.Offset()
	child := d.Children()[0]
	if p.Kind == Struct {
		for i, c := range st.path[k].children {
			if c == st.path[k+1] {
				child = d.Children()[i]
			}
		}
	}
	st.data[k+1] = child
	r := first
	for i := lo; i < hi; {
		if valid != nil && !bitSet(valid, base+i) {
			nd, err := p.nullDef(i)
			if err != nil {
				return err
			}
			st.emit(nd, r)
			r, i = p.RepLevel, i+1
			continue
		}
		switch p.layout {
		case layoutStruct:
			// A run of present structs is a run of the child's slots.
			j := i + 1
			for j < hi && (valid == nil || bitSet(valid, base+j)) {
				j++
			}
			if err := st.visit(k+1, base+i, base+j, r); err != nil {
				return err
			}
			r, i = p.RepLevel, j
			continue
		}
		a, b := listRange(p, d, base+i)
		if a == b {
			st.emit(p.DefLevel, r)
		} else if err := st.visit(k+1, a, b, r); err != nil {
			return err
		}
		r, i = p.RepLevel, i+1
	}
	return nil
}

// listRange returns the child slots of list slot i (counted from the
// start of d's buffers).
func listRange(p *plan, d arrow.ArrayData, i int) (int, int) {
	b := d.Buffers()
	switch p.layout {
	case layoutList32, layoutMap:
		o := arrow.Int32Traits.CastFromBytes(b[1].Bytes())
		return int(o[i]), int(o[i+1])
	case layoutList64:
		o := arrow.Int64Traits.CastFromBytes(b[1].Bytes())
		return int(o[i]), int(o[i+1])
	case layoutView32:
		o, s := arrow.Int32Traits.CastFromBytes(b[1].Bytes()), arrow.Int32Traits.CastFromBytes(b[2].Bytes())
		return int(o[i]), int(o[i]) + int(s[i])
	case layoutView64:
		o, s := arrow.Int64Traits.CastFromBytes(b[1].Bytes()), arrow.Int64Traits.CastFromBytes(b[2].Bytes())
		return int(o[i]), int(o[i] + s[i])
	}
	return i * p.size, (i + 1) * p.size // fixed-size list
}

// leaf adds the entries of leaf slots [lo, hi) and records the runs of
// present values.
func (st *refLeaf) leaf(p *plan, d arrow.ArrayData, lo, hi int, first int16) error {
	if lo == hi {
		return nil
	}
	valid := validityOf(d)
	base := d.Offset()
	n := len(st.def)
	st.def = append(st.def, make([]int16, hi-lo)...)
	st.rep = append(st.rep, make([]int16, hi-lo)...)
	rep := st.rep[n:]
	rep[0] = first
	for i := 1; i < len(rep); i++ {
		rep[i] = p.RepLevel
	}
	def := st.def[n:]
	if p.layout == layoutNull {
		nd, err := p.nullDef(lo)
		if err != nil {
			return err
		}
		for i := range def {
			def[i] = nd
		}
		return nil
	}
	if valid == nil {
		for i := range def {
			def[i] = p.DefLevel
		}
		st.addRun(lo, hi)
		return nil
	}
	nd := int16(-1)
	for i := lo; i < hi; {
		if !bitSet(valid, base+i) {
			if nd < 0 {
				var err error
				if nd, err = p.nullDef(i); err != nil {
					return err
				}
			}
			def[i-lo] = nd
			i++
			continue
		}
		j := i + 1
		for j < hi && bitSet(valid, base+j) {
			j++
		}
		for x := i; x < j; x++ {
			def[x-lo] = p.DefLevel
		}
		st.addRun(i, j)
		i = j
	}
	return nil
}
