package arrowio_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/codec/codectest"
	"github.com/quiverio/quiver/internal/corpus"
	"github.com/quiverio/quiver/pageindex"
)

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
