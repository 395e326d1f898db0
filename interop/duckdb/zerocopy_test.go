//go:build duckdb_arrow

package duckdb

import (
	"context"
	"sort"
	"sync"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/cdata"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
)

// spans is an allocator that remembers the address range of every
// allocation it has live.
type spans struct {
	mem  memory.Allocator
	mu   sync.Mutex
	live map[uintptr]int // start address -> capacity
}

func newSpans() *spans {
	return &spans{mem: memory.NewGoAllocator(), live: map[uintptr]int{}}
}

func start(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

func (s *spans) Allocate(n int) []byte {
	b := s.mem.Allocate(n)
	s.mu.Lock()
	if cap(b) > 0 {
		s.live[start(b)] = cap(b)
	}
	s.mu.Unlock()
	return b
}

func (s *spans) Reallocate(n int, old []byte) []byte {
	s.mu.Lock()
	delete(s.live, start(old))
	s.mu.Unlock()
	b := s.mem.Reallocate(n, old)
	s.mu.Lock()
	if cap(b) > 0 {
		s.live[start(b)] = cap(b)
	}
	s.mu.Unlock()
	return b
}

func (s *spans) Free(b []byte) {
	s.mu.Lock()
	delete(s.live, start(b))
	s.mu.Unlock()
	s.mem.Free(b)
}

// holds reports whether [p, p+n) lies inside one live allocation.
func (s *spans) holds(p uintptr, n int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	starts := make([]uintptr, 0, len(s.live))
	for a := range s.live {
		starts = append(starts, a)
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
	i := sort.Search(len(starts), func(i int) bool { return starts[i] > p }) - 1
	return i >= 0 && p+uintptr(n) <= starts[i]+uintptr(s.live[starts[i]])
}

// TestExportStreamIsZeroCopy reads a file with Quiver through an allocator
// that records its allocations, exports the reader as an Arrow C stream,
// imports the stream on the consumer side, and checks that every buffer
// the consumer sees lies inside memory Quiver allocated: the C stream
// hands over Quiver's buffers themselves, not copies, also when wrapped in
// the struct column RegisterView gives DuckDB, whose Arrow scan receives
// these same C arrays.
func TestExportStreamIsZeroCopy(t *testing.T) {
	p := salesFile(t, 20_000, 6_000)
	for _, tc := range []struct {
		name string
		opts arrowio.ReadOptions
		row  bool // through RegisterView's struct wrapping
	}{
		{"default", arrowio.ReadOptions{}, false},
		{"row struct", arrowio.ReadOptions{}, true},
		{"large", arrowio.ReadOptions{Mapping: arrowio.SchemaOptions{Strings: arrowio.StringsLarge}}, false},
		{"view", arrowio.ReadOptions{Mapping: arrowio.SchemaOptions{Strings: arrowio.StringsView}}, false},
		{"dict", arrowio.ReadOptions{Dictionary: []string{"region", "note"}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := newSpans()
			tc.opts.Allocator = mem
			tc.opts.BatchSize = 4096
			r, err := arrowio.OpenFile(p, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()

			var stream cdata.CArrowArrayStream
			if tc.row {
				qr, err := r.RecordReader(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				w, err := newRowReader(qr)
				qr.Release()
				if err != nil {
					t.Fatal(err)
				}
				cdata.ExportRecordReader(w, &stream)
				w.Release()
			} else if err := ExportStream(context.Background(), r, &stream); err != nil {
				t.Fatal(err)
			}
			imp, err := cdata.ImportCRecordReader(&stream, nil)
			if err != nil {
				t.Fatal(err)
			}
			rr := imp.(array.RecordReader)
			defer rr.Release()

			var rows int64
			checked := make([]int, len(salesSchema.Fields()))
			for rr.Next() {
				rec := rr.RecordBatch()
				rows += rec.NumRows()
				cols := rec.Columns()
				if tc.row {
					st := cols[0].(*array.Struct)
					cols = make([]arrow.Array, st.NumField())
					for i := range cols {
						cols[i] = st.Field(i)
					}
				}
				for c, col := range cols {
					walkBuffers(col.Data(), func(what string, b *memory.Buffer) {
						checked[c]++
						if !mem.holds(start(b.Bytes()), b.Len()) {
							t.Errorf("column %s, %s: the consumer's buffer (%d bytes at %#x) is not memory Quiver allocated", salesSchema.Field(c).Name, what, b.Len(), start(b.Bytes()))
						}
					})
				}
			}
			if err := rr.Err(); err != nil {
				t.Fatal(err)
			}
			if rows != 20_000 {
				t.Fatalf("%d rows through the stream, want 20000", rows)
			}
			for c, n := range checked {
				if n == 0 {
					t.Errorf("column %s: no buffer checked", salesSchema.Field(c).Name)
				}
			}
			if tc.name == "dict" {
				if got := rr.Schema().Field(1).Type.ID(); got != arrow.DICTIONARY {
					t.Errorf("region reached the consumer as %s, want a dictionary", rr.Schema().Field(1).Type)
				}
			}
		})
	}
}

// walkBuffers calls f for every non-empty buffer of d, its children and
// its dictionary.
func walkBuffers(d arrow.ArrayData, f func(what string, b *memory.Buffer)) {
	for i, b := range d.Buffers() {
		if b != nil && b.Len() > 0 {
			f(d.DataType().String()+" buffer "+string(rune('0'+i)), b)
		}
	}
	for _, c := range d.Children() {
		walkBuffers(c, f)
	}
	if d.DataType().ID() == arrow.DICTIONARY {
		walkBuffers(d.Dictionary(), f)
	}
}
