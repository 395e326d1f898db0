package scan

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// RecordReader is arrowio's Reader.RecordReader.
func (r *File) RecordReader(ctx context.Context) (array.RecordReader, error) {
	if err := r.enter(); err != nil {
		return nil, err
	}
	par := r.Options.Parallelism
	rr := &recordReader{r: r, ctx: ctx, batch: r.Options.BatchSize, par: par, slots: newSlots(par)}
	if r.filter == nil {
		rr.pf = r.newPrefetcher(ctx, r.groups)
	}
	rr.refs.Store(1)
	return rr, nil
}

// opened is a row group opened in the background, or why it failed.
type opened struct {
	g   *Group
	err error
}

type recordReader struct {
	refs  atomic.Int64
	r     *File
	ctx   context.Context
	batch int
	par   int
	slots slots       // a filtered open decodes on these: the opening goroutine's and free ones
	pf    *prefetcher // nil when the File reads without one; a filtered read's starts after fetchIndexes
	// indexed ends the reader's use of what fetchIndexes fetched; nil
	// until the first group opens.
	indexed func()

	next     int         // index into r.groups of the next group to open
	cur      *Group      // the group batches come from
	left     int64       // rows of cur not yet returned
	prefetch chan opened // the group after cur, when prefetching
	rec      arrow.RecordBatch
	err      error
	done     bool
}

func (rr *recordReader) Retain() { rr.refs.Add(1) }

// Release drops a reference; the last one releases the current batch,
// waits for a prefetch in flight and lets the Reader close.
func (rr *recordReader) Release() {
	if rr.refs.Add(-1) != 0 {
		return
	}
	rr.finish()
}

func (rr *recordReader) Schema() *arrow.Schema { return rr.r.schema }

// RecordBatch returns the current batch, valid until the next Next.
func (rr *recordReader) RecordBatch() arrow.RecordBatch { return rr.rec }

// Record returns the current batch.
//
// Deprecated: use RecordBatch.
func (rr *recordReader) Record() arrow.RecordBatch { return rr.rec }

// Err returns the error that stopped the reader, nil at a clean end.
func (rr *recordReader) Err() error { return rr.err }

// Next decodes the next batch; it returns false at the end or on error.
func (rr *recordReader) Next() bool {
	if rr.rec != nil {
		rr.rec.Release()
		rr.rec = nil
	}
	if rr.done {
		return false
	}
	for rr.cur == nil || rr.left == 0 {
		if !rr.advance() {
			rr.finish()
			return false
		}
	}
	n := int(min(rr.left, int64(rr.batch)))
	if m := rr.cur.MaxBatch; m > 0 {
		n = int(min(int64(n), m))
	}
	rec, err := rr.cur.Read(rr.ctx, n, rr.par)
	if err != nil {
		rr.err = err
		rr.finish()
		return false
	}
	rr.left -= int64(n)
	rr.rec = rec
	return true
}

// advance moves to the next selected row group, starting the prefetch of
// the one after it. It returns false at the end or on error.
func (rr *recordReader) advance() bool {
	if err := rr.ctx.Err(); err != nil {
		rr.err = err
		return false
	}
	if rr.indexed == nil {
		if rr.indexed, rr.err = rr.r.fetchIndexes(rr.ctx, rr.r.groups); rr.err != nil {
			return false
		}
		if rr.r.filter != nil {
			rr.pf = rr.r.newPrefetcher(rr.ctx, rr.r.groups)
		}
	}
	if rr.cur != nil {
		// Released before the next group opens: its bytes may be what the
		// prefetcher waits for to fetch the next one's.
		rr.cur.Release()
		rr.cur = nil
	}
	var o opened
	switch {
	case rr.prefetch != nil:
		o = <-rr.prefetch
		rr.prefetch = nil
	case rr.next < len(rr.r.groups):
		rr.slots.take()
		o.g, o.err = rr.r.openAt(rr.ctx, rr.pf, rr.next, rr.r.groups[rr.next], rr.slots)
		rr.slots.give()
		rr.next++
	default:
		return false
	}
	if o.err != nil {
		rr.err = o.err
		return false
	}
	rr.cur, rr.left = o.g, o.g.Rows
	if rr.par > 1 && rr.next < len(rr.r.groups) {
		ch := make(chan opened, 1)
		rr.prefetch = ch
		pos := rr.next
		rr.next++
		rr.r.active.Add(1)
		go func() {
			defer rr.r.active.Done()
			rr.slots.take()
			g, err := rr.r.openAt(rr.ctx, rr.pf, pos, rr.r.groups[pos], rr.slots)
			rr.slots.give()
			ch <- opened{g, err}
		}()
	}
	return true
}

