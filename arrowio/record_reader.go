package arrowio

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// RecordReader returns a reader of the selected row groups in batches of
// at most BatchSize rows; a batch never spans two row groups. With
// Parallelism above 1 the next row group's bytes are fetched while the
// current one decodes, and columns decode concurrently.
//
// The returned reader owns each batch until the next call to Next (callers
// that keep one Retain it) and must be Released. Cancelling ctx stops it:
// Next returns false and Err the context's error.
func (r *Reader) RecordReader(ctx context.Context) (array.RecordReader, error) {
	if err := r.enter(); err != nil {
		return nil, err
	}
	par := r.opts.parallelism()
	rr := &recordReader{r: r, ctx: ctx, batch: r.opts.batchSize(), par: par, slots: newSlots(par)}
	rr.refs.Store(1)
	return rr, nil
}

// opened is a row group opened in the background, or why it failed.
type opened struct {
	g   *group
	err error
}

type recordReader struct {
	refs  atomic.Int64
	r     *Reader
	ctx   context.Context
	batch int
	par   int
	slots slots // a filtered open decodes on these: the opening goroutine's and free ones

	next     int         // index into r.groups of the next group to open
	cur      *group      // the group batches come from
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
	rec, err := rr.cur.read(rr.ctx, n, rr.par)
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
	var o opened
	switch {
	case rr.prefetch != nil:
		o = <-rr.prefetch
		rr.prefetch = nil
	case rr.next < len(rr.r.groups):
		rr.slots.take()
		o.g, o.err = rr.r.openGroup(rr.ctx, rr.r.groups[rr.next], rr.slots)
		rr.slots.give()
		rr.next++
	default:
		return false
	}
	if o.err != nil {
		rr.err = o.err
		return false
	}
	if rr.cur != nil {
		rr.cur.release()
	}
	rr.cur, rr.left = o.g, o.g.rows
	if rr.par > 1 && rr.next < len(rr.r.groups) {
		ch := make(chan opened, 1)
		rr.prefetch = ch
		gi := rr.r.groups[rr.next]
		rr.next++
		rr.r.active.Add(1)
		go func() {
			defer rr.r.active.Done()
			rr.slots.take()
			g, err := rr.r.openGroup(rr.ctx, gi, rr.slots)
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
	if rr.prefetch != nil {
		if o := <-rr.prefetch; o.g != nil {
			o.g.release()
		}
		rr.prefetch = nil
	}
	if rr.cur != nil {
		rr.cur.release()
		rr.cur = nil
	}
	rr.r.active.Done()
}

// ReadTable reads the selected row groups into a table whose columns are
// chunked by row group. The caller releases it.
//
// With Parallelism above 1, row groups decode concurrently (each on one
// goroutine, filtered or not) when there are several, and the columns of a
// single row group decode concurrently otherwise; a filtered row group
// decodes its columns on the goroutines not busy with other groups, so no
// more than Parallelism goroutines decode at once. The result is the same
// either way.
func (r *Reader) ReadTable(ctx context.Context) (arrow.Table, error) {
	if err := r.enter(); err != nil {
		return nil, err
	}
	defer r.active.Done()
	recs := make([]arrow.RecordBatch, len(r.groups))
	defer func() {
		for _, rec := range recs {
			if rec != nil {
				rec.Release()
			}
		}
	}()
	par := r.opts.parallelism()
	colPar, workers := par, 1
	if par > 1 && len(r.groups) > 1 {
		colPar, workers = 1, min(par, len(r.groups))
	}
	errs := make([]error, len(r.groups))
	sl := newSlots(par) // each row-group worker holds one; a filtered open may use the free ones
	readOne := func(i int) {
		g, err := r.openGroup(ctx, r.groups[i], sl)
		if err != nil {
			errs[i] = err
			return
		}
		recs[i], errs[i] = g.read(ctx, int(g.rows), colPar)
		g.release()
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
	return array.NewTableFromRecords(r.schema, recs), nil
}
