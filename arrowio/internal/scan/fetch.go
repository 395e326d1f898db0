package scan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quiverio/quiver/internal/arrowmem"
	"github.com/quiverio/quiver/pageindex"
)

// The read planner turns the byte ranges a read wants into requests: ranges
// whose gap is at most IOOptions.HoleLimit merge into one span, read into
// one buffer; a span longer than RangeLimit is fetched in pieces of about
// equal size, each a request of its own into its part of the buffer; and a
// File keeps at most Concurrency requests in flight across all its reads.
// readRanges waits for the spans it plans; a prefetcher (prefetch.go)
// fetches the row groups of a whole read ahead of their decoding.

// wanted is a byte range a read wants and the column it is for, which
// errors name.
type wanted struct {
	pageindex.ByteRange
	column string
}

// span is a planned read: the merged byte range and the wanted ranges in
// it, in file order.
type span struct {
	pageindex.ByteRange
	parts []wanted
	last  int64 // the length of the last range merged in
}

// planSpans merges the ranges of want whose gap is at most hole, and at
// most the length of the longer of the two, into spans (in file order)
// and returns, for each range of want, the index of its span. Empty
// ranges are planned like the others.
//
// The second bound keeps small ranges far apart (the page indexes,
// dictionaries or pages of a filtered read) from pulling in the bytes
// between them: requests run side by side, so a hole read costs transfer
// time where a request of its own costs none.
func planSpans(want []wanted, hole int64) ([]span, []int) {
	order := make([]int, len(want))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpInt64(want[a].Start, want[b].Start) })
	var spans []span
	of := make([]int, len(want))
	for _, k := range order {
		w := want[k]
		if n := len(spans); n > 0 && w.Start <= spans[n-1].End+min(hole, max(w.End-w.Start, spans[n-1].last)) {
			s := &spans[n-1]
			s.End = max(s.End, w.End)
			s.parts = append(s.parts, w)
			s.last = w.End - w.Start
		} else {
			spans = append(spans, span{ByteRange: w.ByteRange, parts: []wanted{w}, last: w.End - w.Start})
		}
		of[k] = len(spans) - 1
	}
	return spans, of
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// pieces splits [start, end) into the fewest pieces of at most limit
// bytes (no limit when it is not positive), of about equal size.
func pieces(start, end, limit int64) []pageindex.ByteRange {
	if limit <= 0 {
		limit = max(end-start, 1)
	}
	n := max((end-start+limit-1)/limit, 1)
	size := (end - start + n - 1) / n
	out := make([]pageindex.ByteRange, 0, n)
	for s := start; s < end || len(out) == 0; s += size {
		out = append(out, pageindex.ByteRange{Start: s, End: min(s+size, end)})
	}
	return out
}

// fetch is a span being read into buf, a pooled buffer, by requests of
// RangeLimit bytes at most. done closes once every request has returned,
// after err is set to the first failure: only then may buf go back to
// the pool, as a request still running writes into it. Each request's
// piece has its own done and error, so that a reader of part of the span
// waits only for the pieces it overlaps (waitRange).
type fetch struct {
	span
	buf []byte
	// suffix is set when buf is a slice of the footer's first read
	// (File.suffix), which no request fills and the pool never gets.
	suffix bool
	pieces []piece
	// notify, when set, is signalled (without blocking) as each piece
	// returns.
	notify chan struct{}
	left   atomic.Int32 // requests that have not returned
	done   chan struct{}
	mu     sync.Mutex
	err    error
}

// piece is the part of a fetch's span one request reads; done closes
// when it has returned, after err is set if it failed.
type piece struct {
	pageindex.ByteRange
	done chan struct{}
	err  error
}

