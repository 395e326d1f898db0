package arrowio_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/arrowio/internal/codec/codectest"
	"github.com/quiverio/quiver/internal/corpus"
	"github.com/quiverio/quiver/pageindex"
)

// keptRows is the length of both columns of keptFile: more than one
// batch, so that the streamed read returns a batch as large as the next
// read's.
const keptRows = 100_000

// keptFile returns a file of two required int64 columns of keptRows rows
// in one row group: "a" holds 0, 1, 2, ... and "b" -1, -2, -3, ..., so
// that a value of one can never pass for a value of the other.
func keptFile(t *testing.T) []byte {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		{Name: "b", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	a, b := array.NewInt64Builder(memory.DefaultAllocator), array.NewInt64Builder(memory.DefaultAllocator)
	defer a.Release()
	defer b.Release()
	for i := range int64(keptRows) {
		a.Append(i)
		b.Append(-1 - i)
	}
	cols := []arrow.Array{a.NewArray(), b.NewArray()}
	rec := array.NewRecordBatch(schema, cols, keptRows)
	defer rec.Release()
	for _, c := range cols {
		c.Release()
	}
	return arrowiotest.WriteFile(t, schema, arrowio.WriteOptions{}, rec)
}

// readWays are the ways the Reader returns arrays, each of which reads
// column col of file with opts, passes the int64 values of the first
// array it returns to keep, and releases everything, as the arrow-go
// documentation asks, before it returns.
var readWays = []struct {
	name string
	read func(t *testing.T, file []byte, col string, opts arrowio.ReadOptions, keep func([]int64))
}{
	{"ReadTable", func(t *testing.T, file []byte, col string, opts arrowio.ReadOptions, keep func([]int64)) {
		rd := openCol(t, file, col, opts)
		defer rd.Close()
		tbl, err := rd.ReadTable(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer tbl.Release()
		keep(tbl.Column(0).Data().Chunk(0).(*array.Int64).Int64Values())
	}},
	{"ReadRowGroup", func(t *testing.T, file []byte, col string, opts arrowio.ReadOptions, keep func([]int64)) {
		rd := openCol(t, file, col, opts)
		defer rd.Close()
		rec, err := rd.ReadRowGroup(context.Background(), 0)
		if err != nil {
			t.Fatal(err)
		}
		defer rec.Release()
		keep(rec.Column(0).(*array.Int64).Int64Values())
	}},
	{"RecordReader", func(t *testing.T, file []byte, col string, opts arrowio.ReadOptions, keep func([]int64)) {
		rd := openCol(t, file, col, opts)
		defer rd.Close()
		rr, err := rd.RecordReader(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer rr.Release()
		for i := 0; rr.Next(); i++ {
			if i == 0 {
				keep(rr.RecordBatch().Column(0).(*array.Int64).Int64Values())
			}
		}
		if err := rr.Err(); err != nil {
			t.Fatal(err)
		}
	}},
}

// openCol opens file with opts, selecting column col.
func openCol(t *testing.T, file []byte, col string, opts arrowio.ReadOptions) *arrowio.Reader {
	t.Helper()
	opts.Columns = []string{col}
	rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), opts)
	if err != nil {
		t.Fatal(err)
	}
	return rd
}

// keptSliceChanged reads column "a" of keptFile with opts through read,
// keeping a Go slice of its values past the release, then reads column
// "b" (which has as many values) rounds times the same way, and returns
// where the kept slice first stopped holding a's values, or "" when it
// never did.
func keptSliceChanged(t *testing.T, file []byte, opts arrowio.ReadOptions, rounds int, read func(*testing.T, []byte, string, arrowio.ReadOptions, func([]int64))) string {
	t.Helper()
	var kept, want []int64
	read(t, file, "a", opts, func(v []int64) { kept, want = v, slices.Clone(v) })
	if len(kept) == 0 || kept[0] != 0 {
		t.Fatalf("read %d values of a, first %v", len(kept), kept[:min(len(kept), 1)])
	}
	for round := range rounds {
		read(t, file, "b", opts, func([]int64) {})
		for i := range want {
			if kept[i] != want[i] {
				return fmt.Sprintf("after %d reads of b, kept value %d is %d, was %d", round+1, i, kept[i], want[i])
			}
		}
	}
	return ""
}

// TestDefaultAllocatorKeepsReleasedMemory does what a user of arrow-go's
// pqarrow may do without knowing it is wrong: read a column with the
// default ReadOptions, keep a Go slice of its values
// (array.Int64.Int64Values), release the table, batch or record reader as
// documented, and read another column of the same size. With
// ReadOptions.Allocator nil the slice must still hold the first column's
// values, as it does with pqarrow, whose Go allocator leaves released
// memory to the garbage collector: memory is never handed out again while
// Go code can reach it.
func TestDefaultAllocatorKeepsReleasedMemory(t *testing.T) {
	file := keptFile(t)
	for _, way := range readWays {
		for _, parallelism := range []int{0, 1} {
			opts := arrowio.ReadOptions{Parallelism: parallelism}
			if where := keptSliceChanged(t, file, opts, 4, way.read); where != "" {
				t.Errorf("%s, Parallelism %d: a slice kept past Release shows another read's values: %s", way.name, parallelism, where)
			}
		}
	}
}

// TestRecyclingAllocatorReusesReleasedMemory shows the hazard
// NewRecyclingAllocator accepts, so that it is known not to be a plain Go
// allocator under another name: with it, the slice kept past Release in
// TestDefaultAllocatorKeepsReleasedMemory comes to show the values of the
// next read, whose arrays took the released memory. sync.Pool may drop
// what it is given (a quarter of it under the race detector), so the
// whole sequence is given several tries.
func TestRecyclingAllocatorReusesReleasedMemory(t *testing.T) {
	file := keptFile(t)
	for _, way := range readWays {
		opts := arrowio.ReadOptions{Parallelism: 1, Allocator: arrowio.NewRecyclingAllocator()}
		where := ""
		for try := 0; try < 16 && where == ""; try++ {
			where = keptSliceChanged(t, file, opts, 1, way.read)
		}
		if where == "" {
			t.Errorf("%s: no read of b took the memory of a's released array", way.name)
		} else {
			t.Logf("%s: %s", way.name, where)
		}
	}
}

// recycleFile writes a file of three row groups of nullable int64, float64,
// string and binary columns, and returns it with its columns as written.
func recycleFile(t *testing.T) ([]byte, []arrow.Array) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 11))
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.Binary, Nullable: true},
	}, nil)
	var recs []arrow.RecordBatch
	for range 3 {
		cols := make([]arrow.Array, schema.NumFields())
		for c, f := range schema.Fields() {
			cols[c] = arrowiotest.RandomArray(t, memory.DefaultAllocator, f.Type, arrowiotest.Rows(20000), 0.1, c == 3, rng)
		}
		recs = append(recs, array.NewRecordBatch(schema, cols, -1))
	}
	file := arrowiotest.WriteFile(t, schema, arrowio.WriteOptions{}, recs...)
	want := make([]arrow.Array, schema.NumFields())
	for c := range want {
		want[c] = concatColumn(t, recs, c)
	}
	return file, want
}

