package scan

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/arrowmem"
	"github.com/quiverio/quiver/pageindex"
)

// rowFilter is ReadOptions.Filter bound to a file: the columns a filtered
// read decodes (the projected ones, then the filter's columns that are not
// projected) and where each predicate column is among them.
type rowFilter struct {
	bound *pageindex.Bound
	// writer is the application that wrote the file, whose statistics
	// pruning trusts only where that writer is known to get them right.
	writer pageindex.Writer
	cols   []column
	eval   []int // for each leaf of bound.Leaves(), its index in cols
}

// newRowFilter binds opts.filter to the file. Filter columns are leaves
// with no repeated field on their path (top-level fields or fields of
// structs); those not projected are read for the filter alone.
func newRowFilter(ft *footer.Footer, opts *Options, projected []column) (*rowFilter, error) {
	b, err := pageindex.Bind(opts.Filter, ft.Schema)
	if err != nil {
		return nil, fmt.Errorf("arrowio: filter %s: %w", opts.Filter, err)
	}
	if err := checkFilterInt96(b, opts); err != nil {
		return nil, err
	}
	f := &rowFilter{bound: b, cols: projected, writer: pageindex.ParseWriter(ft.Meta.CreatedBy.Or(""))}
	var missing []string
	for _, leaf := range b.Leaves() {
		if findLeafColumn(projected, leaf) < 0 {
			missing = append(missing, leaf.DottedPath())
		}
	}
	if len(missing) > 0 {
		extra := *opts
		extra.Columns = missing
		_, cols, err := project(ft, &extra)
		if err != nil {
			return nil, fmt.Errorf("arrowio: filter columns: %w", err)
		}
		f.cols = append(append([]column(nil), projected...), cols...)
	}
	for _, leaf := range b.Leaves() {
		f.eval = append(f.eval, findLeafColumn(f.cols, leaf))
	}
	return f, nil
}

// findLeafColumn returns the index of the column reading leaf, or -1.
func findLeafColumn(cols []column, leaf *footer.Node) int {
	for i, c := range cols {
		if slices.Contains(c.leafNodes(), leaf) {
			return i
		}
	}
	return -1
}

// LeafArray returns the values of leaf within arr, the array of its
// top-level field: arr itself for a top-level leaf, and for a field of
// structs the child array, null wherever it or a struct above it is.
func LeafArray(arr arrow.Array, leaf *footer.Node, mem memory.Allocator) (arrow.Array, error) {
	if len(leaf.Path) == 1 {
		arr.Retain()
		return arr, nil
	}
	ancestors := []arrow.Array{arr}
	cur := arr
	for _, name := range leaf.Path[1:] {
		st, ok := cur.(*array.Struct)
		if !ok {
			return nil, fmt.Errorf("%w: filter column %q: %s is not a struct", errs.ErrUnsupported, leaf.DottedPath(), cur.DataType())
		}
		k, ok := st.DataType().(*arrow.StructType).FieldIdx(name)
		if !ok {
			return nil, fmt.Errorf("%w: filter column %q: no field %q in %s", errs.ErrUnsupported, leaf.DottedPath(), name, st.DataType())
		}
		ancestors = append(ancestors, st)
		cur = st.Field(k)
	}
	d := cur.Data()
	n, off := d.Len(), d.Offset()
	valid := memory.NewResizableBuffer(mem)
	defer valid.Release()
	valid.Resize(int(bitutil.BytesForBits(int64(off + n))))
	bits := valid.Bytes()
	clear(bits)
	nulls := 0
	for i := range n {
		ok := cur.IsValid(i)
		for _, a := range ancestors[1:] {
			ok = ok && a.IsValid(i)
		}
		if ok {
			bitutil.SetBit(bits, off+i)
		} else {
			nulls++
		}
	}
	bufs := append([]*memory.Buffer{valid}, d.Buffers()[1:]...)
	nd := array.NewData(d.DataType(), n, bufs, d.Children(), nulls, off)
	defer nd.Release()
	return array.MakeFromData(nd), nil
}

