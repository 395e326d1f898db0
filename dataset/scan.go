package dataset

// This file holds the scan: files read in parallel by a bounded set of
// workers, each file's batches adapted to the dataset's schema, and a
// bounded queue that hands them to the caller in order (or not).

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/arrowmem"
	"github.com/quiverio/quiver/pageindex"
)

// scanPlan is what every file of a scan shares: the output schema and
// where each of its fields comes from.
type scanPlan struct {
	schema   *arrow.Schema
	fields   []outField
	partKeys []int  // the dataset key of each partition field, in order
	from     string // the file the schema came from, for messages
}

// outField says where an output field comes from: a data column of the
// same name, or (part >= 0) the task's part-th partition value.
type outField struct{ part int }

// task is one file to read, or some of its row groups.
type task struct {
	info      FileInfo
	rowGroups []int         // nil: all
	parts     []arrow.Array // one value (an array of length 1) per partition field
	filter    *fnode        // the filter with partition conditions folded; nil: none
}

// sliceOne returns element i of a as an array of length 1.
func sliceOne(a arrow.Array, i int) arrow.Array { return array.NewSlice(a, int64(i), int64(i+1)) }

// loadMeta returns the footer of file fi from cache, or reads it through
// h, opening the file when h is nil.
func loadMeta(ctx context.Context, src Source, cache *FooterCache, fi FileInfo, h File, ro *arrowio.ReadOptions) (*fileMeta, error) {
	k := cacheKey{fi.Path, fi.Size, fi.ModTime.UnixNano(), ro.Decryption}
	if m := cache.get(k); m != nil {
		return m, nil
	}
	if h == nil {
		var err error
		if h, err = src.Open(ctx, fi.Path); err != nil {
			return nil, fmt.Errorf("dataset: %s: %w", fi.Path, err)
		}
		defer h.Close()
	}
	if h.Size() != fi.Size {
		return nil, fmt.Errorf("%w: %s is %d bytes, was %d", ErrChanged, fi.Path, h.Size(), fi.Size)
	}
	m, err := readMeta(h, fi.Size, ro.Decryption)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", fi.Path, err)
	}
	cache.put(k, m)
	return m, nil
}

// fileRead is how one file's batches become the dataset's.
type fileRead struct {
	plan  *scanPlan
	t     *task
	path  string
	mem   memory.Allocator
	ro    arrowio.ReadOptions // Columns, RowGroups and Filter set for the file
	src   []int               // per output field: column of the file's batches, or -1
	nulls []arrow.Array       // per output field missing from the file: nulls to slice
}

// fileCols is fileColumns for a file.
type fileCols struct {
	m      *fileMeta
	schema *arrow.Schema
}

func (c fileCols) has(path string) bool { return c.m.ft.Schema.LeafByPath(path) != nil }

func (c fileCols) typeOf(name string) (arrow.DataType, bool) {
	if idx := c.schema.FieldIndices(name); len(idx) > 0 {
		return c.schema.Field(idx[0]).Type, true
	}
	return nil, false
}

// prepare decides how to read task t's file, whose footer is m; it returns
// nil when the filter rules the whole file out.
func prepare(plan *scanPlan, t *task, m *fileMeta, ro arrowio.ReadOptions) (*fileRead, error) {
	fs := readSchema(m, &ro)
	ro.Filter = nil
	if t.filter != nil {
		switch r := t.filter.residual(0, fileCols{m, fs}); r.kind {
		case nodeFalse:
			return nil, nil
		case nodeTrue:
		default:
			ro.Filter = r.predicate()
		}
	}
	ro.Columns = []string{}
	for i, f := range plan.fields {
		if f.part >= 0 {
			continue
		}
		out := plan.schema.Field(i)
		idx := fs.FieldIndices(out.Name)
		if len(idx) == 0 {
			if !out.Nullable {
				return nil, fmt.Errorf("%w: %s has no column %q, which is not nullable in the dataset schema%s", ErrSchema, t.info.Path, out.Name, plan.fromText())
			}
			continue
		}
		if ft := fs.Field(idx[0]).Type; !canWiden(ft, out.Type) {
			return nil, fmt.Errorf("%w: column %q is %s in %s and %s in the dataset schema%s", ErrSchema, out.Name, ft, t.info.Path, out.Type, plan.fromText())
		}
		ro.Columns = append(ro.Columns, out.Name)
	}
	ro.RowGroups = t.rowGroups
	mem := ro.Allocator
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	return &fileRead{plan: plan, t: t, path: t.info.Path, mem: mem, ro: ro}, nil
}

