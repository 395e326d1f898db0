package scan

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/quiverio/quiver/arrowio/internal/colread"
	"github.com/quiverio/quiver/internal/arrowmem"
)

// prefetcher fetches the projected chunks of the row groups one read
// visits (a RecordReader, a ReadTable, a ReadRowGroup of a file read
// through Open) in the order it visits them, ahead of their decoding, or,
// for a row group a filter reads by its pages, the pages of the
// predicate's columns that its statistics, bloom filters, dictionaries
// and page index leave (planFiltered, from what fetchIndexes cached, so
// that it runs before the prefetcher starts): the pages of the other
// projected columns depend on the rows the predicate selects, and are
// read once it has. One goroutine plans each group's spans and starts their
// requests (up to the File's Concurrency in flight) as long as the bytes
// fetched and not yet released stay within PrefetchBytes; a row group
// whose projection is larger than that is fetched only when nothing else
// is held. Decoding a column waits for the requests that read its own
// chunks alone, so a row group's columns decode as their bytes arrive
// while the rest of the group, and groups k+1..., are fetched; releasing
// a group (Group.Release) frees its bytes for the groups after it once
// its requests have all returned.
type prefetcher struct {
	r      *File
	ctx    context.Context
	cancel context.CancelFunc
	groups []*plannedGroup // in the order the read opens them
	ramp   *ramp           // sizes run's requests
	exited chan struct{}   // closed when run returns
	freed  chan struct{}   // signalled when held bytes are released

	mu       sync.Mutex
	held     int64 // bytes fetched or in flight and not yet released
	stopping bool
}

// plannedGroup is one row group of a prefetcher's read. The fields after
// launched are written by run before it closes launched.
type plannedGroup struct {
	gi       int
	taken    bool          // by open or stop, under prefetcher.mu
	notify   chan struct{} // signalled as each request of fetches returns
	launched chan struct{}
	lg       *locatedGroup // of a group read whole
	filtered bool          // the filter reads the group by its pages
	plan     *filteredPlan // then, its plan
	want     []wanted      // the ranges of plan's pages, in order
	err      error         // planning the group, or starting its fetches
	fetches  []*fetch
	of       []int // the fetch of each chunk
	held     int64 // bytes of fetches, released with the group
}

// newPrefetcher starts fetching the chunks of row groups groups, in
// order, for a read under ctx; nil when the File reads another way (local
// files read by OpenFile, whose chunks are read as their columns decode
// or sliced from a mapping). A filtered read starts it after
// fetchIndexes. stop ends it.
func (r *File) newPrefetcher(ctx context.Context, groups []int) *prefetcher {
	if r.ChunkReads || r.mapped != nil {
		return nil
	}
	pf := &prefetcher{r: r, exited: make(chan struct{}), freed: make(chan struct{}, 1),
		ramp: newRamp(time.Duration(r.io.rtt.Load()), r.Options.IO.RangeLimit)}
	pf.ctx, pf.cancel = context.WithCancel(ctx)
	for _, gi := range groups {
		pf.groups = append(pf.groups, &plannedGroup{gi: gi, launched: make(chan struct{}), notify: make(chan struct{}, 1)})
	}
	r.active.Add(1)
	go func() {
		defer r.active.Done()
		defer close(pf.exited)
		pf.run()
	}()
	return pf
}

// run plans and starts the fetches of every group in turn.
func (pf *prefetcher) run() {
	r := pf.r
	for _, pg := range pf.groups {
		if pf.ctx.Err() != nil {
			pg.err = pf.ctx.Err()
			close(pg.launched)
			continue
		}
		var spans []span
		if spans, pg.err = pf.plan(pg); pg.err == nil {
			for _, s := range spans {
				n := s.End - s.Start
				if _, ok := r.suffix.find(s.Start, n); ok {
					n = 0 // held by the File already
				}
				if !pf.hold(n, pg.held) {
					pg.err = pf.ctx.Err()
					break
				}
				pg.held += n
				pg.fetches = append(pg.fetches, r.start(pf.ctx, s, false, pf.ramp.cut, pg.notify))
			}
		}
		close(pg.launched)
	}
}

// plan plans the spans of pg's fetches: its projected chunks, or the
// predicate's pages of a group the filter reads by its pages.
func (pf *prefetcher) plan(pg *plannedGroup) ([]span, error) {
	r := pf.r
	var err error
	if pg.filtered = r.filter != nil && !r.filter.holdsForAll(&r.Footer.Meta.RowGroups[pg.gi]); pg.filtered {
		if pg.plan, err = r.planFiltered(pf.ctx, pg.gi); err != nil {
			return nil, err
		}
		pg.want = pagesWanted(pg.plan.plans)
	} else {
		if pg.lg, err = r.locateGroup(pg.gi); err != nil {
			return nil, err
		}
		pg.want = named(pg.lg.spans, pg.lg.leaves)
	}
	var spans []span
	spans, pg.of = planSpans(pg.want, r.Options.IO.HoleLimit)
	return spans, nil
}

// hold reserves n bytes of the budget for a group that holds own bytes
// already, waiting for released ones while the bytes held and n would
// exceed PrefetchBytes, unless the group's own are all that is held (a
// group larger than the budget is fetched alone, as its decoding needs
// all of it); false when the read ends first.
func (pf *prefetcher) hold(n, own int64) bool {
	for {
		pf.mu.Lock()
		if pf.held == own || pf.held+n <= pf.r.Options.IO.PrefetchBytes {
			pf.held += n
			pf.mu.Unlock()
			pf.r.io.buffer(n)
			return true
		}
		pf.mu.Unlock()
		select {
		case <-pf.freed:
		case <-pf.ctx.Done():
			return false
		}
	}
}