// chunkPages returns what the column chunk metadata of a predicate column
// tells: one page of the chunk's statistics, with its bloom filter.
func chunkPages(rg *footer.RowGroup, leaf *footer.Node, bloom *pageindex.Bloom, w pageindex.Writer) (pageindex.Pages, bool) {
	md := rg.Columns[leaf.Column].MetaData
	if md == nil {
		return pageindex.Pages{}, false
	}
	return pageindex.Pages{FirstRows: []int64{0}, Stats: []pageindex.Stats{pageindex.ChunkStats(md, leaf, w)}, Bloom: bloom}, true
}

// holdsForAll reports whether the statistics of row group rg say that
// every one of its rows satisfies the filter, so that it is read as if
// there were none.
func (f *rowFilter) holdsForAll(rg *footer.RowGroup) bool {
	leaves := f.bound.Leaves()
	stats := func(c int) (pageindex.Pages, bool) { return chunkPages(rg, leaves[c], nil, f.writer) }
	return rg.NumRows > 0 && f.bound.Match(stats, rg.NumRows) == pageindex.MatchAll
}

// openFiltered reads the rows of row group i that satisfy the filter:
// the row group is skipped when its statistics, bloom filters or small
// dictionaries rule the predicate out, its ColumnIndex narrows the rows
// to ranges of pages that may match, the predicate's columns decode the
// pages overlapping those ranges (by the OffsetIndex), the predicate
// evaluated on their rows selects the rows returned, and the other
// projected columns decode only the pages holding those, on the calling
// goroutine (holding one of sl) and helpers for the free ones.
func (r *File) openFiltered(ctx context.Context, i int, sl slots) (*Group, error) {
	p, err := r.planFiltered(ctx, i)
	if err != nil {
		return nil, err
	}
	defer p.release()
	return r.readPlanned(ctx, p, sl, func(bufs *[][]byte) error { return r.readColumnPages(ctx, p.plans, bufs) })
}

// filteredPlan is what a filtered read of row group gi knows before it
// decodes anything: the rows that may match (none when the group is
// pruned), the page index, and the pages of the predicate's columns that
// hold those rows, planned (their bytes not yet read).
type filteredPlan struct {
	gi     int
	ranges pageindex.Ranges
	idx    *rowGroupIndex // nil when ranges is empty
	todo   []int          // the filter's columns the predicate decodes
	plans  []*columnPages // and their planned pages
	// free, when set, gives back the bytes of the pages once they are
	// decoded (or will not be).
	free func()
}

// decoded calls free, once.
func (p *filteredPlan) decoded() {
	if p.free != nil {
		p.free()
		p.free = nil
	}
}

// release returns the page index's buffers, and the pages' bytes.
func (p *filteredPlan) release() {
	p.decoded()
	if p.idx != nil {
		p.idx.release()
	}
}

// planFiltered prunes row group i by its statistics, bloom filters, small
// dictionaries and page index, and plans the pages of the predicate's
// columns over the rows left. Its reads find what fetchIndexes cached.
func (r *File) planFiltered(ctx context.Context, i int) (*filteredPlan, error) {
	p := &filteredPlan{gi: i}
	rg := &r.Footer.Meta.RowGroups[i]
	chunk, blooms, err := r.chunkSource(rg, i)
	if err != nil || chunk == nil {
		return p, err
	}
	if p.idx, err = r.readPageIndex(ctx, rg, i); err != nil {
		return nil, err
	}
	if p.ranges = r.filter.bound.Ranges(r.pageSource(rg, p.idx, blooms, chunk), rg.NumRows); len(p.ranges) == 0 {
		return p, nil
	}
	if p.todo, p.plans, err = r.planColumns(i, r.filter.eval, p.idx, p.ranges, nil); err != nil {
		p.release()
		return nil, err
	}
	return p, nil
}