// TestAllocatorsKeepRetainedBatches reads a file in batches with the
// default allocator and with NewRecyclingAllocator, which hands released
// buffers out again, keeping every other batch (Retain) and reading the
// whole file again after each batch with the table released at once, so
// that buffers go back and forth through the pools (the reader's scratch
// pool, and the recycling allocator's): the batches kept hold what was
// written, and the batches and tables let go of lend their memory to later
// reads.
func TestAllocatorsKeepRetainedBatches(t *testing.T) {
	file, want := recycleFile(t)
	ctx := context.Background()
	for _, tc := range []struct {
		parallelism int
		mem         memory.Allocator
	}{{1, nil}, {2, nil}, {1, arrowio.NewRecyclingAllocator()}, {2, arrowio.NewRecyclingAllocator()}} {
		parallelism := tc.parallelism
		rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{BatchSize: 3000, Parallelism: parallelism, Allocator: tc.mem})
		if err != nil {
			t.Fatal(err)
		}
		rr, err := rd.RecordReader(ctx)
		if err != nil {
			t.Fatal(err)
		}
		type kept struct {
			rec    arrow.RecordBatch
			offset int64
		}
		var keep []kept
		var offset int64
		for i := 0; rr.Next(); i++ {
			rec := rr.RecordBatch()
			if i%2 == 0 {
				rec.Retain()
				keep = append(keep, kept{rec, offset})
			}
			offset += rec.NumRows()
			churn, err := rd.ReadTable(ctx)
			if err != nil {
				t.Fatal(err)
			}
			churn.Release()
		}
		if err := rr.Err(); err != nil {
			t.Fatal(err)
		}
		rr.Release()
		if err := rd.Close(); err != nil {
			t.Fatal(err)
		}
		if offset != int64(want[0].Len()) {
			t.Fatalf("parallelism %d, allocator %T: read %d rows, wrote %d", parallelism, tc.mem, offset, want[0].Len())
		}
		for _, k := range keep {
			for c := range want {
				exp := array.NewSlice(want[c], k.offset, k.offset+k.rec.NumRows())
				if !array.Equal(exp, k.rec.Column(c)) {
					t.Errorf("parallelism %d, allocator %T: column %d of the batch at row %d changed after it was kept", parallelism, tc.mem, c, k.offset)
				}
				exp.Release()
			}
			k.rec.Release()
		}
	}
}

