package levels

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Shredder turns nested Arrow arrays into the definition levels,
// repetition levels and dense values of their leaf columns: the input a
// Parquet column writer encodes. It keeps the levels it returns and its
// scratch space between calls, so one Shredder serves one goroutine at a
// time.
type Shredder struct {
	root   *plan
	leaves []*plan
	state  []shredLeaf
}

// shredLeaf is the shredding state of one leaf column.
type shredLeaf struct {
	path  []*plan           // root to leaf
	data  []arrow.ArrayData // the array of each node of path
	def   []int16
	rep   []int16
	runs  []int // pairs of [lo, hi): slots of the leaf array whose values are stored, in order
	count int   // values in runs
}

// NewShredder checks the plan tree below root (see [NewAssembler]) and
// returns its shredder.
func NewShredder(root *Node) (*Shredder, error) {
	p, leaves, err := compile(root)
	if err != nil {
		return nil, err
	}
	s := &Shredder{root: p, leaves: leaves, state: make([]shredLeaf, len(leaves))}
	for i, l := range leaves {
		var path []*plan
		for n := l; n != nil; n = n.parent {
			path = append(path, n)
		}
		for a, b := 0, len(path)-1; a < b; a, b = a+1, b-1 {
			path[a], path[b] = path[b], path[a]
		}
		s.state[i].path = path
		s.state[i].data = make([]arrow.ArrayData, len(path))
	}
	return s, nil
}

// Shred returns the columns of arr, an array of the plan's root type, one
// per leaf in Column order: the definition and repetition levels of every
// entry (Rep is nil for leaves without repetition) and the values of the
// entries at the leaf's maximum definition level, dense (no nulls). The
// level slices belong to the Shredder and stay valid until the next call;
// the caller releases each Values array, which may share buffers with arr.
//
// Nulls under a null struct or list, and child slots a null or empty list
// does not reach, are never read. A null in a field whose Parquet node is
// required (DefLevel not above its parent's), or list offsets outside the
// child array, is an error wrapping [ErrCorrupt].
func (s *Shredder) Shred(mem memory.Allocator, arr arrow.Array) ([]Column, error) {
	if !arrow.TypeEqual(arr.DataType(), s.root.Type) {
		return nil, fmt.Errorf("%w: array of type %s for a plan of %s", ErrPlan, arr.DataType(), s.root.Type)
	}
	out := make([]Column, len(s.state))
	for i := range s.state {
		st := &s.state[i]
		st.def, st.rep, st.runs, st.count = st.def[:0], st.rep[:0], st.runs[:0], 0
		st.data[0] = arr.Data()
		if err := st.visit(0, 0, arr.Len(), 0); err != nil {
			releaseColumns(out[:i])
			return nil, err
		}
		vals, err := st.dense(mem)
		if err != nil {
			releaseColumns(out[:i])
			return nil, err
		}
		out[i] = Column{Def: st.def, Values: vals}
		if s.leaves[i].RepLevel > 0 {
			out[i].Rep = st.rep
		}
	}
	return out, nil
}

func releaseColumns(cs []Column) {
	for _, c := range cs {
		c.Values.Release()
	}
}

// nullDef returns the definition level of an entry where p's slot is
// null: one below p's own, when p's Parquet node is optional.
func (p *plan) nullDef(slot int) (int16, error) {
	base := int16(0)
	if q := p.parent; q != nil {
		base = q.DefLevel
		if q.Kind == List || q.Kind == Map {
			base = q.ElemDefLevel
		}
	}
	if p.DefLevel <= base {
		return 0, fmt.Errorf("%w: field %q is not nullable but slot %d is null", ErrCorrupt, p.Name, slot)
	}
	return p.DefLevel - 1, nil
}

// emit adds one entry.
func (st *shredLeaf) emit(d, r int16) {
	st.def = append(st.def, d)
	st.rep = append(st.rep, r)
}

// visit adds the entries of slots [lo, hi) of the array of path node k;
// the first slot's first entry has repetition level first, every other
// slot's the node's own.
func (st *shredLeaf) visit(k, lo, hi int, first int16) error {
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
func (st *shredLeaf) leaf(p *plan, d arrow.ArrayData, lo, hi int, first int16) error {
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

// addRun records present leaf slots [lo, hi), merging with the previous
// run when they touch.
func (st *shredLeaf) addRun(lo, hi int) {
	if k := len(st.runs); k > 0 && st.runs[k-1] == lo {
		st.runs[k-1] = hi
	} else {
		st.runs = append(st.runs, lo, hi)
	}
	st.count += hi - lo
}

// validityOf returns d's validity bitmap, nil when every slot is valid.
func validityOf(d arrow.ArrayData) []byte {
	if d.DataType().ID() == arrow.NULL {
		return nil
	}
	if b := d.Buffers()[0]; b != nil && d.NullN() != 0 { // -1: not counted yet
		return b.Bytes()
	}
	return nil
}

func bitSet(b []byte, i int) bool { return b[i>>3]>>(i&7)&1 != 0 }
