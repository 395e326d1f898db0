package colwrite

import (
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/kernels"
	"github.com/quiverio/quiver/levels"
)

// NestedFieldWriter writes one nested top-level field (struct, list or
// map): the levels package shreds each batch's column into the levels and
// dense values of its leaves, whose column writers encode them.
type NestedFieldWriter struct {
	Field       int              // the field's index in the Arrow schema
	FirstColumn int              // the index of the column writer of its first leaf
	Shredder    *levels.Shredder // the field's shredder, from the plan WritePlan returns
	Columns     []levels.Column  // the row group being written, one per leaf (see Shred)
}

// NestedLeafType is one leaf of a nested field being written: its Parquet
// node and the Arrow type of its dense values.
type NestedLeafType struct {
	Node *footer.Node   // the leaf's Parquet node
	Type arrow.DataType // the Arrow type of the leaf's dense values
}

// WritePlan returns the levels plan of Arrow field f written as Parquet
// node n (the mapping of schema_write.go: structs as groups, lists as
// three-level LIST groups, maps as MAP groups of a repeated key_value),
// whose slots are defined from level slot; it appends the leaves to
// leaves in column order.
func WritePlan(f arrow.Field, n *footer.Node, slot int16, leaves *[]NestedLeafType) (*levels.Node, error) {
	ln := &levels.Node{Name: n.DottedPath(), Type: f.Type, DefLevel: n.MaxDef, RepLevel: n.MaxRep, SlotDefLevel: slot}
	st := f.Type
	for {
		ext, ok := st.(arrow.ExtensionType)
		if !ok {
			break
		}
		st = ext.StorageType()
	}
	kids := func(fs []arrow.Field, nodes []*footer.Node, slot int16) ([]*levels.Node, error) {
		if len(fs) != len(nodes) {
			return nil, fmt.Errorf("%w: field %q has %d children, its Parquet group %d", errs.ErrUnsupported, f.Name, len(fs), len(nodes))
		}
		out := make([]*levels.Node, len(fs))
		for i, c := range fs {
			k, err := WritePlan(c, nodes[i], slot, leaves)
			if err != nil {
				return nil, err
			}
			out[i] = k
		}
		return out, nil
	}
	var err error
	switch t := st.(type) {
	case *arrow.StructType:
		ln.Kind = levels.Struct
		ln.Children, err = kids(t.Fields(), n.Children, slot)
		return ln, err
	case *arrow.MapType, arrow.ListLikeType:
		if len(n.Children) != 1 || n.Children[0].IsLeaf() {
			return nil, fmt.Errorf("%w: field %q: Parquet group %q is not a three-level list or map", errs.ErrUnsupported, f.Name, n.DottedPath())
		}
		rep := n.Children[0]
		ln.ElemDefLevel, ln.ElemRepLevel = rep.MaxDef, rep.MaxRep
		if mt, ok := t.(*arrow.MapType); ok {
			ln.Kind = levels.Map
			entries := &levels.Node{Kind: levels.Struct, Name: rep.DottedPath(), Type: mt.Elem(),
				DefLevel: rep.MaxDef, RepLevel: rep.MaxRep, SlotDefLevel: rep.MaxDef}
			if entries.Children, err = kids([]arrow.Field{mt.KeyField(), mt.ItemField()}, rep.Children, rep.MaxDef); err != nil {
				return nil, err
			}
			ln.Children = []*levels.Node{entries}
			return ln, nil
		}
		ln.Kind = levels.List
		ln.Children, err = kids([]arrow.Field{t.(arrow.ListLikeType).ElemField()}, rep.Children, rep.MaxDef)
		return ln, err
	}
	if !n.IsLeaf() {
		return nil, fmt.Errorf("%w: field %q of type %s is the Parquet group %q", errs.ErrUnsupported, f.Name, f.Type, n.DottedPath())
	}
	ln.Kind, ln.Column = levels.Leaf, len(*leaves)
	*leaves = append(*leaves, NestedLeafType{Node: n, Type: f.Type})
	return ln, nil
}

// Shred shreds rows [lo, hi) of arr into the leaves' levels and dense
// values, which stay in w.Columns until Release.
func (w *NestedFieldWriter) Shred(arr arrow.Array, lo, hi int) error {
	sl := array.NewSlice(arr, int64(lo), int64(hi))
	defer sl.Release()
	cols, err := w.Shredder.Shred(memory.DefaultAllocator, sl)
	if err != nil {
		return fmt.Errorf("%w: %w", errs.ErrUnsupported, err)
	}
	w.Columns = cols
	return nil
}

// Release drops the values of the row group written.
func (w *NestedFieldWriter) Release() {
	for _, c := range w.Columns {
		c.Values.Release()
	}
	w.Columns = nil
}