func (p *scanPlan) fromText() string {
	if p.from == "" {
		return ""
	}
	return " (from " + p.from + ")"
}

// bind maps the output fields to the columns of the batches of schema s,
// the reader's.
func (r *fileRead) bind(s *arrow.Schema) error {
	r.src = make([]int, len(r.plan.fields))
	r.nulls = make([]arrow.Array, len(r.plan.fields))
	for i, f := range r.plan.fields {
		r.src[i] = -1
		if f.part >= 0 {
			continue
		}
		out := r.plan.schema.Field(i)
		if idx := s.FieldIndices(out.Name); len(idx) > 0 {
			if ft := s.Field(idx[0]).Type; !canWiden(ft, out.Type) {
				return fmt.Errorf("%w: column %q is %s in %s and %s in the dataset schema%s", ErrSchema, out.Name, ft, r.path, out.Type, r.plan.fromText())
			}
			r.src[i] = idx[0]
		}
	}
	return nil
}

// adapt returns b as a batch of the dataset's schema; the caller
// releases it.
func (r *fileRead) adapt(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	n := int(b.NumRows())
	cols := make([]arrow.Array, len(r.plan.fields))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, f := range r.plan.fields {
		t := r.plan.schema.Field(i).Type
		switch {
		case f.part >= 0:
			cols[i] = partitionArray(r.mem, t, r.t.parts[f.part], n)
		case r.src[i] < 0:
			if r.nulls[i] == nil || r.nulls[i].Len() < n {
				if r.nulls[i] != nil {
					r.nulls[i].Release()
				}
				// MakeArrayOfNull needs zeroed memory.
				r.nulls[i] = array.MakeArrayOfNull(memory.DefaultAllocator, t, n)
			}
			cols[i] = array.NewSlice(r.nulls[i], 0, int64(n))
		default:
			c, err := castArray(r.mem, b.Column(r.src[i]), t)
			if err != nil {
				return nil, fmt.Errorf("%s: column %q: %w", r.path, r.plan.schema.Field(i).Name, err)
			}
			cols[i] = c
		}
	}
	return array.NewRecordBatch(r.plan.schema, cols, int64(n)), nil
}

func (r *fileRead) release() {
	for _, a := range r.nulls {
		if a != nil {
			a.Release()
		}
	}
}

// isCorrupt reports whether err says a file is not valid Parquet.
func isCorrupt(err error) bool {
	return errors.Is(err, arrowio.ErrCorrupt) || errors.Is(err, footer.ErrCorrupt) || errors.Is(err, pageindex.ErrCorrupt)
}

// scanner is the RecordReader of a scan.
type scanner struct {
	refs    atomic.Int64
	plan    *scanPlan
	tasks   []*task
	src     Source
	cache   *FooterCache
	ro      arrowio.ReadOptions
	ordered bool
	onBad   func(string, error) error
	badMu   *sync.Mutex
	// smallSequential reads files under smallFile bytes on one goroutine:
	// set when the caller left Parallelism to the scan.
	smallSequential bool

	ctx    context.Context
	cancel context.CancelFunc
	stop   func() bool // unregisters the context's wake-up
	wg     sync.WaitGroup

	mu     sync.Mutex
	cond   sync.Cond
	queues [][]queued // ordered: per task; unordered: queues[0]
	done   []bool     // per task: its worker finished
	ndone  int
	head   int // ordered: the task the caller reads from
	next   int // the next task a worker takes
	used   int64
	peak   int64 // the most bytes queued at once, for tests
	limit  int64
	err    error
	closed bool
	cur    arrow.RecordBatch
}