// finish ends the reader once: it waits for a prefetch in flight and
// lets the Reader close.
func (rr *recordReader) finish() {
	if rr.done {
		return
	}
	rr.done = true
	if rr.rec != nil {
		rr.rec.Release()
		rr.rec = nil
	}
	if rr.pf != nil {
		rr.pf.cancel() // a prefetch waiting for its bytes returns
	}
	if rr.prefetch != nil {
		if o := <-rr.prefetch; o.g != nil {
			o.g.Release()
		}
		rr.prefetch = nil
	}
	if rr.cur != nil {
		rr.cur.Release()
		rr.cur = nil
	}
	rr.pf.stop()
	if rr.indexed != nil {
		rr.indexed()
	}
	rr.r.active.Done()
}

// ReadTable is arrowio's Reader.ReadTable.
func (r *File) ReadTable(ctx context.Context) (arrow.Table, error) {
	if err := r.enter(); err != nil {
		return nil, err
	}
	defer r.active.Done()
	recs := make([][]arrow.RecordBatch, len(r.groups)) // each group's batches
	defer func() {
		for _, rs := range recs {
			for _, rec := range rs {
				rec.Release()
			}
		}
	}()
	done, err := r.fetchIndexes(ctx, r.groups)
	if err != nil {
		return nil, err
	}
	defer done()
	par := r.Options.Parallelism
	colPar, workers := par, 1
	if par > 1 && len(r.groups) > 1 {
		colPar, workers = 1, min(par, len(r.groups))
	}
	errs := make([]error, len(r.groups))
	sl := newSlots(par) // each row-group worker holds one; a filtered open may use the free ones
	pf := r.newPrefetcher(ctx, r.groups)
	defer pf.stop()
	readOne := func(i int) {
		g, err := r.openAt(ctx, pf, i, r.groups[i], sl)
		if err != nil {
			errs[i] = err
			return
		}
		recs[i], errs[i] = g.readAll(ctx, colPar)
		g.Release()
	}
	if workers == 1 {
		sl.take()
		defer sl.give()
		for i := range r.groups {
			if readOne(i); errs[i] != nil {
				return nil, errs[i]
			}
		}
	} else {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				sl.take()
				defer sl.give()
				for i := int(next.Add(1) - 1); i < len(r.groups); i = int(next.Add(1) - 1) {
					if ctx.Err() != nil {
						errs[i] = ctx.Err()
						return
					}
					readOne(i)
				}
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
	}
	return array.NewTableFromRecords(r.schema, slices.Concat(recs...)), nil
}

// readAll reads every row of g: one batch, or batches of MaxBatch rows.
func (g *Group) readAll(ctx context.Context, par int) ([]arrow.RecordBatch, error) {
	step := g.Rows
	if g.MaxBatch > 0 {
		step = g.MaxBatch
	}
	var out []arrow.RecordBatch
	for left := g.Rows; left > 0 || len(out) == 0; left -= step {
		rec, err := g.Read(ctx, int(min(left, step)), par)
		if err != nil {
			for _, r := range out {
				r.Release()
			}
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}
