package pageindex

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/float16"

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
	orderDecimal                        // big-endian two's complement of any length (DECIMAL in bytes)
	orderEqual                          // bytes told apart but not ordered (INTERVAL)
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
	leaf      *footer.Node
	physical  footer.Type
	order     valueOrder
	logical   colLogical // the annotation that changes how values read
	scale     int32      // a DECIMAL's scale
	bounds    bool       // statistics bounds order as compare does
	temporal  temporal   // what an integer column stores of time, if anything
	unitNanos int64      // the nanoseconds in one unit of a temporal column
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
	case orderDecimal:
		return CompareDecimal(a.b, b.b)
	}
	return bytes.Compare(a.b, b.b)
}

// decode reads a PLAIN-encoded statistics bound; ok is false when its
// length does not suit the type.
func (c *colType) decode(src []byte) (v value, ok bool) {
	switch c.logical {
	case logicalFloat16:
		return decodeFloat16(src)
	case logicalInt96:
		if len(src) != 12 {
			return v, false
		}
		v.i, ok = int96Nanos(src)
		return v, ok
	case logicalInterval:
		v.b = src
		return v, len(src) == 12
	}
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
	nodeIntersects // vals: the query box's xmin, ymin, xmax, ymax (geo.go)
	nodeAnd
	nodeOr
)

