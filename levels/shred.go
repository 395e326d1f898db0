package levels

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverio/quiver/internal/arrowmem"
)

// Shredder turns nested Arrow arrays into the definition levels,
// repetition levels and dense values of their leaf columns: the input a
// Parquet column writer encodes. It keeps the levels it returns and its
// scratch space between calls, so one Shredder serves one goroutine at a
// time.
//
// It works node by node from the root down, not slot by slot: each inner
// node turns the segments of entries it is given (see [segment]) into the
// segments of its children's slots, once for all the leaves below it, and
// each leaf fills its levels from its parent's segments a run at a time.
type Shredder struct {
	root   *plan
	leaves []*plan
	nodes  []shredNode // the plan's nodes, parents before children
	state  []shredLeaf // by leaf column
	top    [1]segment  // the root's input: every slot of the array
}

// shredNode is one plan node's shredding state.
type shredNode struct {
	p      *plan
	parent int // index in Shredder.nodes, -1 for the root
	field  int // the node's index among its parent's children
	data   arrow.ArrayData
	// out holds the segments of the children's slots (inner nodes): buf,
	// or the input itself when the node changes nothing.
	out     []segment
	buf     []segment
	entries int // the entries out holds
	// leaf is the first leaf child filled in this call, whose levels
	// later leaf children may copy; nil before one is.
	leaf *shredLeaf
}

// segment is a stretch of n = hi-lo consecutive entries of a leaf's
// levels, as a node sees them. With d >= 0 every entry is decided above
// the node (a null or empty list, a null struct): definition level d.
// With d < 0 they are the node's slots [lo, hi), counted from the start
// of its array's buffers. The first entry has repetition level r, the
// others rr.
type segment struct {
	lo, hi   int
	d, r, rr int16
}

// shredLeaf is the shredding state of one leaf column.
type shredLeaf struct {
	p   *plan
	d   arrow.ArrayData
	def []int16
	rep []int16
	presentRuns
	// plain says that every slot reached is present (no validity), so
	// the definition levels and runs follow from the segments alone;
	// hiMax is the end of the highest slot range.
	plain bool
	hiMax int
}

// NewShredder checks the plan tree below root (see [NewAssembler]) and
// returns its shredder.
func NewShredder(root *Node) (*Shredder, error) {
	p, leaves, err := compile(root)
	if err != nil {
		return nil, err
	}
	s := &Shredder{root: p, leaves: leaves, state: make([]shredLeaf, len(leaves))}
	s.addNode(p, -1, 0)
	return s, nil
}

