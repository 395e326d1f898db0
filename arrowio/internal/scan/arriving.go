package scan

import (
	"context"
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/colread"
)

// arriving holds the chunks of a group a prefetcher fetches while their
// bytes come in: a column's reader opens (Group.load) as soon as the
// requests that read its own chunks have returned, while the other
// columns' are still in flight, and Group.Read decodes the columns in
// the order their bytes arrive.
type arriving struct {
	r       *File
	ctx     context.Context // the prefetcher's: done when its read ends
	lg      *locatedGroup
	fetches []*fetch
	of      []int         // the fetch of each chunk
	first   []int         // the first chunk of each column, then len(chunks)
	notify  chan struct{} // signalled as each request of fetches returns
}

// newArriving returns the arriving chunks of lg, whose chunk k is read by
// fetches[of[k]].
func newArriving(r *File, ctx context.Context, lg *locatedGroup, fetches []*fetch, of []int, notify chan struct{}) *arriving {
	a := &arriving{r: r, ctx: ctx, lg: lg, fetches: fetches, of: of, notify: notify, first: make([]int, 0, len(r.Cols)+1)}
	k := 0
	for _, col := range r.Cols {
		a.first = append(a.first, k)
		k += col.numLeaves()
	}
	a.first = append(a.first, k)
	return a
}

// in reports whether the bytes of column c's chunks are all in (or their
// requests failed).
func (a *arriving) in(c int) bool {
	for k := a.first[c]; k < a.first[c+1]; k++ {
		if !a.fetches[a.of[k]].rangeIn(a.lg.spans[k]) {
			return false
		}
	}
	return true
}

// open waits for the bytes of column c's chunks and returns its reader
// over them.
func (a *arriving) open(c int) (colread.Reader, error) {
	lg := a.lg
	from, to := a.first[c], a.first[c+1]
	for k := from; k < to; k++ {
		f := a.fetches[a.of[k]]
		if err := a.r.waitRange(a.ctx, f, lg.spans[k]); err != nil {
			return nil, fmt.Errorf("row group %d: %w", lg.index, err)
		}
		lg.chunks[k].Data = f.bytesOf(lg.spans[k])
	}
	l, _, err := a.r.openColumn(a.r.Cols[c], lg.index, lg.chunks[from:to], lg.rows, lg.crypts[from:to])
	return l, err
}

// inArrivalOrder calls do with each column of g: in column order when
// their bytes are all in, and otherwise each as soon as its bytes are,
// waiting for requests to return while none of those left is (or until
// ctx or the prefetcher's read is done, when it calls do with the rest,
// whose load fails).
func (g *Group) inArrivalOrder(ctx context.Context, do func(c int)) {
	a := g.arriving
	if a == nil {
		for c := range g.Readers {
			do(c)
		}
		return
	}
	called := make([]bool, len(g.Readers))
	for left := len(called); left > 0; {
		any := false
		stop := ctx.Err() != nil || a.ctx.Err() != nil
		for c := range called {
			if !called[c] && (stop || g.Readers[c] != nil || a.in(c)) {
				called[c] = true
				left--
				any = true
				do(c)
			}
		}
		if !any {
			select {
			case <-a.notify:
			case <-ctx.Done():
			case <-a.ctx.Done():
			}
		}
	}
}
