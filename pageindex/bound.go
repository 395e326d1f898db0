package pageindex

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/quiverio/quiver/footer"
)

// Match says how many rows of a set may satisfy a predicate.
type Match uint8

// Matches, from what statistics can tell.
const (
	MatchNone Match = iota // no row satisfies it
	MatchSome              // some rows may
	MatchAll               // every row does
)

// valueOrder is how a column's physical values compare.
type valueOrder uint8

const (
	orderSigned   valueOrder = iota + 1 // INT32, INT64 (and BOOLEAN as 0/1)
	orderUnsigned                       // INT32, INT64 annotated unsigned
	orderFloat                          // FLOAT, DOUBLE
	orderBytes                          // BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, unsigned lexicographic
)

// value is a physical value: integers in i (unsigned ones as their bits),
// floats in f, byte arrays in b.
type value struct {
	i int64
	f float64
	b []byte
}

// colType is what Bind learned of a filter column.
type colType struct {
	leaf     *footer.Node
	physical footer.Type
	order    valueOrder
}

// compare returns the sign of a - b in the column's order.
func (c *colType) compare(a, b value) int {
	switch c.order {
	case orderSigned:
		return cmp.Compare(a.i, b.i)
	case orderUnsigned:
		return cmp.Compare(uint64(a.i), uint64(b.i))
	case orderFloat:
		return cmp.Compare(a.f, b.f)
	}
	return bytes.Compare(a.b, b.b)
}

// decode reads a PLAIN-encoded statistics bound; ok is false when its
// length does not suit the type.
func (c *colType) decode(src []byte) (v value, ok bool) {
	switch c.physical {
	case footer.TypeBoolean:
		if len(src) != 1 {
			return v, false
		}
		v.i = int64(src[0] & 1)
	case footer.TypeInt32:
		if len(src) != 4 {
			return v, false
		}
		u := binary.LittleEndian.Uint32(src)
		if c.order == orderUnsigned {
			v.i = int64(u)
		} else {
			v.i = int64(int32(u))
		}
	case footer.TypeInt64:
		if len(src) != 8 {
			return v, false
		}
		v.i = int64(binary.LittleEndian.Uint64(src))
	case footer.TypeFloat:
		if len(src) != 4 {
			return v, false
		}
		v.f = float64(math.Float32frombits(binary.LittleEndian.Uint32(src)))
		if math.IsNaN(v.f) {
			return v, false
		}
	case footer.TypeDouble:
		if len(src) != 8 {
			return v, false
		}
		v.f = math.Float64frombits(binary.LittleEndian.Uint64(src))
		if math.IsNaN(v.f) {
			return v, false
		}
	default:
		v.b = src
	}
	return v, true
}

// nodeKind is the kind of a bound predicate node.
type nodeKind uint8

const (
	nodeCompare nodeKind = iota + 1
	nodeIn
	nodeNull
	nodeNotNull
	nodePrefix
	nodeAnd
	nodeOr
	nodeNot
)

// node is one node of a bound predicate.
type node struct {
	kind   nodeKind
	op     Op
	col    int // index into Bound.cols
	vals   []value
	hashes []uint64 // bloom hashes of vals, for = and IN; nil when unknown
	nan    bool     // the literal of a float comparison is NaN
	kids   []*node
}

// Bound is a predicate resolved against a file's schema: its columns are
// leaves, its literals physical values of their types. It is immutable and
// safe for concurrent use.
type Bound struct {
	pred Predicate
	root *node
	cols []colType
}

// Predicate returns the predicate b was bound from.
func (b *Bound) Predicate() Predicate { return b.pred }

// Leaves returns the leaf columns the predicate reads, each once.
func (b *Bound) Leaves() []*footer.Node {
	out := make([]*footer.Node, len(b.cols))
	for i := range b.cols {
		out[i] = b.cols[i].leaf
	}
	return out
}

