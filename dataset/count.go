package dataset

// This file holds CountRows and what it shares with Splits: a file's
// filter folded against its footer, and row groups judged by their
// statistics.

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// rowGroupMatch says, from the footer's statistics (less what the file's
// writer is known to get wrong), whether the rows of
// row group rg of a file all satisfy the file's residual filter b, none
// do, or some may. Nil b matches all.
func rowGroupMatch(b *pageindex.Bound, ft *footer.Footer, rg int) pageindex.Match {
	if b == nil {
		return pageindex.MatchAll
	}
	g := &ft.Meta.RowGroups[rg]
	leaves := b.Leaves()
	w := pageindex.ParseWriter(ft.Meta.CreatedBy.Or(""))
	return b.Match(func(col int) (pageindex.Pages, bool) {
		leaf := leaves[col]
		md := g.Columns[leaf.Column].MetaData
		if md == nil {
			return pageindex.Pages{}, false
		}
		return pageindex.Pages{FirstRows: []int64{0}, Stats: []pageindex.Stats{pageindex.ChunkStats(md, leaf, w)}}, true
	}, g.NumRows)
}

// fileFilter folds t's filter for the file whose footer is m: skip says no
// row can match; pred is what remains (nil: every row matches) and bound
// that bound to the file's schema (nil when it does not bind, which the
// read then reports).
func fileFilter(t *task, m *fileMeta, ro *arrowio.ReadOptions) (skip bool, pred pageindex.Predicate, bound *pageindex.Bound) {
	if t.filter == nil {
		return false, nil, nil
	}
	r := t.filter.residual(0, fileCols{m, readSchema(m, ro)})
	switch r.kind {
	case nodeFalse:
		return true, nil, nil
	case nodeTrue:
		return false, nil, nil
	}
	pred = r.predicate()
	bound, _ = pageindex.Bind(pred, m.ft.Schema)
	return false, pred, bound
}

// CountRows returns the number of rows a scan would return. Files the
// partitions rule out are not opened, and footers already cached are not
// read again; a row group is counted from its footer entry when the
// filter's conditions on data columns hold for all of its rows or for none
// by its statistics, and by reading the filter's columns otherwise.
func (d *Dataset) CountRows(ctx context.Context) (int64, error) {
	var total atomic.Int64
	err := d.forEach(ctx, len(d.selected), func(i int) error {
		t := d.task(d.selected[i])
		n, err := countTask(ctx, d.src, d.cache, t, &d.opts)
		if err != nil && isCorrupt(err) && d.opts.OnCorrupt != nil {
			err = d.opts.OnCorrupt(t.info.Path, err)
		}
		total.Add(n)
		return err
	})
	return total.Load(), err
}

func countTask(ctx context.Context, src Source, cache *FooterCache, t *task, opts *Options) (int64, error) {
	m, err := loadMeta(ctx, src, cache, t.info, nil, &opts.Read)
	if err != nil {
		return 0, err
	}
	skip, pred, bound := fileFilter(t, m, &opts.Read)
	if skip {
		return 0, nil
	}
	var n int64
	var decode []int
	for rg := range m.ft.Meta.RowGroups {
		switch rowGroupMatch(bound, m.ft, rg) {
		case pageindex.MatchAll:
			if pred == nil || bound != nil {
				n += m.ft.Meta.RowGroups[rg].NumRows
				continue
			}
			decode = append(decode, rg)
		case pageindex.MatchNone:
		default:
			decode = append(decode, rg)
		}
	}
	if len(decode) == 0 {
		return n, nil
	}
	h, err := src.Open(ctx, t.info.Path)
	if err != nil {
		return 0, fmt.Errorf("dataset: %s: %w", t.info.Path, err)
	}
	defer h.Close()
	ro := opts.Read
	ro.Columns, ro.RowGroups, ro.Filter = []string{}, decode, pred
	r, err := m.open(h, t.info.Size, ro)
	if err != nil {
		return 0, fmt.Errorf("dataset: %s: %w", t.info.Path, err)
	}
	defer r.Close()
	rr, err := r.RecordReader(ctx)
	if err != nil {
		return 0, fmt.Errorf("dataset: %s: %w", t.info.Path, err)
	}
	defer rr.Release()
	for rr.Next() {
		n += rr.RecordBatch().NumRows()
	}
	if err := rr.Err(); err != nil {
		return 0, fmt.Errorf("dataset: %s: %w", t.info.Path, err)
	}
	return n, nil
}