// start begins reading s: one request for each piece that cut returns
// (s in pieces of RangeLimit bytes at most when cut is nil), up to the
// File's Concurrency in flight, each on a goroutine of its own that Close
// waits for, or in the calling goroutine one after another when inline is
// set (local files, where a request costs no round trip: s is then one
// request). A request that cannot start because ctx is done fails with
// ctx's error. The caller waits with wait.
//
// notify, when not nil, is signalled without blocking as each request
// returns (see fetch.notify).
func (r *File) start(ctx context.Context, s span, inline bool, cut func(span) []pageindex.ByteRange, notify chan struct{}) *fetch {
	if b, ok := r.suffix.find(s.Start, s.End-s.Start); ok {
		f := &fetch{span: s, buf: b, suffix: true, done: make(chan struct{})}
		close(f.done)
		return f
	}
	f := &fetch{span: s, buf: arrowmem.GetBytes(int(s.End - s.Start)), done: make(chan struct{}), notify: notify}
	var ps []pageindex.ByteRange
	switch {
	case inline:
		ps = pieces(s.Start, s.End, 0)
	case cut != nil:
		ps = cut(s)
	default:
		ps = pieces(s.Start, s.End, r.Options.IO.RangeLimit)
	}
	f.pieces = make([]piece, len(ps))
	for i, p := range ps {
		f.pieces[i] = piece{ByteRange: p, done: make(chan struct{})}
	}
	f.left.Store(int32(len(ps)))
	for i := range f.pieces {
		p := &f.pieces[i]
		if inline {
			start := time.Now()
			f.finish(p, r.readPiece(ctx, f, p.ByteRange))
			r.io.waited(start)
			continue
		}
		select {
		case r.requests <- struct{}{}:
		case <-ctx.Done():
			f.finish(p, ctx.Err())
			continue
		}
		r.active.Add(1)
		go func() {
			defer r.active.Done()
			err := r.readPiece(ctx, f, p.ByteRange)
			<-r.requests
			f.finish(p, err)
		}()
	}
	return f
}