// readPlanned returns the group of plan p: the predicate's pages read by
// read (into the plans' chunks, its buffers appended to bufs) and
// decoded, the rows selected, and the projected columns over them.
func (r *File) readPlanned(ctx context.Context, p *filteredPlan, sl slots, read func(bufs *[][]byte) error) (*Group, error) {
	i := p.gi
	g := &Group{index: i, schema: r.schema}
	if len(p.ranges) == 0 {
		return g.setFiltered(r, nil, nil), nil
	}
	arrs := make([]arrow.Array, len(r.filter.cols)) // the filter's columns decoded so far
	defer ReleaseArrays(arrs)
	err := r.decodePlanned(ctx, i, sl, p.todo, p.plans, p.ranges, arrs, read)
	p.decoded()
	if err != nil {
		return nil, err
	}
	positions, err := r.selectRows(i, p.ranges, arrs)
	if err != nil {
		return nil, err
	}
	rows := pageindex.RowsAt(p.ranges, positions)
	if len(rows) == 0 {
		return g.setFiltered(r, nil, nil), nil
	}
	out, err := r.readSelected(ctx, i, sl, p.idx, arrs, positions, rows)
	if err != nil {
		return nil, err
	}
	return g.setFiltered(r, out, rows), nil
}

// chunkSource returns what the column chunks of row group rg (index i)
// tell of each predicate column, for pageindex.Bound: the statistics in
// their metadata, with the chunk's bloom filter and small dictionary when
// it has them; and the bloom filters. The Source is nil when that rules
// the predicate out. Bloom filters and dictionaries are read only when
// the statistics, then the statistics and bloom filters, leave rows that
// may match.
func (r *File) chunkSource(rg *footer.RowGroup, i int) (pageindex.Source, []*pageindex.Bloom, error) {
	f := r.filter
	leaves := f.bound.Leaves()
	n := rg.NumRows
	stats := func(c int) (pageindex.Pages, bool) { return chunkPages(rg, leaves[c], nil, f.writer) }
	if n <= 0 || f.bound.Match(stats, n) == pageindex.MatchNone {
		return nil, nil, nil
	}
	blooms, err := r.readBlooms(rg, i)
	if err != nil {
		return nil, nil, err
	}
	withBloom := func(c int) (pageindex.Pages, bool) { return chunkPages(rg, leaves[c], blooms[c], r.filter.writer) }
	if f.bound.Match(withBloom, n) == pageindex.MatchNone {
		return nil, nil, nil
	}
	dicts, err := r.readDictionaries(rg, i)
	if err != nil {
		return nil, nil, err
	}
	withDict := func(c int) (pageindex.Pages, bool) {
		p, ok := withBloom(c)
		if ok && dicts[c] != nil {
			p.Stats[0].Distinct = dicts[c]
		}
		return p, ok
	}
	if f.bound.Match(withDict, n) == pageindex.MatchNone {
		return nil, nil, nil
	}
	return withDict, blooms, nil
}

// pageSource returns what the page index idx of row group rg tells of each
// predicate column, page by page, with the chunk's bloom filter of blooms;
// chunk's answer where the column has no usable ColumnIndex and
// OffsetIndex.
func (r *File) pageSource(rg *footer.RowGroup, idx *rowGroupIndex, blooms []*pageindex.Bloom, chunk pageindex.Source) pageindex.Source {
	n := rg.NumRows
	leaves := r.filter.bound.Leaves()
	return func(c int) (pageindex.Pages, bool) {
		leaf := leaves[c]
		if ci, oi := idx.ci[leaf.Column], idx.oi[leaf.Column]; ci != nil && oi != nil {
			if p, ok := pageindex.IndexPages(ci, oi, n); ok {
				p.Bloom = blooms[c]
				return p, true
			}
		}
		return chunk(c)
	}
}

