package arrowio_test

import (
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

// trackingAllocator is a Go allocator that records the address range of
// every allocation it has handed out and not had back.
type trackingAllocator struct {
	memory.GoAllocator
	mu   sync.Mutex
	live map[uintptr]int // start address -> bytes
}

func newTrackingAllocator() *trackingAllocator {
	return &trackingAllocator{live: map[uintptr]int{}}
}

func (a *trackingAllocator) Allocate(size int) []byte {
	b := a.GoAllocator.Allocate(size)
	if size > 0 {
		a.mu.Lock()
		a.live[uintptr(unsafe.Pointer(unsafe.SliceData(b)))] = size
		a.mu.Unlock()
	}
	return b
}

// Reallocate always moves: a buffer that kept the old memory would then
// hold memory the allocator no longer counts as handed out.
func (a *trackingAllocator) Reallocate(size int, b []byte) []byte {
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

func (a *trackingAllocator) Free(b []byte) {
	if cap(b) > 0 {
		a.mu.Lock()
		delete(a.live, uintptr(unsafe.Pointer(unsafe.SliceData(b))))
		a.mu.Unlock()
	}
}

// foreignBuffer returns where the first buffer of data (children and
// dictionaries included) that does not lie inside a live allocation of a
// is, or "" when every one does. Empty buffers hold no memory and pass.
func (a *trackingAllocator) foreignBuffer(data arrow.ArrayData, at string) string {
	a.mu.Lock()
	starts := make([]uintptr, 0, len(a.live))
	for p := range a.live {
		starts = append(starts, p)
	}
	a.mu.Unlock()
	slices.Sort(starts)
	var walk func(d arrow.ArrayData, at string) string
	walk = func(d arrow.ArrayData, at string) string {
		for i, b := range d.Buffers() {
			if b == nil || b.Len() == 0 {
				continue
			}
			p := uintptr(unsafe.Pointer(unsafe.SliceData(b.Bytes())))
			k, found := slices.BinarySearch(starts, p)
			if !found {
				k--
			}
			if k < 0 || p+uintptr(b.Len()) > starts[k]+uintptr(a.live[starts[k]]) {
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

// checkCallerMemory reads a table with read through a trackingAllocator
// and fails where one of its arrays holds memory that allocator did not
// hand out, or has had back: the reader's recycled scratch (arrowmem.GetBytes) must
// never reach a returned array, or a caller's slice of it would change
// under it. It returns read's error without failing.
func checkCallerMemory(t *testing.T, desc string, read func(mem memory.Allocator) (arrow.Table, error)) error {
	t.Helper()
	mem := newTrackingAllocator()
	tbl, err := read(mem)
	if err != nil {
		return err
	}
	defer tbl.Release()
	for c := range int(tbl.NumCols()) {
		for k, chunk := range tbl.Column(c).Data().Chunks() {
			at := fmt.Sprintf("column %q (%s) chunk %d", tbl.Schema().Field(c).Name, tbl.Schema().Field(c).Type, k)
			if w := mem.foreignBuffer(chunk.Data(), at); w != "" {
				t.Errorf("%s: %s", desc, w)
				return nil
			}
		}
	}
	return nil
}

// TestCorpusArraysHoldCallerMemory reads every corpus file, flat and
// nested, whole and in small batches, from ReadAt and from a mapping, and
// checks that every buffer of every array lies in memory the caller's
// allocator handed out: no zero-copy path wraps the reader's scratch or
// the mapped file.
func TestCorpusArraysHoldCallerMemory(t *testing.T) {
	root := corpus.Dir(t)
	for _, rel := range corpus.Files(t) {
		if strings.HasPrefix(rel, "bad_data") {
			continue
		}
		path := filepath.Join(root, rel)
		t.Run(rel, func(t *testing.T) {
			if size := decodedSize(path, rel); size > codectest.MaxCorpusPage {
				t.Skipf("decodes to %d MiB, and its types are in smaller files", size>>20)
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
				err := checkCallerMemory(t, fmt.Sprintf("batch %d, MemoryMap %v", w.batch, w.mmap), func(mem memory.Allocator) (arrow.Table, error) {
					opts := arrowio.ReadOptions{Allocator: mem, BatchSize: w.batch, MemoryMap: w.mmap}
					if len(corpus.EncryptionKeys(rel)) > 0 {
						opts.Decryption = corpusDecryption(rel)
					}
					tbl, err := readPath(path, opts, w.batch > 0)
					return tbl, err
				})
				if err != nil && !errors.Is(err, arrowio.ErrUnsupported) {
					t.Logf("not read: %v", err)
				}
			}
		})
	}
}

// TestWrittenArraysHoldCallerMemory is TestCorpusArraysHoldCallerMemory
// for the paths the corpus reaches little: string and binary columns read
// as dictionary arrays, filtered reads (which gather and concatenate the
// matching rows), from memory and from a mapping, serial and parallel.
func TestWrittenArraysHoldCallerMemory(t *testing.T) {
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
			err := checkCallerMemory(t, desc, func(mem memory.Allocator) (arrow.Table, error) {
				o := opts
				o.Allocator, o.MemoryMap = mem, mmap
				tbl, err := readPath(path, o, o.BatchSize > 0)
				return tbl, err
			})
			if err != nil {
				t.Fatalf("%s: %v", desc, err)
			}
		}
	}
}