// smallFile is the size under which decoding a file's columns on several
// goroutines costs more than it saves: in the benchmark's 12 KB files,
// reading with Parallelism 2 took a third more CPU than with 1.
const smallFile = 4 << 20

type queued struct {
	b    arrow.RecordBatch
	size int64
}

// newScanner starts reading tasks with up to workers files at once.
func newScanner(ctx context.Context, src Source, cache *FooterCache, plan *scanPlan, tasks []*task, opts *Options, workers int) *scanner {
	s := &scanner{plan: plan, tasks: tasks, src: src, cache: cache, ro: opts.Read, ordered: !opts.Unordered,
		onBad: opts.OnCorrupt, badMu: new(sync.Mutex), limit: opts.MaxBufferedBytes}
	if s.limit <= 0 {
		s.limit = DefaultMaxBufferedBytes
	}
	s.refs.Store(1)
	s.cond.L = &s.mu
	s.done = make([]bool, len(tasks))
	if s.ordered {
		s.queues = make([][]queued, len(tasks))
	} else {
		s.queues = make([][]queued, 1)
	}
	workers = max(1, min(workers, len(tasks)))
	if s.ro.Parallelism <= 0 {
		s.ro.Parallelism = max(1, runtime.GOMAXPROCS(0)/workers)
		s.smallSequential = true
	}
	s.ctx, s.cancel = context.WithCancel(ctx)
	s.stop = context.AfterFunc(s.ctx, func() {
		s.mu.Lock()
		s.cond.Broadcast()
		s.mu.Unlock()
	})
	for range workers {
		s.wg.Go(s.work)
	}
	return s
}