// TestRecyclingAllocatorReusesReleasedTables checks that with
// NewRecyclingAllocator a read after a released read of the same file
// takes most of its memory from the released table instead of allocating
// it again.
func TestRecyclingAllocatorReusesReleasedTables(t *testing.T) {
	file, _ := recycleFile(t)
	mem := arrowio.NewRecyclingAllocator()
	// read reads the file, releases the table and returns the bytes it
	// allocated and the bytes of the table's buffers.
	read := func() (allocated, decoded uint64) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Parallelism: 1, Allocator: mem})
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := rd.ReadTable(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for c := range int(tbl.NumCols()) {
			for _, chunk := range tbl.Column(c).Data().Chunks() {
				for _, b := range chunk.Data().Buffers() {
					if b != nil {
						decoded += uint64(b.Len())
					}
				}
			}
		}
		tbl.Release()
		if err := rd.Close(); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, decoded
	}
	// A collection empties the allocator's sync.Pools (the second one in a
	// row does), and a goroutine that moves to another P cannot take what
	// it put in the first P's private slots: neither is what is tested, so
	// collections are off and the read after the first is given three tries.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	read()
	var again, decoded uint64
	for range 3 {
		if again, decoded = read(); again <= decoded/4 {
			return
		}
	}
	t.Errorf("a read after a released one allocated %d bytes for %d bytes of arrays", again, decoded)
}

// poisonAllocator is a Go allocator whose fresh and freed bytes all hold
// fill, the way a non-zeroing allocator that recycles freed buffers hands
// out whatever memory last held: two reads of the same file through
// allocators of different fills return the same bytes only where the
// reader wrote every byte it returns and kept no buffer it freed. It
// records the address range of every allocation it has handed out and
// not had back, so that foreignBuffer can tell memory it handed out from
// any other.
type poisonAllocator struct {
	fill byte
	memory.GoAllocator
	mu   sync.Mutex
	live map[uintptr]int // start address -> bytes
}

// Allocate returns size bytes of fill.
func (p *poisonAllocator) Allocate(size int) []byte {
	b := p.GoAllocator.Allocate(size)
	for i := range b {
		b[i] = p.fill
	}
	if size > 0 {
		p.mu.Lock()
		if p.live == nil {
			p.live = map[uintptr]int{}
		}
		p.live[uintptr(unsafe.Pointer(unsafe.SliceData(b)))] = size
		p.mu.Unlock()
	}
	return b
}

// Reallocate returns size bytes that start with b's and go on with fill.
// It always moves: a buffer that kept the old memory would then hold
// memory the allocator no longer counts as handed out.
func (p *poisonAllocator) Reallocate(size int, b []byte) []byte {
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

// Free fills b with fill, as a recycling allocator (NewRecyclingAllocator)
// may hand b out again and have it overwritten: an array that still held b after
// its last reference was released would show the fill.
func (p *poisonAllocator) Free(b []byte) {
	for i := range b {
		b[i] = p.fill
	}
	if cap(b) > 0 {
		p.mu.Lock()
		delete(p.live, uintptr(unsafe.Pointer(unsafe.SliceData(b))))
		p.mu.Unlock()
	}
}

// foreignBuffer returns where the first buffer of data (children and
// dictionaries included) that does not lie inside a live allocation of p
// is, or "" when every one does. Empty buffers hold no memory and pass.
func (p *poisonAllocator) foreignBuffer(data arrow.ArrayData, at string) string {
	p.mu.Lock()
	starts := make([]uintptr, 0, len(p.live))
	for s := range p.live {
		starts = append(starts, s)
	}
	p.mu.Unlock()
	slices.Sort(starts)
	var walk func(d arrow.ArrayData, at string) string
	walk = func(d arrow.ArrayData, at string) string {
		for i, b := range d.Buffers() {
			if b == nil || b.Len() == 0 {
				continue
			}
			s := uintptr(unsafe.Pointer(unsafe.SliceData(b.Bytes())))
			k, found := slices.BinarySearch(starts, s)
			if !found {
				k--
			}
			if k < 0 || s+uintptr(b.Len()) > starts[k]+uintptr(p.live[starts[k]]) {
				return fmt.Sprintf("%s: buffer %d (%d bytes) is not memory ReadOptions.Allocator handed out: scratch, a mapping, or memory already freed", at, i, b.Len())
			}
		}
		for i, c := range d.Children() {
			if w := walk(c, fmt.Sprintf("%s child %d", at, i)); w != "" {
				return w
			}
		}
		if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
			return walk(dict, at+" dictionary")
		}
		return ""
	}
	return walk(data, at)
}

