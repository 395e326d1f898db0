package dataset

// This file splits a filter between partition keys and data columns.
//
// pageindex keeps the structure of a Predicate unexported; its String form
// is documented to parse back to the same predicate, with every term of
// AND and OR in parentheses. So the filter is taken apart from that text:
// a tree of and/or/not whose leaves (one condition on one column) are
// parsed back with pageindex.Parse. Partition leaves are evaluated for
// every file at once, through pageindex.Bind against a schema of the
// partition keys and Bound.Select over an array of each key's values, so
// they mean exactly what they mean on a data column. For each file the
// tree then folds to true, false, or a predicate on data columns only,
// which arrowio prunes and filters with.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

type nodeKind uint8

const (
	nodeLeaf nodeKind = iota
	nodeAnd
	nodeOr
	nodeNot
	nodeTrue
	nodeFalse
)

// fnode is a node of a filter tree.
type fnode struct {
	kind nodeKind
	kids []*fnode
	leaf *leaf
}

type leafKind uint8

const (
	leafCompare leafKind = iota
	leafIn
	leafIsNull
	leafNotNull
	leafPrefix
)

// leaf is one condition on one column.
type leaf struct {
	col    string // the column's dotted path
	colRaw string // as written: an identifier or backquoted
	kind   leafKind
	op     string   // leafCompare
	lits   []string // literals as written
	pred   pageindex.Predicate
	// part, for a leaf on a partition key, holds its value for each file.
	part []bool
}

var (
	trueNode  = &fnode{kind: nodeTrue}
	falseNode = &fnode{kind: nodeFalse}
)

// text formats the leaf as pageindex.Parse reads it.
func (l *leaf) text() string {
	switch l.kind {
	case leafIn:
		return l.colRaw + " in (" + strings.Join(l.lits, ", ") + ")"
	case leafIsNull:
		return l.colRaw + " is null"
	case leafNotNull:
		return l.colRaw + " is not null"
	case leafPrefix:
		return l.colRaw + " prefix " + l.lits[0]
	}
	return l.colRaw + " " + l.op + " " + l.lits[0]
}

// parseFilter takes p apart into a tree.
func parseFilter(p pageindex.Predicate) (*fnode, error) {
	s := p.String()
	toks, err := tokenize(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %v", ErrFilter, s, err)
	}
	fp := &filterParser{toks: toks}
	n, err := fp.expr()
	if err == nil && fp.pos != len(toks) {
		err = fmt.Errorf("unexpected %q", toks[fp.pos])
	}
	if err != nil {
		return nil, fmt.Errorf("%w: taking apart %q: %v", ErrFilter, s, err)
	}
	return n, nil
}

// tokenize splits the String form of a predicate into parentheses,
// commas, quoted strings, backquoted identifiers and words.
func tokenize(s string) ([]string, error) {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ':
			i++
		case c == '(' || c == ')' || c == ',':
			toks = append(toks, s[i:i+1])
			i++
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return nil, fmt.Errorf("unterminated string")
			}
			toks = append(toks, s[i:j+1])
			i = j + 1
		case c == '`':
			j := i + 1
			for {
				k := strings.IndexByte(s[j:], '`')
				if k < 0 {
					return nil, fmt.Errorf("unterminated backquote")
				}
				j += k + 1
				if j < len(s) && s[j] == '`' {
					j++
					continue
				}
				break
			}
			toks = append(toks, s[i:j])
			i = j
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" (),\"'`", rune(s[j])) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		}
	}
	return toks, nil
}

type filterParser struct {
	toks []string
	pos  int
}

func (p *filterParser) peek(i int) string {
	if p.pos+i < len(p.toks) {
		return p.toks[p.pos+i]
	}
	return ""
}

func (p *filterParser) expect(t string) error {
	if p.peek(0) != t {
		return fmt.Errorf("expected %q, got %q", t, p.peek(0))
	}
	p.pos++
	return nil
}

// expr reads the String form of one predicate.
func (p *filterParser) expr() (*fnode, error) {
	switch t := p.peek(0); {
	case t == "(":
		// A junction: (t1) and (t2) ..., or a single parenthesized term.
		n := &fnode{kind: nodeAnd}
		for {
			if err := p.expect("("); err != nil {
				return nil, err
			}
			k, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expect(")"); err != nil {
				return nil, err
			}
			n.kids = append(n.kids, k)
			switch p.peek(0) {
			case "and":
				n.kind = nodeAnd
			case "or":
				n.kind = nodeOr
			default:
				return n, nil
			}
			p.pos++
		}
	case t == "not" && p.peek(1) == "(":
		p.pos += 2
		k, err := p.expr()
		if err != nil {
			return nil, err
		}
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		return &fnode{kind: nodeNot, kids: []*fnode{k}}, nil
	case t == "true":
		p.pos++
		return trueNode, nil
	case t == "false":
		p.pos++
		return falseNode, nil
	case t == "":
		return nil, fmt.Errorf("unexpected end")
	}
	return p.leaf()
}