// release gives n held bytes back to the budget.
func (pf *prefetcher) release(n int64) {
	if n == 0 {
		return
	}
	pf.mu.Lock()
	pf.held -= n
	pf.mu.Unlock()
	pf.r.io.buffer(-n)
	select {
	case pf.freed <- struct{}{}:
	default:
	}
}

// open returns the group at position pos of the read once its fetches
// have started: each column's reader opens when the bytes of its own
// chunks are in (see arriving), and the group's Release frees the bytes.
// A group the filter reads by its pages decodes here (see openFiltered),
// on the calling goroutine, which holds one of sl, and helpers for the
// free ones.
func (pf *prefetcher) open(pos int, sl slots) (*Group, error) {
	pg := pf.groups[pos]
	pf.mu.Lock()
	if pf.stopping || pg.taken {
		pf.mu.Unlock()
		return nil, fmt.Errorf("arrowio: row group %d opened after its read ended", pg.gi)
	}
	pg.taken = true
	pf.mu.Unlock()
	if err := pf.launched(pg); err != nil {
		pf.drop(pg)
		return nil, err
	}
	if pg.plan != nil {
		return pf.openFiltered(pg, sl)
	}
	r, lg := pf.r, pg.lg
	for k := range lg.chunks {
		r.io.used.Add(lg.spans[k].End - lg.spans[k].Start)
	}
	g := r.newGroup(lg)
	g.Readers = make([]colread.Reader, len(r.Cols))
	g.arriving = newArriving(r, pf.ctx, lg, pg.fetches, pg.of, pg.notify)
	fetches, held := pg.fetches, pg.held
	g.done = func() { pf.giveBack(fetches, held) }
	return g, nil
}

// openFiltered reads the group of pg, whose plan the filter reads by its
// pages: the predicate's pages come from pg's fetches as they return,
// which go back to the budget once those pages are decoded, and the rest
// as readPlanned reads them.
func (pf *prefetcher) openFiltered(pg *plannedGroup, sl slots) (*Group, error) {
	r, p := pf.r, pg.plan
	defer p.release()
	fetches, held := pg.fetches, pg.held
	p.free = func() { pf.giveBack(fetches, held) }
	read := func(bufs *[][]byte) error {
		got := make([][]byte, len(pg.want))
		for k, w := range pg.want {
			f := pg.fetches[pg.of[k]]
			if err := r.waitRange(pf.ctx, f, w.ByteRange); err != nil {
				return err
			}
			r.io.used.Add(w.End - w.Start)
			got[k] = f.bytesOf(w.ByteRange)
		}
		return r.setPages(p.plans, got, bufs)
	}
	return r.readPlanned(pf.ctx, p, sl, read)
}

// launched waits until run has started pg's fetches and returns why it
// could not, if it could not.
func (pf *prefetcher) launched(pg *plannedGroup) error {
	select {
	case <-pg.launched:
	default:
		start := time.Now()
		select {
		case <-pg.launched:
		case <-pf.ctx.Done():
		}
		pf.r.io.waited(start)
		if pf.ctx.Err() != nil {
			return pf.ctx.Err()
		}
	}
	if pg.err != nil && pg.filtered { // planFiltered's errors name the group
		return pg.err
	}
	if pg.err != nil {
		return fmt.Errorf("row group %d: %w", pg.gi, pg.err)
	}
	return nil
}

// drop gives back the bytes of pg, whose chunks will not be decoded: the
// buffers whose requests have all returned go back to the pool, the others
// to the garbage collector once their requests return.
func (pf *prefetcher) drop(pg *plannedGroup) {
	select {
	case <-pg.launched:
	default:
		return // run has not reached it: nothing is held
	}
	pf.giveBack(pg.fetches, pg.held)
	pg.fetches, pg.held = nil, 0
	if pg.plan != nil {
		pg.plan.release()
	}
}

// giveBack hands the buffers of fetches back to the pool and their n held
// bytes back to the budget once all their requests have returned: at once
// when they have, or else on a goroutine that waits for them (as Close
// does), so that bytes still in flight count against PrefetchBytes.
func (pf *prefetcher) giveBack(fetches []*fetch, n int64) {
	put := func() {
		for _, f := range fetches {
			if !f.suffix {
				arrowmem.PutBytes(f.buf)
			}
		}
		pf.release(n)
	}
	if !slices.ContainsFunc(fetches, func(f *fetch) bool { return !f.complete() }) {
		put()
		return
	}
	pf.r.active.Add(1)
	go func() {
		defer pf.r.active.Done()
		for _, f := range fetches {
			<-f.done
		}
		put()
	}()
}

// stop ends the read: requests not yet started are not, waiting ends, and
// the groups not opened give their bytes back. The requests in flight
// return on their own (Close waits for them).
func (pf *prefetcher) stop() {
	if pf == nil {
		return
	}
	pf.cancel()
	<-pf.exited
	pf.mu.Lock()
	pf.stopping = true
	var left []*plannedGroup
	for _, pg := range pf.groups {
		if !pg.taken {
			pg.taken = true
			left = append(left, pg)
		}
	}
	pf.mu.Unlock()
	for _, pg := range left {
		pf.drop(pg)
	}
}