// diffBytes returns where two arrays' buffers (children and dictionaries
// included) first differ byte for byte up to each buffer's length, or ""
// when they are the same.
func diffBytes(a, b arrow.ArrayData, at string) string {
	if a.Len() != b.Len() || a.Offset() != b.Offset() || a.NullN() != b.NullN() {
		return fmt.Sprintf("%s: length, offset or nulls %d/%d/%d, then %d/%d/%d", at, a.Len(), a.Offset(), a.NullN(), b.Len(), b.Offset(), b.NullN())
	}
	ab, bb := a.Buffers(), b.Buffers()
	if len(ab) != len(bb) {
		return fmt.Sprintf("%s: %d buffers, then %d", at, len(ab), len(bb))
	}
	for i := range ab {
		if (ab[i] == nil) != (bb[i] == nil) {
			return fmt.Sprintf("%s: buffer %d present in one read only", at, i)
		}
		if ab[i] == nil {
			continue
		}
		x, y := ab[i].Bytes(), bb[i].Bytes()
		if len(x) != len(y) {
			return fmt.Sprintf("%s: buffer %d has %d bytes, then %d", at, i, len(x), len(y))
		}
		if k := firstDiff(x, y); k >= 0 {
			return fmt.Sprintf("%s: buffer %d of %d bytes differs at byte %d (%#x, then %#x): it was never written, or was freed while the array held it", at, i, len(x), k, x[k], y[k])
		}
	}
	ac, bc := a.Children(), b.Children()
	if len(ac) != len(bc) {
		return fmt.Sprintf("%s: %d children, then %d", at, len(ac), len(bc))
	}
	for i := range ac {
		if d := diffBytes(ac[i], bc[i], fmt.Sprintf("%s child %d", at, i)); d != "" {
			return d
		}
	}
	ad, _ := a.Dictionary().(*array.Data)
	bd, _ := b.Dictionary().(*array.Data)
	if (ad == nil) != (bd == nil) {
		return at + ": dictionary in one read only"
	}
	if ad != nil {
		return diffBytes(ad, bd, at+" dictionary")
	}
	return ""
}

// firstDiff returns the first index where x and y differ, or -1.
func firstDiff(x, y []byte) int {
	if bytes.Equal(x, y) {
		return -1
	}
	for k := range x {
		if x[k] != y[k] {
			return k
		}
	}
	return -1
}

// checkReadMemory reads twice through read, with allocators filling
// fresh and freed memory with 0x00 and then 0xA5, and fails unless
//   - every buffer of every array lies in memory the read's allocator
//     handed out and has not had back: the reader's recycled scratch
//     (arrowmem.GetBytes) or a mapped file must never reach a returned
//     array, or a caller's slice of it would change under it;
//   - both reads return the same bytes in every buffer: a byte the reader
//     did not write (a null slot, a bitmap's last bits, padding) would
//     show the fill, the contract that lets it decode into memory no
//     allocator zeroed;
//   - releasing the tables frees everything.
//
// It returns read's error, the same both times, without failing.
func checkReadMemory(t *testing.T, desc string, read func(mem memory.Allocator) (arrow.Table, error)) error {
	t.Helper()
	var tables [2]arrow.Table
	var errs [2]error
	for i, fill := range []byte{0x00, 0xA5} {
		pa := &poisonAllocator{fill: fill}
		mem := memory.NewCheckedAllocator(pa)
		tables[i], errs[i] = read(mem)
		if tables[i] == nil {
			continue
		}
		defer mem.AssertSize(t, 0)
		defer tables[i].Release()
	chunks:
		for c := range int(tables[i].NumCols()) {
			for k, chunk := range tables[i].Column(c).Data().Chunks() {
				at := fmt.Sprintf("column %q (%s) chunk %d", tables[i].Schema().Field(c).Name, tables[i].Schema().Field(c).Type, k)
				if w := pa.foreignBuffer(chunk.Data(), at); w != "" {
					t.Errorf("%s: %s", desc, w)
					break chunks
				}
			}
		}
	}
	if (errs[0] == nil) != (errs[1] == nil) {
		t.Fatalf("%s: one read failed: %v; %v", desc, errs[0], errs[1])
	}
	if errs[0] != nil {
		return errs[0]
	}
	a, b := tables[0], tables[1]
	for c := range int(a.NumCols()) {
		ac, bc := a.Column(c).Data().Chunks(), b.Column(c).Data().Chunks()
		if len(ac) != len(bc) {
			t.Fatalf("%s: column %d has %d chunks, then %d", desc, c, len(ac), len(bc))
		}
		for k := range ac {
			at := fmt.Sprintf("column %q (%s) chunk %d", a.Schema().Field(c).Name, a.Schema().Field(c).Type, k)
			if d := diffBytes(ac[k].Data(), bc[k].Data(), at); d != "" {
				t.Errorf("%s: %s", desc, d)
			}
		}
	}
	return nil
}