// selectRows evaluates the predicate on the rows ranges of row group i,
// its columns decoded in arrs (by their index in the filter's columns),
// and returns the positions, among those rows, of the rows that satisfy
// it.
func (r *File) selectRows(i int, ranges pageindex.Ranges, arrs []arrow.Array) (pageindex.Ranges, error) {
	f := r.filter
	leaves := f.bound.Leaves()
	evalArrs := make([]arrow.Array, len(f.eval))
	defer ReleaseArrays(evalArrs)
	for k, c := range f.eval {
		var err error
		if evalArrs[k], err = LeafArray(arrs[c], leaves[k], r.Options.Mem); err != nil {
			return nil, err
		}
	}
	sel, err := f.bound.Select(evalArrs, int(ranges.Rows()))
	if err != nil {
		return nil, fmt.Errorf("row group %d: %w", i, err)
	}
	return selectedPositions(sel), nil
}

// readSelected returns the projected columns of row group i over rows,
// the rows at positions among those the filter's columns arrs (nil where
// not decoded) hold: a column decoded for the predicate is cut down to
// positions, the others decode the pages holding rows alone.
func (r *File) readSelected(ctx context.Context, i int, sl slots, idx *rowGroupIndex, arrs []arrow.Array, positions, rows pageindex.Ranges) ([]arrow.Array, error) {
	out := make([]arrow.Array, len(r.Cols))
	var rest []int
	for c := range r.Cols {
		if arrs[c] == nil {
			rest = append(rest, c)
			continue
		}
		arrs[c].Retain()
		var err error
		if out[c], err = TakeRanges(arrs[c], positions, r.Options.Mem); err != nil {
			ReleaseArrays(out)
			return nil, err
		}
	}
	if err := r.decodeColumns(ctx, i, sl, rest, idx, rows, out); err != nil {
		ReleaseArrays(out)
		return nil, err
	}
	return out, nil
}

// decodeColumns decodes the rows of ranges of the filter's columns cols
// (indexes into its cols, each decoded once into dst[c]) of row group i:
// the pages of all of them read in one planned round of requests, then
// decoded as decodePlanned does.
func (r *File) decodeColumns(ctx context.Context, i int, sl slots, cols []int, idx *rowGroupIndex, ranges pageindex.Ranges, dst []arrow.Array) error {
	todo, plans, err := r.planColumns(i, cols, idx, ranges, dst)
	if err != nil {
		return err
	}
	return r.decodePlanned(ctx, i, sl, todo, plans, ranges, dst, func(bufs *[][]byte) error { return r.readColumnPages(ctx, plans, bufs) })
}

// planColumns returns the filter's columns of cols not yet decoded in
// dst (all when dst is nil), each once, and plans the read of their pages
// over the rows ranges of row group i.
func (r *File) planColumns(i int, cols []int, idx *rowGroupIndex, ranges pageindex.Ranges, dst []arrow.Array) ([]int, []*columnPages, error) {
	var todo []int
	for _, c := range cols {
		if (dst == nil || dst[c] == nil) && !slices.Contains(todo, c) {
			todo = append(todo, c)
		}
	}
	plans := make([]*columnPages, len(todo))
	for k, c := range todo {
		var err error
		if plans[k], err = r.planColumnPages(i, r.filter.cols[c], idx, ranges); err != nil {
			return nil, nil, err
		}
	}
	return todo, plans, nil
}

// decodePlanned reads the planned pages plans of the filter's columns
// todo with read, then decodes the rows of ranges of each into dst on the
// calling goroutine, which holds one of sl, and one helper for each other
// slot free (at most one per column).
func (r *File) decodePlanned(ctx context.Context, i int, sl slots, todo []int, plans []*columnPages, ranges pageindex.Ranges, dst []arrow.Array, read func(bufs *[][]byte) error) error {
	var bufs [][]byte
	defer func() {
		for _, b := range bufs {
			arrowmem.PutBytes(b)
		}
	}()
	if err := read(&bufs); err != nil {
		return fmt.Errorf("row group %d: %w", i, err)
	}
	errs := make([]error, len(todo))
	work := func(k int) {
		if errs[k] = ctx.Err(); errs[k] == nil {
			dst[todo[k]], errs[k] = r.decodeColumnPages(plans[k], ranges)
		}
	}
	var next atomic.Int64
	loop := func() {
		for k := int(next.Add(1) - 1); k < len(todo); k = int(next.Add(1) - 1) {
			work(k)
		}
	}
	var wg sync.WaitGroup
	for extra := 1; extra < len(todo) && sl.tryTake(); extra++ {
		wg.Go(func() {
			defer sl.give()
			loop()
		})
	}
	loop()
	wg.Wait()
	return errors.Join(errs...)
}