// leaf reads one condition.
func (p *filterParser) leaf() (*fnode, error) {
	l := &leaf{colRaw: p.peek(0)}
	l.col = l.colRaw
	if strings.HasPrefix(l.colRaw, "`") {
		l.col = strings.ReplaceAll(l.colRaw[1:len(l.colRaw)-1], "``", "`")
	}
	p.pos++
	switch t := p.peek(0); t {
	case "in":
		p.pos++
		if err := p.expect("("); err != nil {
			return nil, err
		}
		for p.peek(0) != ")" {
			if p.peek(0) == "" {
				return nil, fmt.Errorf("unterminated in list")
			}
			l.lits = append(l.lits, p.peek(0))
			p.pos++
			if p.peek(0) == "," {
				p.pos++
			}
		}
		p.pos++
		l.kind = leafIn
	case "is":
		if p.peek(1) == "null" {
			l.kind = leafIsNull
			p.pos += 2
		} else {
			l.kind = leafNotNull
			p.pos += 3
		}
	case "prefix":
		l.kind = leafPrefix
		l.lits = []string{p.peek(1)}
		p.pos += 2
	default:
		l.kind = leafCompare
		l.op = t
		l.lits = []string{p.peek(1)}
		p.pos += 2
	}
	if err := l.reparse(); err != nil {
		return nil, err
	}
	return &fnode{kind: nodeLeaf, leaf: l}, nil
}

// reparse sets l.pred from l's text, checking that it names l.col.
func (l *leaf) reparse() error {
	pred, err := pageindex.Parse(l.text())
	if err != nil {
		return err
	}
	if cols := pageindex.Columns(pred); len(cols) != 1 || cols[0] != l.col {
		return fmt.Errorf("condition %q reads %v, not %q", l.text(), cols, l.col)
	}
	l.pred = pred
	return nil
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
// a date or timestamp key is read as one.
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
		if id := k.typ.ID(); id == arrow.DATE32 || id == arrow.TIMESTAMP {
			for i, lit := range l.lits {
				if s, err := strconv.Unquote(lit); err == nil && (lit[0] == '"' || lit[0] == '\'') {
					v, err := parseValue(k.typ, s)
					if err != nil {
						return fmt.Errorf("%w: %s: %q is not a %s: %v", ErrFilter, l.text(), s, k.typ, err)
					}
					l.lits[i] = strconv.FormatInt(v.(int64), 10)
				}
			}
			if err := l.reparse(); err != nil {
				return fmt.Errorf("%w: %v", ErrFilter, err)
			}
		}
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
// value for a null (true for is null, false otherwise), and integer
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
			return constNode(l.kind == leafIsNull)
		}
		if t, ok := cols.typeOf(l.col); ok && isInt(t) {
			return clampInts(n, t)
		}
		return n
	case nodeNot:
		k := n.kids[0].residual(f, cols)
		switch k.kind {
		case nodeTrue:
			return falseNode
		case nodeFalse:
			return trueNode
		}
		if k == n.kids[0] {
			return n
		}
		return &fnode{kind: nodeNot, kids: []*fnode{k}}
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
// lies on one side of it.
func clampInts(n *fnode, t arrow.DataType) *fnode {
	l := n.leaf
	if l.kind != leafCompare && l.kind != leafIn {
		return n
	}
	lo, hi := intRange(t)
	side := func(lit string) int { // -1 below the range, +1 above, 0 within
		v, err := strconv.ParseInt(lit, 10, 64)
		switch {
		case err != nil:
			return 0
		case v < lo:
			return -1
		case hi >= 0 && v > hi:
			return 1
		}
		return 0
	}
	if l.kind == leafIn {
		var kept []string
		for _, lit := range l.lits {
			if side(lit) == 0 {
				kept = append(kept, lit)
			}
		}
		if len(kept) == len(l.lits) {
			return n
		}
		if len(kept) == 0 {
			return falseNode
		}
		nl := *l
		nl.lits = kept
		if nl.reparse() != nil {
			return n
		}
		return &fnode{kind: nodeLeaf, leaf: &nl}
	}
	s := side(l.lits[0])
	if s == 0 {
		return n
	}
	notNull := &fnode{kind: nodeLeaf, leaf: &leaf{col: l.col, colRaw: l.colRaw, kind: leafNotNull, pred: pageindex.IsNotNull(l.col)}}
	switch l.op {
	case "=":
		return falseNode
	case "!=", "<>":
		return notNull
	case "<", "<=":
		if s > 0 {
			return notNull
		}
		return falseNode
	default: // >, >=
		if s < 0 {
			return notNull
		}
		return falseNode
	}
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
	case nodeNot:
		return pageindex.Not(n.kids[0].predicate())
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