// TestCorpusReadMemory reads every corpus file, flat and nested, whole
// and in small batches, from ReadAt and from a mapping, and checks the
// memory of what it returns (checkReadMemory): in the caller's
// allocator, no zero-copy path wrapping the reader's scratch or the
// mapped file, and every byte written.
func TestCorpusReadMemory(t *testing.T) {
	root := corpus.Dir(t)
	for _, rel := range corpus.Files(t) {
		if strings.HasPrefix(rel, "bad_data") {
			continue
		}
		path := filepath.Join(root, rel)
		t.Run(rel, func(t *testing.T) {
			if size := decodedSize(path, rel); size > codectest.MaxCorpusPage {
				t.Skipf("decodes to %d MiB: eight reads would take a minute, and its types are in smaller files", size>>20)
			}
			type way struct {
				batch int
				mmap  bool
			}
			ways := []way{{0, false}, {100, false}, {0, true}, {100, true}}
			if testing.Short() {
				ways = ways[:1]
			}
			for _, w := range ways {
				err := checkReadMemory(t, fmt.Sprintf("batch %d, MemoryMap %v", w.batch, w.mmap), func(mem memory.Allocator) (arrow.Table, error) {
					opts := arrowio.ReadOptions{Allocator: mem, BatchSize: w.batch, MemoryMap: w.mmap}
					if len(corpus.EncryptionKeys(rel)) > 0 {
						opts.Decryption = corpusDecryption(rel)
					}
					return readPath(path, opts, w.batch > 0)
				})
				if err != nil && !errors.Is(err, arrowio.ErrUnsupported) && !errors.Is(err, context.Canceled) {
					t.Logf("not read: %v", err)
				}
			}
		})
	}
}

// TestWrittenArraysReadMemory is TestCorpusReadMemory
// for the paths the corpus reaches little: string and binary columns read
// as dictionary arrays, filtered reads (which gather and concatenate the
// matching rows), from memory and from a mapping, serial and parallel.
func TestWrittenArraysReadMemory(t *testing.T) {
	file, _ := recycleFile(t)
	path := filepath.Join(t.TempDir(), "f.parquet")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	filter := pageindex.Less("i", pageindex.Int(0))
	for _, opts := range []arrowio.ReadOptions{
		{},
		{BatchSize: 3000, Parallelism: 2},
		{Dictionary: []string{"s", "b"}},
		{Filter: filter},
		{Filter: filter, Parallelism: 2, BatchSize: 3000, Dictionary: []string{"s"}},
	} {
		for _, mmap := range []bool{false, true} {
			desc := fmt.Sprintf("options %+v, MemoryMap %v", opts, mmap)
			err := checkReadMemory(t, desc, func(mem memory.Allocator) (arrow.Table, error) {
				o := opts
				o.Allocator, o.MemoryMap = mem, mmap
				return readPath(path, o, o.BatchSize > 0)
			})
			if err != nil {
				t.Fatalf("%s: %v", desc, err)
			}
		}
	}
}

// decodedSize returns the total uncompressed size of the row groups of
// the corpus file rel at path, or 0 when it does not open.
func decodedSize(path, rel string) int64 {
	opts := arrowio.ReadOptions{}
	if len(corpus.EncryptionKeys(rel)) > 0 {
		opts.Decryption = corpusDecryption(rel)
	}
	rd, err := arrowio.OpenFile(path, opts)
	if err != nil {
		return 0
	}
	defer rd.Close()
	var size int64
	for _, rg := range rd.Metadata().RowGroups {
		size += rg.TotalByteSize
	}
	return size
}