// Bind resolves p against schema. Its columns must be flat leaves (no
// repeated field on their path) of type BOOLEAN, INT32, INT64 (signed or
// unsigned), FLOAT, DOUBLE, BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY without a
// DECIMAL, FLOAT16 or INTERVAL annotation; literals must suit them (an
// integer for an integer column, within its range; an integer or float for
// a float column; a string for a binary one; a boolean for a boolean one;
// prefix match on binary columns only). A column that is missing or a
// literal that does not fit is an error wrapping ErrPredicate; a column
// type outside the list wraps ErrUnsupported.
func Bind(p Predicate, schema *footer.Schema) (*Bound, error) {
	b := &Bound{pred: p}
	root, err := b.bind(p, schema)
	if err != nil {
		return nil, err
	}
	b.root = root
	return b, nil
}

func (b *Bound) column(path string, schema *footer.Schema) (int, error) {
	for i := range b.cols {
		if b.cols[i].leaf.DottedPath() == path {
			return i, nil
		}
	}
	leaf := schema.LeafByPath(path)
	if leaf == nil {
		return 0, fmt.Errorf("%w: no leaf column %q", ErrPredicate, path)
	}
	if leaf.MaxRep > 0 {
		return 0, fmt.Errorf("%w: column %q is repeated", ErrUnsupported, path)
	}
	ct := colType{leaf: leaf, physical: leaf.Physical}
	lt := leaf.Logical()
	conv, hasConv := leaf.Converted().Get()
	switch {
	case lt.Kind == footer.LogicalDecimal || hasConv && conv == footer.ConvertedDecimal,
		lt.Kind == footer.LogicalFloat16, hasConv && conv == footer.ConvertedInterval:
		return 0, fmt.Errorf("%w: predicates on column %q (%s %s)", ErrUnsupported, path, leaf.Physical, lt.Kind)
	}
	switch leaf.Physical {
	case footer.TypeBoolean:
		ct.order = orderSigned
	case footer.TypeInt32, footer.TypeInt64:
		ct.order = orderSigned
		if lt.Kind == footer.LogicalInteger && !lt.Integer.IsSigned ||
			hasConv && (conv == footer.ConvertedUint8 || conv == footer.ConvertedUint16 || conv == footer.ConvertedUint32 || conv == footer.ConvertedUint64) {
			ct.order = orderUnsigned
		}
	case footer.TypeFloat, footer.TypeDouble:
		ct.order = orderFloat
	case footer.TypeByteArray, footer.TypeFixedLenByteArray:
		ct.order = orderBytes
	default:
		return 0, fmt.Errorf("%w: predicates on %s column %q", ErrUnsupported, leaf.Physical, path)
	}
	b.cols = append(b.cols, ct)
	return len(b.cols) - 1, nil
}

func (b *Bound) bind(p Predicate, schema *footer.Schema) (*node, error) {
	switch p := p.(type) {
	case *comparison:
		n, err := b.leafNode(nodeCompare, p.col, schema, []Literal{p.lit})
		if n != nil {
			n.op = p.op
			if p.op != OpEq {
				n.hashes = nil
			}
		}
		return n, err
	case *inList:
		return b.leafNode(nodeIn, p.col, schema, p.lits)
	case *nullCheck:
		k := nodeNull
		if p.notNull {
			k = nodeNotNull
		}
		return b.leafNode(k, p.col, schema, nil)
	case *prefixMatch:
		n, err := b.leafNode(nodePrefix, p.col, schema, []Literal{Bytes(p.prefix)})
		if err == nil && b.cols[n.col].order != orderBytes {
			return nil, fmt.Errorf("%w: prefix match on %s column %q", ErrPredicate, b.cols[n.col].physical, p.col)
		}
		if n != nil {
			n.hashes = nil
		}
		return n, err
	case *junction:
		n := &node{kind: nodeAnd}
		if p.or {
			n.kind = nodeOr
		}
		for _, t := range p.terms {
			k, err := b.bind(t, schema)
			if err != nil {
				return nil, err
			}
			n.kids = append(n.kids, k)
		}
		return n, nil
	case *negation:
		k, err := b.bind(p.p, schema)
		if err != nil {
			return nil, err
		}
		return &node{kind: nodeNot, kids: []*node{k}}, nil
	}
	return nil, fmt.Errorf("%w: %T is not a predicate of this package", ErrPredicate, p)
}

