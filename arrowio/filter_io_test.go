package arrowio_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/latency"
	"github.com/quiverio/quiver/pageindex"
)

// openCounting opens path for reading with opts through a counting
// ReaderAt.
func openCounting(t *testing.T, path string, opts arrowio.ReadOptions) (*arrowio.Reader, *arrowiotest.CountingReaderAt, int64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	c := &arrowiotest.CountingReaderAt{R: f}
	r, err := arrowio.Open(c, st.Size(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return r, c, st.Size()
}

// readAllRows reads every batch of r and returns the row count.
func readAllRows(t *testing.T, r *arrowio.Reader) int64 {
	t.Helper()
	rr, err := r.RecordReader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var n int64
	for rr.Next() {
		n += rr.RecordBatch().NumRows()
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestPointLookupReadsLittle looks up one id of a sorted int64 column in
// a 10 M-row file of three 8-byte columns (1 M rows with -short, with
// pages a tenth the size) in 1 MiB pages and checks how much of the file
// is read: under 1% when the id alone is projected, one page per column
// (1.3%) when all are.
func TestPointLookupReadsLittle(t *testing.T) {
	rows, page, allShare := 10_000_000, 1<<20, 0.014
	if testing.Short() {
		// Footer and page index weigh more next to a tenth of the data.
		rows, page, allShare = 1_000_000, 1<<20/10, 0.02
	}
	const perBatch = 1_000_000
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "v", Type: arrow.PrimitiveTypes.Float64},
		{Name: "w", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	path := arrowiotest.WriteTempFile(t, schema, arrowio.WriteOptions{DataPageSize: page, DisableDictionary: true}, rows/perBatch, func(b int) arrow.RecordBatch {
		rng := rand.New(rand.NewPCG(uint64(b), 1))
		ids := make([]int64, perBatch)
		vs := make([]float64, perBatch)
		ws := make([]int64, perBatch)
		for i := range ids {
			ids[i] = int64(b*perBatch + i)
			vs[i] = rng.Float64()
			ws[i] = rng.Int64()
		}
		cols := []arrow.Array{array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, perBatch, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(ids))}, nil, 0, 0)),
			array.NewFloat64Data(array.NewData(arrow.PrimitiveTypes.Float64, perBatch, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Float64Traits.CastToBytes(vs))}, nil, 0, 0)),
			array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, perBatch, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(ws))}, nil, 0, 0))}
		return array.NewRecordBatch(schema, cols, perBatch)
	})
	target := int64(rows/2 + 12345)
	// Projecting the id alone, the lookup reads one page of one of the
	// three columns; projecting all of them, one page of each, which is
	// 1/76 of each column's bytes with 1 MiB pages of 8-byte values.
	for _, c := range []struct {
		cols     []string
		maxShare float64
	}{{[]string{"id"}, 0.01}, {nil, allShare}} {
		r, cr, size := openCounting(t, path, arrowio.ReadOptions{Columns: c.cols, Filter: pageindex.Eq("id", pageindex.Int(target))})
		rr, err := r.RecordReader(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for rr.Next() {
			rec := rr.RecordBatch()
			for k := range int(rec.NumRows()) {
				got = append(got, rec.Column(0).(*array.Int64).Value(k))
			}
		}
		if err := rr.Err(); err != nil {
			t.Fatal(err)
		}
		rr.Release()
		r.Close()
		if len(got) != 1 || got[0] != target {
			t.Fatalf("lookup of %d returned %v", target, got)
		}
		share := float64(cr.Bytes) / float64(size)
		t.Logf("columns %v: point lookup read %d of %d bytes (%.3f%%) in %d reads", c.cols, cr.Bytes, size, 100*share, len(cr.Reads))
		if share >= c.maxShare {
			t.Errorf("columns %v: point lookup read %.2f%% of the file", c.cols, 100*share)
		}
	}
}

