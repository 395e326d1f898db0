package dataset

// This file splits a filter between partition keys and data columns.
//
// The filter is walked with pageindex.Inspect into a tree of and/or
// whose leaves are conditions on one column, NOT pushed down to them as
// SQL's three-valued logic allows (De Morgan's laws; NOT of IS NULL is IS
// NOT NULL; a negated condition on values is false on nulls, as the
// condition is). With no NOT above a leaf, a condition that is unknown
// for a file (on a null partition value, or a column the file lacks) can
// fold to false. Partition leaves are evaluated for every file at once,
// through pageindex.Bind against a schema of the partition keys and
// Bound.Select over an array of each key's values, so they mean exactly
// what they mean on a data column. For each file the tree then folds to
// true, false, or a predicate on data columns only, which arrowio prunes
// and filters with.

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

type nodeKind uint8

const (
	nodeLeaf nodeKind = iota
	nodeAnd
	nodeOr
	nodeTrue
	nodeFalse
)

// fnode is a node of a filter tree.
type fnode struct {
	kind nodeKind
	kids []*fnode
	leaf *leaf
}

// leaf is one condition on one column, or its negation.
type leaf struct {
	col   string // the column's dotted path
	parts pageindex.Parts
	neg   bool // NOT of a condition on values: false where the value is null
	pred  pageindex.Predicate
	// part, for a leaf on a partition key, holds its value for each file.
	part []bool
}

var (
	trueNode  = &fnode{kind: nodeTrue}
	falseNode = &fnode{kind: nodeFalse}
)

// newLeaf returns the leaf of condition p (whose parts are parts), or of
// its negation.
func newLeaf(p pageindex.Predicate, parts pageindex.Parts, neg bool) *fnode {
	if neg {
		p = pageindex.Not(p)
	}
	return &fnode{kind: nodeLeaf, leaf: &leaf{col: parts.Column, parts: parts, neg: neg, pred: p}}
}

// parseFilter takes p apart into a tree with NOT pushed down to the
// leaves.
func parseFilter(p pageindex.Predicate) (*fnode, error) {
	n, err := buildFilter(p, false)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFilter, err)
	}
	return n, nil
}

// buildFilter builds the tree of p, or of NOT p when neg is set.
func buildFilter(p pageindex.Predicate, neg bool) (*fnode, error) {
	parts := pageindex.Inspect(p)
	switch parts.Form {
	case pageindex.FormNot:
		return buildFilter(parts.Terms[0], !neg)
	case pageindex.FormIsNull, pageindex.FormIsNotNull:
		if neg == (parts.Form == pageindex.FormIsNull) {
			parts.Form, p = pageindex.FormIsNotNull, pageindex.IsNotNull(parts.Column)
		} else {
			parts.Form, p = pageindex.FormIsNull, pageindex.IsNull(parts.Column)
		}
		return newLeaf(p, parts, false), nil
	case pageindex.FormCompare, pageindex.FormIn, pageindex.FormPrefix:
		return newLeaf(p, parts, neg), nil
	case pageindex.FormAnd, pageindex.FormOr:
		and := (parts.Form == pageindex.FormAnd) != neg
		if len(parts.Terms) == 0 {
			return constNode(and), nil
		}
		n := &fnode{kind: nodeOr}
		if and {
			n.kind = nodeAnd
		}
		for _, t := range parts.Terms {
			k, err := buildFilter(t, neg)
			if err != nil {
				return nil, err
			}
			n.kids = append(n.kids, k)
		}
		return n, nil
	}
	return nil, fmt.Errorf("%T is not a pageindex predicate", p)
}

// leaves appends every leaf of n to dst.
func (n *fnode) leaves(dst []*leaf) []*leaf {
	if n.kind == nodeLeaf {
		return append(dst, n.leaf)
	}
	for _, k := range n.kids {
		dst = k.leaves(dst)
	}
	return dst
}