// work reads tasks until none is left or the scan stops.
func (s *scanner) work() {
	for {
		s.mu.Lock()
		i := s.next
		s.next++
		s.mu.Unlock()
		if i >= len(s.tasks) || s.ctx.Err() != nil {
			return
		}
		err := s.read(i)
		if err != nil && isCorrupt(err) && s.onBad != nil {
			s.badMu.Lock()
			err = s.onBad(s.tasks[i].info.Path, err)
			s.badMu.Unlock()
		}
		s.mu.Lock()
		if err != nil && s.err == nil && !s.closed {
			s.err = err
			s.cancel()
		}
		s.done[i] = true
		s.ndone++
		s.cond.Broadcast()
		s.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// read reads task i into the queue.
func (s *scanner) read(i int) error {
	t := s.tasks[i]
	h, err := s.src.Open(s.ctx, t.info.Path)
	if err != nil {
		return fmt.Errorf("dataset: %s: %w", t.info.Path, err)
	}
	defer h.Close()
	m, err := loadMeta(s.ctx, s.src, s.cache, t.info, h, &s.ro)
	if err != nil {
		return err
	}
	fr, err := prepare(s.plan, t, m, s.ro)
	if err != nil || fr == nil {
		return err
	}
	defer fr.release()
	if s.smallSequential && t.info.Size < smallFile {
		fr.ro.Parallelism = 1
	}
	r, err := m.open(h, t.info.Size, fr.ro)
	if err != nil {
		return fmt.Errorf("dataset: %s: %w", t.info.Path, err)
	}
	defer r.Close()
	if err := fr.bind(r.Schema()); err != nil {
		return err
	}
	rr, err := r.RecordReader(s.ctx)
	if err != nil {
		return fmt.Errorf("dataset: %s: %w", t.info.Path, err)
	}
	defer rr.Release()
	for rr.Next() {
		b, err := fr.adapt(rr.RecordBatch())
		if err != nil {
			return fmt.Errorf("dataset: %w", err)
		}
		if err := s.push(i, b); err != nil {
			return err
		}
	}
	if err := rr.Err(); err != nil {
		return fmt.Errorf("dataset: %s: %w", t.info.Path, err)
	}
	return nil
}

// push queues b, the next batch of task i, once the byte bound allows.
func (s *scanner) push(i int, b arrow.RecordBatch) error {
	size := batchBytes(b)
	q := 0
	if s.ordered {
		q = i
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for !s.closed && s.err == nil && s.ctx.Err() == nil {
		if s.used+size <= s.limit || s.ordered && i == s.head && len(s.queues[q]) == 0 || !s.ordered && s.used == 0 {
			s.used += size
			s.peak = max(s.peak, s.used)
			s.queues[q] = append(s.queues[q], queued{b, size})
			s.cond.Broadcast()
			return nil
		}
		s.cond.Wait()
	}
	b.Release()
	if s.err != nil {
		return s.err
	}
	return context.Cause(s.ctx)
}

// batchBytes returns the bytes of b's buffers.
func batchBytes(b arrow.RecordBatch) int64 {
	var n int64
	for _, c := range b.Columns() {
		n += arrowmem.DataBytes(c.Data())
	}
	return n
}

func (s *scanner) Retain() { s.refs.Add(1) }

// Release stops the scan when the last reference goes: the workers are
// cancelled and waited for, and queued batches released.
func (s *scanner) Release() {
	if s.refs.Add(-1) != 0 {
		return
	}
	s.mu.Lock()
	s.closed = true
	s.cancel()
	s.cond.Broadcast()
	s.mu.Unlock()
	s.wg.Wait()
	s.stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, q := range s.queues {
		for _, e := range q {
			e.b.Release()
		}
	}
	s.queues = nil
	if s.cur != nil {
		s.cur.Release()
		s.cur = nil
	}
}

func (s *scanner) Schema() *arrow.Schema { return s.plan.schema }

// Next moves to the next batch, releasing the previous one.
func (s *scanner) Next() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur != nil {
		s.cur.Release()
		s.cur = nil
	}
	for {
		if s.err != nil || s.closed {
			return false
		}
		// A cancelled scan ends with the context's error even when its
		// batches were all decoded and queued before the cancel.
		if err := s.ctx.Err(); err != nil {
			s.err = context.Cause(s.ctx)
			return false
		}
		q := 0
		if s.ordered {
			if s.head >= len(s.tasks) {
				return false
			}
			q = s.head
		}
		if len(s.queues[q]) > 0 {
			e := s.queues[q][0]
			s.queues[q][0] = queued{}
			s.queues[q] = s.queues[q][1:]
			s.used -= e.size
			s.cur = e.b
			s.cond.Broadcast()
			return true
		}
		if s.ordered && s.done[s.head] {
			s.head++
			s.cond.Broadcast()
			continue
		}
		if !s.ordered && s.ndone == len(s.tasks) {
			return false
		}
		s.cond.Wait()
	}
}

func (s *scanner) RecordBatch() arrow.RecordBatch { return s.cur }

// Record is RecordBatch.
//
// Deprecated: Use RecordBatch.
func (s *scanner) Record() arrow.RecordBatch { return s.cur }

// Err returns the error that ended the scan, nil at a clean end.
func (s *scanner) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// RecordReader returns a reader of every selected row of the dataset, in
// batches of the dataset's [Dataset.Schema]; each batch holds rows of one
// file. Files are read by up to MaxOpenFiles workers at once, each with its
// own arrowio reader, and their batches queue within MaxBufferedBytes;
// with order kept (the default) the batches come file by file in the
// order of [Dataset.Files], otherwise as they are decoded.
//
// The reader owns each batch until the next call to Next (callers that
// keep one Retain it) and must be Released, which stops the workers.
// Cancelling ctx stops the scan: Next returns false and Err the context's
// error. A file that fails to read ends the scan with an error naming it,
// unless Options.OnCorrupt skips it.
func (d *Dataset) RecordReader(ctx context.Context) (array.RecordReader, error) {
	return newScanner(ctx, d.src, d.cache, d.plan, d.tasks(), &d.opts, d.opts.maxOpen()), nil
}

// ReadTable reads every selected row into a table, chunked by batch. The
// caller releases it.
func (d *Dataset) ReadTable(ctx context.Context) (arrow.Table, error) {
	rr, err := d.RecordReader(ctx)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	var batches []arrow.RecordBatch
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	for rr.Next() {
		b := rr.RecordBatch()
		b.Retain()
		batches = append(batches, b)
	}
	if err := rr.Err(); err != nil {
		return nil, err
	}
	return array.NewTableFromRecords(d.Schema(), batches), nil
}