// node is one node of a bound predicate.
type node struct {
	kind   nodeKind
	op     Op
	col    int // index into Bound.cols
	vals   []value
	hashes []uint64 // bloom hashes of vals, for = and IN; nil when unknown
	nan    bool     // the literal of a float comparison is NaN
	geo    geoKind  // how an intersects node's column bounds its values (geo.go)
	neg    bool     // a value condition negated: true where the value is not null and the condition fails
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
// repeated field on their path) of any physical type, and literals must
// suit them:
//   - BOOLEAN: a boolean.
//   - INT32, INT64 (signed or unsigned, and the dates, times and
//     timestamps stored in them): an integer within the column's range, or
//     a decimal, which compares exactly (x < 2.5 is x <= 2).
//   - DECIMAL (on INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY): an
//     integer, decimal or float number, compared exactly with the values
//     it stands for: a literal with more digits than the column's scale
//     holds adjusts the comparison (x < 12.345 at scale 2 is x <= 12.34,
//     x = 12.345 holds for no row), and one beyond every value the column
//     can store makes the comparison always true or always false.
//   - INT96: an integer (or decimal), nanoseconds since the Unix epoch, as
//     arrowio reads INT96 timestamps by default; statistics never prune
//     INT96 columns (their order is not the type-defined one).
//   - FLOAT, DOUBLE, FLOAT16: a number, compared as float64.
//   - INTERVAL: a 12-byte value ([Interval]), compared for equality only
//     (=, !=, IN): intervals have no order.
//   - BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY otherwise: a string; prefix match
//     works on these columns only.
//
// Bloom filters are checked with the hash of the literal's encoding:
// little-endian integers, FIXED_LEN_BYTE_ARRAY decimals sign-extended to
// the column's width, FLOAT16 and INTERVAL bytes, and for INT96 the
// nanoseconds within the day and the Julian day writers store (an INT96
// whose nanoseconds lie outside the day, or whose date lies beyond the
// years 1677 to 2262 a nanosecond int64 holds, is not found by equality
// through the bloom filter). They are not consulted for DECIMALs in
// BYTE_ARRAY, where one number has encodings of several lengths.
//
// Statistics and page index bounds prune only where the footer's column
// order says they follow the order compared here: never for INTERVAL and
// INT96, for DECIMALs in bytes only under an explicit TYPE_ORDER (old
// writers ordered their bytes unsigned), and never under a column order
// this package does not know.
//
// A column that is missing, a literal that does not fit, or an order
// comparison on an INTERVAL is an error wrapping ErrPredicate; a repeated
// column or a DECIMAL annotation whose parameters break the format wraps
// ErrUnsupported.
func Bind(p Predicate, schema *footer.Schema) (*Bound, error) {
	b := &Bound{pred: p}
	root, err := b.bind(p, schema, false)
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
	if err := ct.init(); err != nil {
		return 0, fmt.Errorf("%w: column %q: %w", ErrUnsupported, path, err)
	}
	b.cols = append(b.cols, ct)
	return len(b.cols) - 1, nil
}

// bind binds p, or NOT p when neg is set. NOT is pushed down to the
// conditions on one column (De Morgan's laws hold in SQL's three-valued
// logic), where it flips IS NULL and IS NOT NULL and negates a condition
// on values only where the value is not null: a predicate on nulls is
// unknown, and so is its negation.
func (b *Bound) bind(p Predicate, schema *footer.Schema, neg bool) (*node, error) {
	var n *node
	var err error
	switch p := p.(type) {
	case *comparison:
		n, err = b.leafNode(nodeCompare, p.op, p.col, schema, []Literal{p.lit})
	case *inList:
		n, err = b.leafNode(nodeIn, 0, p.col, schema, p.lits)
	case *nullCheck:
		k := nodeNull
		if p.notNull != neg {
			k = nodeNotNull
		}
		return b.leafNode(k, 0, p.col, schema, nil)
	case *prefixMatch:
		c, err := b.column(p.col, schema)
		if err != nil {
			return nil, err
		}
		if b.cols[c].order != orderBytes {
			return nil, fmt.Errorf("%w: prefix match on %s column %q", ErrPredicate, b.cols[c].describe(), p.col)
		}
		n = &node{kind: nodePrefix, col: c, vals: []value{{b: p.prefix}}}
	case *bboxIntersect:
		n, err = b.bindIntersects(p, schema)
	case *junction:
		n := &node{kind: nodeAnd}
		if p.or != neg {
			n.kind = nodeOr
		}
		for _, t := range p.terms {
			k, err := b.bind(t, schema, neg)
			if err != nil {
				return nil, err
			}
			n.kids = append(n.kids, k)
		}
		return n, nil
	case *negation:
		return b.bind(p.p, schema, !neg)
	default:
		return nil, fmt.Errorf("%w: %T is not a predicate of this package", ErrPredicate, p)
	}
	if err != nil || !neg {
		return n, err
	}
	switch n.kind {
	case nodeNull:
		n.kind = nodeNotNull
	case nodeNotNull:
		n.kind = nodeNull
	default:
		n.neg = !n.neg
		n.hashes = nil // a value the filter lacks makes the negation hold: it prunes nothing
	}
	return n, nil
}

// leafNode binds a condition on one column: a comparison by op, IN or a
// null check, with literals lits.
func (b *Bound) leafNode(kind nodeKind, op Op, path string, schema *footer.Schema, lits []Literal) (*node, error) {
	c, err := b.column(path, schema)
	if err != nil {
		return nil, err
	}
	ct := &b.cols[c]
	if ct.order == orderEqual && kind == nodeCompare && op != OpEq && op != OpNotEq {
		return nil, fmt.Errorf("%w: column %q: %s values have no order; only =, !=, in and is [not] null apply", ErrPredicate, path, ct.describe())
	}
	n := &node{kind: kind, op: op, col: c}
	hashed := kind == nodeIn || kind == nodeCompare && op == OpEq // the bloom filter can rule the condition out
	if hashed {
		n.hashes = make([]uint64, 0, len(lits))
	}
	for _, l := range lits {
		v, f, h, ok, err := ct.convert(l)
		if err != nil {
			return nil, fmt.Errorf("%w: column %q: %w", ErrPredicate, path, err)
		}
		if f != fitExact {
			if kind == nodeIn {
				continue // no value of the column equals l
			}
			return inexact(n, f, v), nil
		}
		n.vals = append(n.vals, v)
		n.nan = n.nan || kind == nodeCompare && ct.order == orderFloat && math.IsNaN(v.f)
		if ok {
			n.hashes = append(n.hashes, h)
		}
		hashed = hashed && ok
	}
	if !hashed {
		n.hashes = nil // some literal cannot be in the filter, or no value is tested: do not prune by it
	}
	return n, nil
}

// inexact rewrites comparison n, whose literal no value of the column
// equals, as the condition it amounts to: f says whether the literal lies
// below or above every value the column can hold, or between v and the
// next value.
func inexact(n *node, f fit, v value) *node {
	never := &node{kind: nodeIn, col: n.col}              // IN of nothing holds for no value
	notNull := &node{kind: nodeIn, col: n.col, neg: true} // NOT IN of nothing holds for every value
	switch n.op {
	case OpEq:
		return never
	case OpNotEq:
		return notNull
	}
	less := n.op == OpLess || n.op == OpLessEq
	switch {
	case f == fitBelow && less, f == fitAbove && !less:
		return never
	case f == fitBelow, f == fitAbove:
		return notNull
	}
	n.op, n.vals = OpGreater, []value{v}
	if less {
		n.op = OpLessEq
	}
	return n
}

// convert turns l into a physical value of the column and its bloom hash.
// f says where l lies among the column's values when no value equals it.
// hashed is false when the bloom filter says nothing about l: no value of
// the column can equal it bit for bit (NaN, a fixed-size literal of
// another width), or a value equal to it has several encodings.
func (c *colType) convert(l Literal) (v value, f fit, h uint64, hashed bool, err error) {
	switch {
	case c.logical == logicalDecimal || c.logical == logicalInt96 || c.physical == footer.TypeInt32 || c.physical == footer.TypeInt64:
		return c.convertInteger(l)
	case c.order == orderFloat:
		v, h, hashed, err = c.convertFloat(l)
		return v, fitExact, h, hashed, err
	case c.physical == footer.TypeBoolean:
		if l.kind != KindBool {
			return v, fitExact, 0, false, fmt.Errorf("a %s literal for a BOOLEAN column", l.kindName())
		}
		v.i = l.i
		return v, fitExact, 0, false, nil
	}
	if l.kind != KindBytes {
		return v, fitExact, 0, false, fmt.Errorf("a %s literal for %s column", l.kindName(), c.describe())
	}
	v.b = l.b
	if c.physical == footer.TypeFixedLenByteArray && len(l.b) != int(c.leaf.TypeLength) {
		return v, fitExact, 0, false, nil
	}
	return v, fitExact, HashBytes(l.b), true, nil
}

// convertFloat converts a number for a FLOAT, DOUBLE or FLOAT16 column.
func (c *colType) convertFloat(l Literal) (v value, h uint64, hashed bool, err error) {
	switch l.kind {
	case KindFloat:
		v.f = l.f
	case KindInt:
		v.f = float64(l.i)
	case KindDecimal:
		v.f = decimalFloat(l.d, l.scale)
	default:
		return v, 0, false, fmt.Errorf("a %s literal for a floating-point column", l.kindName())
	}
	if math.IsNaN(v.f) {
		return v, 0, false, nil // no value equals NaN
	}
	switch {
	case c.logical == logicalFloat16:
		half := float16.New(float32(v.f))
		if float64(half.Float32()) != v.f {
			return v, 0, false, nil // no FLOAT16 value equals it
		}
		return v, HashBytes(binary.LittleEndian.AppendUint16(nil, half.Uint16())), v.f != 0, nil
	case c.physical == footer.TypeFloat:
		f := float32(v.f)
		if float64(f) != v.f {
			return v, 0, false, nil // no FLOAT value equals it
		}
		return v, HashFloat32(f), v.f != 0, nil // -0 and +0 are equal but hash apart
	}
	return v, HashFloat64(v.f), v.f != 0, nil // -0 and +0 are equal but hash apart
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
	case KindDecimal:
		return "decimal"
	case KindDate:
		return "DATE"
	case KindTime:
		return "TIME"
	case KindTimestamp:
		return "TIMESTAMP"
	}
	return "invalid"
}