// partitionSchema returns a Parquet schema with one optional leaf per
// partition key, typed so that pageindex binds literals to the keys as it
// binds them to data columns of those types.
func partitionSchema(keys []partKey) (*footer.Schema, error) {
	elems := []footer.SchemaElement{{Name: "partitions", NumChildren: footer.Some(int32(len(keys)))}}
	for _, k := range keys {
		e := footer.SchemaElement{Name: k.name, RepetitionType: footer.Some(footer.RepetitionOptional)}
		intType := func(bits int8, signed bool) {
			e.Type = footer.Some(footer.TypeInt32)
			if bits == 64 {
				e.Type = footer.Some(footer.TypeInt64)
			}
			e.LogicalType = footer.LogicalType{Kind: footer.LogicalInteger, Integer: footer.IntType{BitWidth: bits, IsSigned: signed}}
		}
		switch t := k.typ; t.ID() {
		case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
			intType(int8(intWidth(t)), true)
		case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
			intType(int8(intWidth(t)), false)
		case arrow.FLOAT32:
			e.Type = footer.Some(footer.TypeFloat)
		case arrow.FLOAT64:
			e.Type = footer.Some(footer.TypeDouble)
		case arrow.BOOL:
			e.Type = footer.Some(footer.TypeBoolean)
		case arrow.STRING, arrow.LARGE_STRING:
			e.Type = footer.Some(footer.TypeByteArray)
			e.LogicalType = footer.LogicalType{Kind: footer.LogicalString}
		case arrow.BINARY, arrow.LARGE_BINARY:
			e.Type = footer.Some(footer.TypeByteArray)
		case arrow.DATE32:
			e.Type = footer.Some(footer.TypeInt32)
			e.LogicalType = footer.LogicalType{Kind: footer.LogicalDate}
		case arrow.TIMESTAMP:
			ts := t.(*arrow.TimestampType)
			unit := footer.TimeUnitMicros
			switch ts.Unit {
			case arrow.Millisecond:
				unit = footer.TimeUnitMillis
			case arrow.Nanosecond:
				unit = footer.TimeUnitNanos
			}
			e.Type = footer.Some(footer.TypeInt64)
			e.LogicalType = footer.LogicalType{Kind: footer.LogicalTimestamp, Timestamp: footer.TimestampType{IsAdjustedToUTC: ts.TimeZone != "", Unit: unit}}
		default:
			return nil, fmt.Errorf("%w: key %q: %s is not a partition type", ErrPartition, k.name, t)
		}
		elems = append(elems, e)
	}
	return footer.NewSchema(elems, nil)
}

// bindPartitions evaluates every partition leaf of n over the files,
// whose values by key are keys[i].values. A string literal compared with
// a date or timestamp key is read as one, as on a data column.
func bindPartitions(n *fnode, keys []partKey) error {
	var schema *footer.Schema
	for _, l := range n.leaves(nil) {
		ki := -1
		for i := range keys {
			if keys[i].name == l.col {
				ki = i
			}
		}
		if ki < 0 {
			continue
		}
		k := keys[ki]
		if schema == nil {
			var err error
			if schema, err = partitionSchema(keys); err != nil {
				return err
			}
		}
		b, err := pageindex.Bind(l.pred, schema)
		if err != nil {
			return fmt.Errorf("%w: partition key %q: %w", ErrFilter, l.col, err)
		}
		if l.part, err = b.Select([]arrow.Array{k.values}, k.values.Len()); err != nil {
			return fmt.Errorf("%w: partition key %q: %w", ErrFilter, l.col, err)
		}
	}
	return nil
}

// fileColumns says what a file holds of the filter's data columns:
// whether it has the leaf at a dotted path, and the Arrow type of a
// top-level column.
type fileColumns interface {
	has(path string) bool
	typeOf(name string) (arrow.DataType, bool)
}