// leafNode binds a condition on one column with literals lits.
func (b *Bound) leafNode(kind nodeKind, path string, schema *footer.Schema, lits []Literal) (*node, error) {
	c, err := b.column(path, schema)
	if err != nil {
		return nil, err
	}
	n := &node{kind: kind, col: c, vals: make([]value, len(lits)), hashes: make([]uint64, 0, len(lits))}
	ct := &b.cols[c]
	for i, l := range lits {
		v, h, hashed, err := ct.convert(l)
		if err != nil {
			return nil, fmt.Errorf("%w: column %q: %w", ErrPredicate, path, err)
		}
		n.vals[i] = v
		n.nan = n.nan || kind == nodeCompare && ct.order == orderFloat && math.IsNaN(v.f)
		if hashed {
			n.hashes = append(n.hashes, h)
		}
	}
	if len(n.hashes) != len(lits) || kind == nodeNull || kind == nodeNotNull {
		n.hashes = nil // some literal cannot be in the filter, or no value is tested: do not prune by it
	}
	return n, nil
}

// convert turns l into a physical value of the column and its bloom hash.
// hashed is false when no value of the column can equal l bit for bit
// (NaN, a fixed-size literal of another width), so the bloom filter says
// nothing about it.
func (c *colType) convert(l Literal) (v value, h uint64, hashed bool, err error) {
	switch c.physical {
	case footer.TypeBoolean:
		if l.kind != KindBool {
			return v, 0, false, fmt.Errorf("a %s literal for a BOOLEAN column", l.kindName())
		}
		v.i = l.i
		return v, 0, false, nil
	case footer.TypeInt32, footer.TypeInt64:
		if l.kind != KindInt {
			return v, 0, false, fmt.Errorf("a %s literal for an integer column", l.kindName())
		}
		lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
		switch {
		case c.physical == footer.TypeInt64 && c.order == orderSigned:
			lo, hi = math.MinInt64, math.MaxInt64
		case c.physical == footer.TypeInt64:
			lo, hi = 0, math.MaxInt64
		case c.order == orderUnsigned:
			lo, hi = 0, math.MaxUint32
		}
		if l.i < lo || l.i > hi {
			return v, 0, false, fmt.Errorf("literal %d is outside the column's range [%d, %d]", l.i, lo, hi)
		}
		v.i = l.i
		if c.physical == footer.TypeInt32 {
			return v, HashInt32(int32(uint32(l.i))), true, nil
		}
		return v, HashInt64(l.i), true, nil
	case footer.TypeFloat, footer.TypeDouble:
		switch l.kind {
		case KindFloat:
			v.f = l.f
		case KindInt:
			v.f = float64(l.i)
		default:
			return v, 0, false, fmt.Errorf("a %s literal for a floating-point column", l.kindName())
		}
		if c.physical == footer.TypeFloat {
			f := float32(v.f)
			if float64(f) != v.f || math.IsNaN(v.f) {
				return v, 0, false, nil // no FLOAT value equals it
			}
			return v, HashFloat32(f), v.f != 0, nil // -0 and +0 are equal but hash apart
		}
		if math.IsNaN(v.f) {
			return v, 0, false, nil
		}
		return v, HashFloat64(v.f), v.f != 0, nil // -0 and +0 are equal but hash apart
	}
	if l.kind != KindBytes {
		return v, 0, false, fmt.Errorf("a %s literal for a binary column", l.kindName())
	}
	v.b = l.b
	if c.physical == footer.TypeFixedLenByteArray && len(l.b) != int(c.leaf.TypeLength) {
		return v, 0, false, nil
	}
	return v, HashBytes(l.b), true, nil
}

func (l Literal) kindName() string {
	switch l.kind {
	case KindInt:
		return "integer"
	case KindFloat:
		return "float"
	case KindBytes:
		return "string"
	case KindBool:
		return "boolean"
	}
	return "invalid"
}