// readPiece reads the piece p of f's span from the source, counting the
// request and its bytes.
func (r *File) readPiece(ctx context.Context, f *fetch, p pageindex.ByteRange) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r.io.requests.Add(1)
	start := time.Now()
	n, err := r.raw.ReadAt(f.buf[p.Start-f.Start:p.End-f.Start], p.Start)
	r.io.timed(start)
	r.io.fetched.Add(int64(n))
	if int64(n) == p.End-p.Start {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// finish records the end of the request for piece p, failed with err
// (nil on success), closes its done, and f's after the last.
func (f *fetch) finish(p *piece, err error) {
	if err != nil {
		p.err = fmt.Errorf("reading bytes %d to %d for %s: %w", p.Start, p.End, f.columns(p.ByteRange), err)
		f.mu.Lock()
		if f.err == nil {
			f.err = p.err
		}
		f.mu.Unlock()
	}
	close(p.done)
	if f.left.Add(-1) == 0 {
		close(f.done)
	}
	if f.notify != nil {
		select {
		case f.notify <- struct{}{}:
		default:
		}
	}
}

// columns names the columns whose wanted ranges piece p overlaps.
func (f *fetch) columns(p pageindex.ByteRange) string {
	var names []string
	for _, w := range f.parts {
		if w.Start < p.End && w.End > p.Start && w.column != "" && !slices.Contains(names, w.column) {
			names = append(names, w.column)
		}
	}
	switch len(names) {
	case 0:
		return "the bytes between columns"
	case 1:
		return fmt.Sprintf("column %q", names[0])
	}
	return fmt.Sprintf("columns %q", names)
}

// wait returns once f's requests have all returned, with the first one's
// error, or when ctx is done, with ctx's error; the time blocked counts as
// waiting in the File's IOStats.
func (r *File) wait(ctx context.Context, f *fetch) error {
	select {
	case <-f.done:
		return f.err
	default:
	}
	defer r.io.waited(time.Now())
	select {
	case <-f.done:
		return f.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// waitRange returns once the requests of f that read bytes of w have all
// returned, with the first one's error, or when ctx is done, with ctx's
// error; the time blocked counts as waiting in the File's IOStats.
func (r *File) waitRange(ctx context.Context, f *fetch, w pageindex.ByteRange) error {
	for p := range f.overlapping(w) {
		select {
		case <-p.done:
		default:
			start := time.Now()
			select {
			case <-p.done:
			case <-ctx.Done():
			}
			r.io.waited(start)
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if p.err != nil {
			return p.err
		}
	}
	return nil
}

// rangeIn reports whether the requests of f that read bytes of w have all
// returned.
func (f *fetch) rangeIn(w pageindex.ByteRange) bool {
	for p := range f.overlapping(w) {
		select {
		case <-p.done:
		default:
			return false
		}
	}
	return true
}

// overlapping yields the pieces of f that read any byte of w.
func (f *fetch) overlapping(w pageindex.ByteRange) iter.Seq[*piece] {
	return func(yield func(*piece) bool) {
		for i := range f.pieces {
			if p := &f.pieces[i]; p.Start < w.End && p.End > w.Start && !yield(p) {
				return
			}
		}
	}
}

// complete reports whether every request of f has returned, so that its
// buffer may go back to the pool.
func (f *fetch) complete() bool {
	select {
	case <-f.done:
		return true
	default:
		return false
	}
}

// bytesOf returns the bytes of wanted range w of f.
func (f *fetch) bytesOf(w pageindex.ByteRange) []byte {
	return f.buf[w.Start-f.Start : w.End-f.Start : w.End-f.Start]
}

// readRanges reads every range of want, merging and splitting them into
// requests as the planner does (one after another for local files; a plan
// of fewer bytes than Concurrency requests of RangeLimit in requests of
// spreadLimit), and
// returns each range's bytes (slices of the merged buffers). Its bytes
// count as used in the File's IOStats.
//
// The merged buffers come from arrowmem.GetBytes and are appended to
// bufs, which the caller hands back to arrowmem.PutBytes when it no longer
// needs the ranges; on an error, a buffer a request may still write into
// is left to the garbage collector instead. When the file is mapped the
// ranges are slices of the mapping, and nothing is appended; reads of them
// go through mapping.guard.
func (r *File) readRanges(ctx context.Context, want []wanted, bufs *[][]byte) ([][]byte, error) {
	spans, of := planSpans(want, r.Options.IO.HoleLimit)
	out := make([][]byte, len(want))
	for _, w := range want {
		r.io.used.Add(w.End - w.Start)
	}
	if r.mapped != nil && (len(spans) == 0 || spans[len(spans)-1].End <= int64(len(r.mapped.data))) {
		for k, w := range want {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			populate(r.mapped.data, w.Start, w.End)
			out[k] = r.mapped.data[w.Start:w.End:w.End]
		}
		return out, nil
	}
	fetches := make([]*fetch, len(spans))
	limit := r.spreadLimit(spans)
	cut := func(s span) []pageindex.ByteRange { return pieces(s.Start, s.End, limit) }
	for s := range spans {
		if err := ctx.Err(); err != nil {
			r.putComplete(fetches[:s])
			return nil, err
		}
		fetches[s] = r.start(ctx, spans[s], r.ChunkReads, cut, nil)
	}
	var err error
	for _, f := range fetches {
		if err = r.wait(ctx, f); err != nil {
			break
		}
	}
	if err != nil {
		r.putComplete(fetches)
		return nil, err
	}
	for _, f := range fetches {
		if !f.suffix {
			*bufs = append(*bufs, f.buf)
		}
	}
	for k, w := range want {
		out[k] = fetches[of[k]].bytesOf(w.ByteRange)
	}
	return out, nil
}

// putComplete hands the buffers of fetches whose requests have all
// returned back to the pool.
func (r *File) putComplete(fetches []*fetch) {
	for _, f := range fetches {
		if f != nil && !f.suffix && f.complete() {
			arrowmem.PutBytes(f.buf)
		}
	}
}

// readFull fills buf from the file at offset off: from what fetchIndexes
// cached, or in one request whose bytes are all used.
func (r *File) readFull(buf []byte, off int64) error {
	if _, err := io.ReadFull(io.NewSectionReader(indexSource{r}, off, int64(len(buf))), buf); err != nil {
		return fmt.Errorf("reading %d bytes at offset %d: %w", len(buf), off, err)
	}
	return nil
}