// residual folds n for file f: partition leaves become their value for
// f; when cols is not nil, leaves on columns the file lacks become their
// value for a null (true for is null; false for is not null, and
// unknown, which folds as false with no NOT above, for conditions on
// values, negated or not), and integer
// literals outside the range of the file's narrower column fold to what
// they mean there. The result is trueNode, falseNode or a tree of data
// leaves.
func (n *fnode) residual(f int, cols fileColumns) *fnode {
	switch n.kind {
	case nodeTrue, nodeFalse:
		return n
	case nodeLeaf:
		l := n.leaf
		if l.part != nil {
			return constNode(l.part[f])
		}
		if cols == nil {
			return n
		}
		if !cols.has(l.col) {
			return constNode(l.parts.Form == pageindex.FormIsNull)
		}
		if t, ok := cols.typeOf(l.col); ok && isInt(t) {
			return clampInts(n, t)
		}
		return n
	}
	// and, or
	absorb, identity := falseNode, trueNode
	if n.kind == nodeOr {
		absorb, identity = trueNode, falseNode
	}
	var kids []*fnode
	same := true
	for _, k := range n.kids {
		r := k.residual(f, cols)
		same = same && r == k
		switch r.kind {
		case absorb.kind:
			return absorb
		case identity.kind:
			same = false
			continue
		}
		kids = append(kids, r)
	}
	switch {
	case same:
		return n
	case len(kids) == 0:
		return identity
	case len(kids) == 1:
		return kids[0]
	}
	return &fnode{kind: n.kind, kids: kids}
}

func constNode(b bool) *fnode {
	if b {
		return trueNode
	}
	return falseNode
}

// clampInts folds a comparison or IN of integer literals on a column of
// integer type t where a literal lies outside t's range, which pageindex
// would refuse to bind: such a literal equals no value, and every value
// lies on one side of it. The condition becomes false or true for every
// value (IS NOT NULL), and its negation the other.
func clampInts(n *fnode, t arrow.DataType) *fnode {
	l := n.leaf
	lo, hi := intRange(t)
	side := func(lit pageindex.Literal) int { // -1 below the range, +1 above, 0 within
		v, ok := lit.Int64()
		switch {
		case !ok:
			return 0
		case v < lo:
			return -1
		case hi >= 0 && v > hi:
			return 1
		}
		return 0
	}
	notNull := &fnode{kind: nodeLeaf, leaf: &leaf{col: l.col, parts: pageindex.Parts{Form: pageindex.FormIsNotNull, Column: l.col}, pred: pageindex.IsNotNull(l.col)}}
	fold := func(holds bool) *fnode { // holds: the condition holds for every value
		if holds != l.neg {
			return notNull
		}
		return falseNode
	}
	if l.parts.Form == pageindex.FormIn {
		var kept []pageindex.Literal
		for _, lit := range l.parts.Literals {
			if side(lit) == 0 {
				kept = append(kept, lit)
			}
		}
		switch {
		case len(kept) == len(l.parts.Literals):
			return n
		case len(kept) == 0:
			return fold(false)
		}
		parts := l.parts
		parts.Literals = kept
		return newLeaf(pageindex.In(l.col, kept...), parts, l.neg)
	}
	if l.parts.Form != pageindex.FormCompare {
		return n
	}
	s := side(l.parts.Literals[0])
	switch op := l.parts.Op; {
	case s == 0:
		return n
	case op == pageindex.OpEq:
		return fold(false)
	case op == pageindex.OpNotEq:
		return fold(true)
	case op == pageindex.OpLess || op == pageindex.OpLessEq:
		return fold(s > 0)
	}
	return fold(s < 0) // >, >=
}

// intRange returns the range of integer type t; hi is -1 for uint64
// (beyond every int64 literal).
func intRange(t arrow.DataType) (lo, hi int64) {
	w := intWidth(t)
	if isSigned(t) {
		return -1 << (w - 1), 1<<(w-1) - 1
	}
	if w == 64 {
		return 0, -1
	}
	return 0, 1<<w - 1
}

// predicate rebuilds the pageindex predicate of a residual tree.
func (n *fnode) predicate() pageindex.Predicate {
	switch n.kind {
	case nodeLeaf:
		return n.leaf.pred
	case nodeTrue:
		return pageindex.And()
	case nodeFalse:
		return pageindex.Or()
	}
	terms := make([]pageindex.Predicate, len(n.kids))
	for i, k := range n.kids {
		terms[i] = k.predicate()
	}
	if n.kind == nodeOr {
		return pageindex.Or(terms...)
	}
	return pageindex.And(terms...)
}