// WriteNested writes the entries of a leaf below a nested field: their
// definition and repetition levels (rep nil when the leaf repeats
// nowhere) and the dense values of the entries at the leaf's maximum
// definition level. Pages are cut only where a row starts.
func (c *Writer) WriteNested(col levels.Column) error {
	vals := col.Values
	if c.geo != nil {
		if err := c.geo.addArray(vals, 0, vals.Len(), "value"); err != nil {
			return fmt.Errorf("column %q: %w", c.Path, err)
		}
	}
	if _, _, err := c.vals.bind(vals, 0, vals.Len()); err != nil {
		return fmt.Errorf("column %q: %w", c.Path, err)
	}
	def, rep := col.Def, col.Rep
	n := len(def)
	if rep != nil && len(rep) != n {
		return fmt.Errorf("%w: column %q: %d repetition levels for %d definition levels", errs.ErrUnsupported, c.Path, len(rep), n)
	}
	cuts, err := c.nestedCuts(vals, def, rep)
	if err != nil {
		return err
	}
	if cuts, err = c.cutFirst(cuts); err != nil {
		return err
	}
	c.pageDefHist = levelCounts(c.pageDefHist, c.node.MaxDef)
	c.pageRepHist = levelCounts(c.pageRepHist, c.node.MaxRep)
	c.batchHist = levelCounts(c.batchHist, max(c.node.MaxDef, c.node.MaxRep))
	v := 0 // values written
	for i := 0; i < n; {
		j := min(n, i+miniBatch-c.fill)
		if len(cuts) > 0 {
			j = min(j, cuts[0]) // a row start, when rep is set
		}
		for rep != nil && j < n && rep[j] != 0 {
			j++
		}
		var repBatch []int16
		if rep != nil {
			repBatch = rep[i:j]
		}
		present, rows := c.addNestedLevels(def[i:j], repBatch)
		if v+present > vals.Len() {
			return fmt.Errorf("%w: column %q: levels give more than its %d values", errs.ErrUnsupported, c.Path, vals.Len())
		}
		if err := c.vals.put(v, v+present, nil, 0, present); err != nil {
			return fmt.Errorf("column %q: %w", c.Path, err)
		}
		v += present
		c.levels += j - i
		c.pageNulls += j - i - present
		c.pageRowsDone += rows
		c.fill += j - i
		cut := len(cuts) > 0 && cuts[0] == j // content-defined chunking ends the page here
		if cut {
			cuts = cuts[1:]
		}
		i = j
		if c.fill < miniBatch && i == n && !cut {
			continue // the call ended inside a mini-batch, which the next one goes on filling
		}
		full := c.vals.pageBytes()+c.levels/4 >= c.set.PageSize || (c.pageRows() > 0 && c.pageRowsDone >= c.pageRows()) || cut
		if err := c.endMiniBatch(full); err != nil {
			return err
		}
	}
	if v != vals.Len() {
		return fmt.Errorf("%w: column %q: levels give %d values, the leaf has %d", errs.ErrUnsupported, c.Path, v, vals.Len())
	}
	return nil
}

// addNestedLevels adds the levels of a mini-batch of whole rows to the
// page (rep nil when the leaf repeats nowhere) and to the level
// histograms, and returns how many of its entries hold a value (those at
// the maximum definition level) and how many rows it holds (its
// repetition levels 0).
func (c *Writer) addNestedLevels(def, rep []int16) (present, rows int) {
	present, rows = len(def), len(def)
	if maxDef := c.node.MaxDef; maxDef > 0 {
		b := c.batchHist[:maxDef+1]
		clear(b)
		levels.AddCounts(b, def)
		for d, k := range b {
			c.pageDefHist[d] += k
			c.defHist[d] += k
		}
		present = int(b[maxDef])
	}
	if rep != nil {
		b := c.batchHist[:c.node.MaxRep+1]
		clear(b)
		levels.AddCounts(b, rep)
		for r, k := range b {
			c.pageRepHist[r] += k
		}
		rows = int(b[0])
		c.repLv = append(c.repLv, rep...)
	}
	c.defLv = append(c.defLv, def...)
	return present, rows
}

// levelCounts returns h as counts of the levels 0 to maxLevel, kept when
// it has that length and otherwise new and zero.
func levelCounts(h []int64, maxLevel int16) []int64 {
	if len(h) != int(maxLevel)+1 {
		return make([]int64, int(maxLevel)+1)
	}
	return h
}

// appendNestedLevels appends the page's repetition and definition level
// sections to body (see appendLevels).
func (c *Writer) appendNestedLevels(body []byte) ([]byte, levelSections, error) {
	ls := levelSections{rows: c.pageRowsDone}
	var err error
	if body, ls.repSize, err = c.appendLevelSection(body, c.repLv, c.node.MaxRep); err != nil {
		return nil, ls, err
	}
	var defSize int
	if body, defSize, err = c.appendLevelSection(body, c.defLv, c.node.MaxDef); err != nil {
		return nil, ls, err
	}
	ls.size = ls.repSize + defSize
	return body, ls, nil
}

// appendLevelSection appends levels lv of at most max, RLE-encoded, as a
// level section (none when max is 0) and returns its size.
func (c *Writer) appendLevelSection(body []byte, lv []int16, max int16) ([]byte, int, error) {
	if max == 0 {
		return body, 0, nil
	}
	body, at := c.openSection(body)
	body, err := kernels.AppendRLE(body, lv, levels.Width(max))
	if err != nil {
		return nil, 0, fmt.Errorf("column %q: %w", c.Path, err)
	}
	return body, c.closeSection(body, at), nil
}