// addNode appends p and the nodes below it, parents first.
func (s *Shredder) addNode(p *plan, parent, field int) {
	at := len(s.nodes)
	s.nodes = append(s.nodes, shredNode{p: p, parent: parent, field: field})
	for i, c := range p.children {
		s.addNode(c, at, i)
	}
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
	s.top[0] = segment{lo: 0, hi: arr.Len(), d: -1}
	for i := range s.nodes {
		s.nodes[i].leaf = nil
	}
	for i := range s.nodes {
		n := &s.nodes[i]
		in, entries := s.top[:], arr.Len()
		var up *shredNode
		if n.parent < 0 {
			n.data = arr.Data()
		} else {
			up = &s.nodes[n.parent]
			in, entries = up.out, up.entries
			n.data = up.data.Children()[n.field]
		}
		var err error
		if n.p.Kind == Leaf {
			st := &s.state[n.p.Column]
			var tw *shredLeaf
			if up != nil {
				tw = up.leaf
			}
			err = st.fill(n.p, n.data, in, entries, tw)
			if up != nil && up.leaf == nil {
				up.leaf = st
			}
		} else {
			err = n.split(in, entries)
		}
		if err != nil {
			return nil, err
		}
	}
	out := make([]Column, len(s.state))
	for i := range s.state {
		st := &s.state[i]
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

// checkRange checks that slots [lo, hi) of p lie in its array of
// slots slots.
func checkRange(p *plan, slots, lo, hi int) error {
	if lo < 0 || hi > slots || lo > hi {
		return fmt.Errorf("%w: slots [%d, %d) of field %q, whose array has %d", ErrCorrupt, lo, hi, p.Name, slots)
	}
	return nil
}

// split turns the segments in, of entries entries of n's slots, into the
// segments of its children's slots in n.out.
func (n *shredNode) split(in []segment, entries int) error {
	p, d := n.p, n.data
	valid := validityOf(d)
	base, slots := d.Offset(), d.Len()
	if p.layout == layoutStruct && valid == nil && base == 0 {
		for _, g := range in {
			if g.d < 0 {
				if err := checkRange(p, slots, g.lo, g.hi); err != nil {
					return err
				}
			}
		}
		n.out, n.entries = in, entries // the children's slots are the struct's
		return nil
	}
	// Every segment out holds has an entry, or is an empty one of in.
	out := slices.Grow(n.buf[:0], entries+len(in))
	var err error
	if p.layout == layoutStruct {
		out, err = splitStruct(out, p, slots, valid, base, in)
	} else {
		out, entries, err = splitList(out, p, d, valid, base, in)
	}
	n.buf, n.out, n.entries = out, out, entries
	return err
}

// splitStruct appends the segments of a struct's children for in: slot i
// is the children's slot base+i, and a null slot an entry of its own.
func splitStruct(out []segment, p *plan, slots int, valid []byte, base int, in []segment) ([]segment, error) {
	for _, g := range in {
		if g.d >= 0 {
			out = append(out, g)
			continue
		}
		if err := checkRange(p, slots, g.lo, g.hi); err != nil {
			return out, err
		}
		if valid == nil {
			out = append(out, segment{lo: base + g.lo, hi: base + g.hi, d: -1, r: g.r, rr: g.rr})
			continue
		}
		r := g.r
		for i := g.lo; i < g.hi; {
			j := i
			for j < g.hi && !bitSet(valid, base+j) {
				j++
			}
			if j > i {
				nd, err := p.nullDef(i)
				if err != nil {
					return out, err
				}
				out = append(out, segment{lo: i, hi: j, d: nd, r: r, rr: g.rr})
				r, i = g.rr, j
			}
			for j < g.hi && bitSet(valid, base+j) {
				j++
			}
			if j > i {
				out = append(out, segment{lo: base + i, hi: base + j, d: -1, r: r, rr: g.rr})
				r, i = g.rr, j
			}
		}
	}
	return out, nil
}

// splitList appends the segments of a list's (or map's) child for in:
// one per list slot, its elements, or an entry of its own when the list
// is null or empty. Consecutive such entries of one level share a
// segment (whose lo and hi then only count them).
func splitList(out []segment, p *plan, d arrow.ArrayData, valid []byte, base int, in []segment) ([]segment, int, error) {
	rng, err := newListRanges(p, d)
	if err != nil {
		return out, 0, err
	}
	entries := 0
	slots, childLen := d.Len(), d.Children()[0].Len()
	elemRep := p.children[0].RepLevel
	for _, g := range in {
		if g.d >= 0 {
			out = append(out, g)
			entries += g.hi - g.lo
			continue
		}
		if err := checkRange(p, slots, g.lo, g.hi); err != nil {
			return out, 0, err
		}
		r := g.r
		for i := g.lo; i < g.hi; i++ {
			var e segment
			if valid != nil && !bitSet(valid, base+i) {
				nd, err := p.nullDef(i)
				if err != nil {
					return out, 0, err
				}
				e = segment{lo: i, hi: i + 1, d: nd, r: r, rr: g.rr}
			} else if a, b := rng.at(base + i); a == b {
				e = segment{lo: i, hi: i + 1, d: p.DefLevel, r: r, rr: g.rr}
			} else {
				if err := checkRange(p.children[0], childLen, a, b); err != nil {
					return out, 0, err
				}
				e = segment{lo: a, hi: b, d: -1, r: r, rr: elemRep}
			}
			r = g.rr
			entries += e.hi - e.lo
			if k := len(out) - 1; e.d >= 0 && k >= 0 && out[k].d == e.d && out[k].rr == e.r && out[k].rr == e.rr {
				out[k].hi += e.hi - e.lo
				continue
			}
			out = append(out, e)
		}
	}
	return out, entries, nil
}

// fill sets the leaf's levels and present runs from in, the segments of
// its total entries, d being p's array. Leaf tw, when not nil, has been
// filled from the same segments: its repetition levels are the same, and
// when both leaves are plain with one definition level, so is everything.
func (st *shredLeaf) fill(p *plan, d arrow.ArrayData, in []segment, total int, tw *shredLeaf) error {
	st.p, st.d, st.runs, st.count = p, d, st.runs[:0], 0
	if tw != nil && tw.plain && tw.p.DefLevel == p.DefLevel && validityOf(d) == nil && p.layout != layoutNull {
		if tw.hiMax > d.Len() {
			return fmt.Errorf("%w: slots up to %d of field %q, whose array has %d", ErrCorrupt, tw.hiMax, p.Name, d.Len())
		}
		st.plain, st.hiMax, st.count = true, tw.hiMax, tw.count
		st.def = append(st.def[:0], tw.def...)
		st.rep = append(st.rep[:0], tw.rep...)
		st.runs = append(st.runs, tw.runs...)
		return nil
	}
	st.def = grow16(st.def, total)
	def := arrowmem.Bytes(st.def[:cap(st.def)])
	var rep []byte
	if p.RepLevel > 0 {
		st.rep = grow16(st.rep, total)
		if tw != nil {
			copy(st.rep, tw.rep)
		} else {
			rep = arrowmem.Bytes(st.rep[:cap(st.rep)])
		}
	}
	valid := validityOf(d)
	base, slots := d.Offset(), d.Len()
	st.plain, st.hiMax = valid == nil && p.layout != layoutNull, 0
	k := 0
	for _, g := range in {
		m := g.hi - g.lo
		if g.d < 0 {
			if err := checkRange(p, slots, g.lo, g.hi); err != nil {
				return err
			}
			st.hiMax = max(st.hiMax, g.hi)
		}
		if m == 0 {
			continue
		}
		if rep != nil {
			fillLevels(rep, k, k+m, g.rr)
			st.rep[k] = g.r
		}
		switch {
		case g.d >= 0:
			fillLevels(def, k, k+m, g.d)
		case p.layout == layoutNull:
			nd, err := p.nullDef(g.lo)
			if err != nil {
				return err
			}
			fillLevels(def, k, k+m, nd)
		case valid == nil:
			fillLevels(def, k, k+m, p.DefLevel)
			st.addRun(g.lo, g.hi)
		default:
			if err := st.fillValid(p, def, k, valid, base, g.lo, g.hi); err != nil {
				return err
			}
		}
		k += m
	}
	return nil
}

// fillValid sets the definition levels of leaf slots [lo, hi), from
// level k of def (the bytes of the levels), from the validity bitmap and
// records the runs of present slots.
func (st *shredLeaf) fillValid(p *plan, def []byte, k int, valid []byte, base, lo, hi int) error {
	at := k - lo // the level of slot i is at+i
	for i := lo; i < hi; {
		j := i
		for j < hi && !bitSet(valid, base+j) {
			j++
		}
		if j > i {
			nd, err := p.nullDef(i)
			if err != nil {
				return err
			}
			fillLevels(def, at+i, at+j, nd)
			i = j
		}
		for j < hi && bitSet(valid, base+j) {
			j++
		}
		if j > i {
			fillLevels(def, at+i, at+j, p.DefLevel)
			st.addRun(i, j)
			i = j
		}
	}
	return nil
}

// levelSlack is the levels past the end grow16 leaves room for, which
// fillLevels may overwrite.
const levelSlack = 8

// grow16 returns l resized to n levels, reusing its space, with room for
// levelSlack more.
func grow16(l []int16, n int) []int16 {
	if cap(l) < n+levelSlack {
		return make([]int16, n, n+n/4+levelSlack)
	}
	return l[:n]
}

// fillLevels sets levels [from, to) of b, the bytes of levels, to v,
// eight at a time: it may set up to seven levels past to, which must lie
// in b.
func fillLevels(b []byte, from, to int, v int16) {
	w := uint64(uint16(v)) * laneLow
	for at := 2 * from; at < 2*to; at += 16 {
		q := b[at : at+16]
		binary.NativeEndian.PutUint64(q, w)
		binary.NativeEndian.PutUint64(q[8:], w)
	}
}

// presentRuns are the slots of a leaf array whose values are stored.
type presentRuns struct {
	runs  []int // pairs of [lo, hi), in order
	count int   // values in runs
}

// addRun records present leaf slots [lo, hi), merging with the previous
// run when they touch.
func (pr *presentRuns) addRun(lo, hi int) {
	if k := len(pr.runs); k > 0 && pr.runs[k-1] == lo {
		pr.runs[k-1] = hi
	} else {
		pr.runs = append(pr.runs, lo, hi)
	}
	pr.count += hi - lo
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