// TestAbsentKeyReadsNoPages looks up a string absent from a
// high-cardinality column with bloom filters and checks that no byte of
// any row group's pages is read: only the footer, indexes and filters.
func TestAbsentKeyReadsNoPages(t *testing.T) {
	rows := 400_000
	if testing.Short() {
		rows = 40_000
	}
	const perBatch = 20_000
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "key", Type: arrow.BinaryTypes.String},
		{Name: "n", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	path := arrowiotest.WriteTempFile(t, schema, arrowio.WriteOptions{Columns: map[string]arrowio.ColumnOptions{"key": {BloomFilter: &arrowio.BloomFilterOptions{FPP: 0.01}}}},
		rows/perBatch, func(b int) arrow.RecordBatch {
			rng := rand.New(rand.NewPCG(uint64(b), 2))
			kb := array.NewStringBuilder(memory.DefaultAllocator)
			nb := array.NewInt64Builder(memory.DefaultAllocator)
			defer kb.Release()
			defer nb.Release()
			for i := range perBatch {
				kb.Append(fmt.Sprintf("k%016x", rng.Uint64()))
				nb.Append(int64(b*perBatch + i))
			}
			k, n := kb.NewArray(), nb.NewArray()
			defer k.Release()
			defer n.Release()
			return array.NewRecordBatch(schema, []arrow.Array{k, n}, perBatch)
		})
	r, c, size := openCounting(t, path, arrowio.ReadOptions{Filter: pageindex.Eq("key", pageindex.String("k_absent_0000000"))})
	defer r.Close()
	if n := readAllRows(t, r); n != 0 {
		t.Fatalf("absent key: %d rows", n)
	}
	pagesEnd := int64(4)
	for _, rg := range r.Metadata().RowGroups {
		for _, cc := range rg.Columns {
			_, end := chunkSpan(cc.MetaData)
			pagesEnd = max(pagesEnd, end)
		}
	}
	for _, rd := range c.Reads {
		if rd.Start < pagesEnd {
			t.Errorf("read [%d, %d) touches the pages, which end at %d", rd.Start, rd.End, pagesEnd)
		}
	}
	t.Logf("absent key: %d reads, %d of %d bytes", len(c.Reads), c.Bytes, size)
}

// TestDictionaryPrunesRowGroup filters on a value between a chunk's min
// and max that its small dictionary does not hold: the row group is ruled
// out after reading the start of that chunk (its dictionary page), with
// nothing of its other column read (HoleLimit -1: the planner would
// otherwise read across that chunk to fetch the dictionaries of both row
// groups in one request).
func TestDictionaryPrunesRowGroup(t *testing.T) {
	const rows = 60000
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String}, {Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
	opts := arrowio.WriteOptions{Compression: footer.CodecSnappy, MaxRowGroupRows: rows} // a row group per batch
	path := arrowiotest.WriteTempFile(t, schema, opts, 2, func(b int) arrow.RecordBatch {
		rng := rand.New(rand.NewPCG(uint64(b), 9))
		sb := array.NewStringBuilder(memory.DefaultAllocator)
		nb := array.NewInt64Builder(memory.DefaultAllocator)
		defer sb.Release()
		defer nb.Release()
		for i := range rows {
			sb.Append([]string{"apple", "zebra", "kiwi"}[i%(2+b)])
			nb.Append(rng.Int64())
		}
		s, n := sb.NewArray(), nb.NewArray()
		defer s.Release()
		defer n.Release()
		return array.NewRecordBatch(schema, []arrow.Array{s, n}, rows)
	})
	r, c, _ := openCounting(t, path, arrowio.ReadOptions{Filter: pageindex.Eq("s", pageindex.String("kiwi")), IO: arrowio.IOOptions{HoleLimit: -1}})
	defer r.Close()
	if n := readAllRows(t, r); n != rows/3 {
		t.Fatalf("%d rows of kiwi, want %d", n, rows/3)
	}
	md := r.Metadata().RowGroups[0].Columns[1].MetaData
	start, end := chunkSpan(md)
	for _, rd := range c.Reads {
		if rd.End > start && rd.Start < end {
			t.Errorf("read [%d, %d) touches row group 0's column n at [%d, %d)", rd.Start, rd.End, start, end)
		}
	}
}

// peakReaderAt counts the ReadAt calls in flight and keeps the largest
// number seen. Each call lingers a little, so that calls issued together
// overlap even on a loaded machine.
type peakReaderAt struct {
	r         *bytes.Reader
	mu        sync.Mutex
	now, peak int
	linger    time.Duration
}

func (p *peakReaderAt) ReadAt(b []byte, off int64) (int, error) {
	p.mu.Lock()
	p.now++
	p.peak = max(p.peak, p.now)
	p.mu.Unlock()
	time.Sleep(p.linger)
	defer func() {
		p.mu.Lock()
		p.now--
		p.mu.Unlock()
	}()
	return p.r.ReadAt(b, off)
}