// selectedPositions returns the runs of true in sel.
func selectedPositions(sel []bool) pageindex.Ranges {
	var out pageindex.Ranges
	start := -1
	for k, s := range sel {
		switch {
		case s && start < 0:
			start = k
		case !s && start >= 0:
			out = append(out, pageindex.Range{Start: int64(start), End: int64(k)})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, pageindex.Range{Start: int64(start), End: int64(len(sel))})
	}
	return out
}

// ReleaseArrays releases the non-nil arrays of arrs.
func ReleaseArrays(arrs []arrow.Array) {
	for _, a := range arrs {
		if a != nil {
			a.Release()
		}
	}
}

// setFiltered makes the group return cols, the projected columns over
// rows, taking them over (nil cols means no rows), and returns it.
func (g *Group) setFiltered(r *File, cols []arrow.Array, rows pageindex.Ranges) *Group {
	if cols == nil {
		mem := r.Options.Mem
		cols = make([]arrow.Array, len(r.Cols))
		for c := range cols {
			cols[c] = arrowmem.NullArray(mem, r.schema.Field(c).Type, 0)
		}
	}
	defer ReleaseArrays(cols)
	g.filtered = array.NewRecordBatch(r.schema, cols, rows.Rows())
	g.Rows = rows.Rows()
	return g
}

// TakeRanges returns the rows of arr at positions, in order, in an array
// allocated from mem, taking over the caller's reference to arr.
func TakeRanges(arr arrow.Array, positions pageindex.Ranges, mem memory.Allocator) (arrow.Array, error) {
	if len(positions) == 1 && positions[0].Start == 0 && positions[0].End == int64(arr.Len()) {
		return arr, nil
	}
	defer arr.Release()
	if len(positions) == 0 {
		return array.NewSlice(arr, 0, 0), nil
	}
	if len(positions) > 1 {
		if out, ok := gatherRanges(arr, positions, int(positions.Rows()), mem); ok {
			return out, nil
		}
	}
	parts := make([]arrow.Array, len(positions))
	for k, s := range positions {
		parts[k] = array.NewSlice(arr, s.Start, s.End)
	}
	defer ReleaseArrays(parts)
	if len(parts) == 1 {
		parts[0].Retain()
		return parts[0], nil
	}
	out, err := arrowmem.Concatenate(parts, mem)
	if err != nil {
		return nil, fmt.Errorf("arrowio: gathering filtered rows: %w", err)
	}
	return out, nil
}

// readFiltered returns the next n rows of a filtered group.
func (g *Group) readFiltered(n int) (arrow.RecordBatch, error) {
	if int64(n) > g.Rows-g.pos {
		return nil, fmt.Errorf("arrowio: %d rows asked, the filtered row group has %d left", n, g.Rows-g.pos)
	}
	rec := g.filtered.NewSlice(g.pos, g.pos+int64(n))
	g.pos += int64(n)
	return rec, nil
}

// readBlooms reads the bloom filters of the predicate columns that = or
// IN can prune by, when the chunk has one. A filter in a layout this
// package does not read is left out; a corrupt one is an error.
func (r *File) readBlooms(rg *footer.RowGroup, i int) ([]*pageindex.Bloom, error) {
	leaves := r.filter.bound.Leaves()
	out := make([]*pageindex.Bloom, len(leaves))
	for c, leaf := range leaves {
		md := rg.Columns[leaf.Column].MetaData
		if md == nil || !r.filter.bound.UsesBloom(c) {
			continue
		}
		b, err := r.readBloom(i, leaf, md)
		switch {
		case errors.Is(err, pageindex.ErrUnsupported):
			continue
		case err != nil:
			return nil, err
		}
		out[c] = b
	}
	return out, nil
}