// TestFilteredReadBoundsGoroutines reads a filtered file of eight row
// groups with several columns through ReadTable and RecordReader, with
// IOOptions.Concurrency equal to Parallelism, and checks that no more
// reads of the file than that are ever in flight, however the row-group
// workers of a filtered ReadTable and a RecordReader's prefetch overlap
// (the planner's bound: the goroutines that decode are bounded by the
// slots of slots.go, which reads no longer show, as the pages of a row
// group's columns are fetched together before they decode). The output
// must equal a sequential read.
func TestFilteredReadBoundsGoroutines(t *testing.T) {
	rec := benchRecord(8_000)
	file := arrowiotest.WriteFile(t, rec.Schema(), arrowio.WriteOptions{MaxRowGroupRows: 1_000}, rec)
	rec.Release()
	filter := pageindex.GreaterEq("price", pageindex.Float(60000))
	read := func(t *testing.T, par int, table bool) (int, string) {
		t.Helper()
		ra := &peakReaderAt{r: bytes.NewReader(file), linger: time.Millisecond}
		r, err := arrowio.Open(ra, int64(len(file)), arrowio.ReadOptions{Filter: filter, Parallelism: par, IO: arrowio.IOOptions{Concurrency: par}})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		ra.peak = 0 // the footer reads do not count
		var out bytes.Buffer
		if table {
			tbl, err := r.ReadTable(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer tbl.Release()
			tr := array.NewTableReader(tbl, -1)
			defer tr.Release()
			for tr.Next() {
				fmt.Fprintln(&out, tr.RecordBatch())
			}
		} else {
			rr, err := r.RecordReader(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer rr.Release()
			for rr.Next() {
				fmt.Fprintln(&out, rr.RecordBatch())
			}
			if err := rr.Err(); err != nil {
				t.Fatal(err)
			}
		}
		return ra.peak, out.String()
	}
	// A lone row group fetches the pages of its columns together: after
	// the round for its page index, one for the predicate's column and one
	// for the others, whatever the Parallelism.
	for _, par := range []int{1, 3} {
		t.Run(fmt.Sprintf("ReadRowGroup/parallelism=%d", par), func(t *testing.T) {
			src := latency.New(bytes.NewReader(file), 5*time.Millisecond, 0)
			r, err := arrowio.Open(src, int64(len(file)), arrowio.ReadOptions{Filter: filter, Parallelism: par})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			rec, err := r.ReadRowGroup(context.Background(), 0)
			if err != nil {
				t.Fatal(err)
			}
			rec.Release()
			if rounds := src.Stats().Rounds - 1; rounds > 3 {
				t.Errorf("%d round trips after the footer, want at most 3", rounds)
			}
		})
	}
	for _, table := range []bool{true, false} {
		_, want := read(t, 1, table)
		for _, par := range []int{2, 3} {
			t.Run(fmt.Sprintf("table=%v/parallelism=%d", table, par), func(t *testing.T) {
				peak, got := read(t, par, table)
				if got != want {
					t.Errorf("output differs from the sequential read")
				}
				if peak > par {
					t.Errorf("%d reads of the file in flight at once, want at most Parallelism=%d", peak, par)
				}
			})
		}
	}
}

// TestFilterHoldingForRowGroupSkipsItsColumns filters a file of row
// groups by id < the first id of its second half, projecting v alone: the
// statistics of the first half's groups say every row passes, so they are
// read as without a filter (their id chunks never read), and the others
// are skipped, so the read covers little more than v's chunks there.
func TestFilterHoldingForRowGroupSkipsItsColumns(t *testing.T) {
	const rows = 400_000
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "v", Type: arrow.PrimitiveTypes.Float64}}, nil)
	path := arrowiotest.WriteTempFile(t, schema, arrowio.WriteOptions{MaxRowGroupRows: rows / 2, DisableDictionary: true}, 4, func(b int) arrow.RecordBatch {
		ib, vb := array.NewInt64Builder(memory.DefaultAllocator), array.NewFloat64Builder(memory.DefaultAllocator)
		defer ib.Release()
		defer vb.Release()
		for i := range rows / 4 {
			id := int64(b*rows/4 + i)
			ib.Append(id)
			vb.Append(float64(id) / 2)
		}
		return array.NewRecordBatch(schema, []arrow.Array{ib.NewArray(), vb.NewArray()}, rows/4)
	})
	r, cr, size := openCounting(t, path, arrowio.ReadOptions{Columns: []string{"v"}, Filter: pageindex.Less("id", pageindex.Int(rows/2))})
	defer r.Close()
	rr, err := r.RecordReader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	n := 0
	for rr.Next() {
		for _, v := range rr.RecordBatch().Column(0).(*array.Float64).Float64Values() {
			if v != float64(n)/2 {
				t.Fatalf("row %d: v = %v", n, v)
			}
			n++
		}
	}
	if err := rr.Err(); err != nil || n != rows/2 {
		t.Fatalf("%d rows, %v; want %d", n, err, rows/2)
	}
	var vChunks, first int64 // v's chunks in the row groups that pass whole
	for _, rg := range r.Metadata().RowGroups {
		if first += rg.NumRows; first <= rows/2 {
			vChunks += rg.Columns[1].MetaData.TotalCompressedSize
		}
	}
	if cr.Bytes > vChunks+size/20 {
		t.Errorf("read %d bytes of %d; v's chunks in the first half are %d", cr.Bytes, size, vChunks)
	}
}
