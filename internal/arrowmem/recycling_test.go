package arrowmem

import (
	"math/rand/v2"
	"sync"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

var _ memory.Allocator = new(Recycling)

// classSizes lists every kept size class, smallest first, computed plainly.
func classSizes() []int {
	var sizes []int
	for h := minShift; h < maxShift; h++ {
		for k := 1; k <= 1<<classBits; k++ {
			sizes = append(sizes, 1<<h+k<<(h-classBits))
		}
	}
	return sizes
}

// TestClass checks class against the plain list of class sizes: sizes
// around every class boundary and random sizes map to the smallest class
// that holds them, at most 1/16 larger, and sizes outside the kept range
// to none.
func TestClass(t *testing.T) {
	ref := classSizes()
	if len(ref) != numClasses {
		t.Fatalf("%d class sizes, numClasses %d", len(ref), numClasses)
	}
	want := func(size int) (int, int, bool) {
		if size <= 1<<minShift {
			return 0, 0, false
		}
		for i, cs := range ref {
			if cs >= size {
				return i, cs, true
			}
		}
		return 0, 0, false
	}
	check := func(size int) {
		i, cs, ok := class(size)
		wi, wcs, wok := want(size)
		if i != wi || cs != wcs || ok != wok {
			t.Fatalf("class(%d) = %d, %d, %v; want %d, %d, %v", size, i, cs, ok, wi, wcs, wok)
		}
		if ok && (cs-size)*(1<<classBits) >= cs {
			t.Fatalf("class(%d) = %d: more than 1/%d above", size, cs, 1<<classBits)
		}
	}
	for _, cs := range append(ref, 1<<minShift) {
		for d := -2; d <= 2; d++ {
			check(cs + d)
		}
	}
	for _, size := range []int{0, 1, 64, 1 << minShift} {
		check(size)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		check(1 + rng.IntN(1<<(minShift+1+rng.IntN(maxShift-minShift))))
	}
}

// TestRecyclingAllocate checks sizes, capacities, alignment, that
// allocations do not overlap, and that Reallocate keeps the contents.
func TestRecyclingAllocate(t *testing.T) {
	a := new(Recycling)
	var live [][]byte
	for _, size := range []int{0, 1, 7, 63, 64, 65, 1 << minShift, 1<<minShift + 1, 1000, 4096, 32<<10 + 1, 1 << 20, 1<<20 + 3, 5 << 20} {
		b := a.Allocate(size)
		wantCap := size
		if _, cs, ok := class(size); ok {
			wantCap = cs
		}
		if len(b) != size || cap(b) != wantCap {
			t.Fatalf("Allocate(%d): len %d cap %d, want cap %d", size, len(b), cap(b), wantCap)
		}
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(b))); p%alignment != 0 {
			t.Fatalf("Allocate(%d) at %#x, not %d-byte aligned", size, p, alignment)
		}
		for i := range b {
			b[i] = byte(size + i)
		}
		live = append(live, b)
		grown := a.Reallocate(2*size+1, a.Reallocate(size, a.Allocate(size)))
		if len(grown) != 2*size+1 {
			t.Fatalf("Reallocate(%d): len %d", 2*size+1, len(grown))
		}
		if shrunk := a.Reallocate(size/2, b); len(shrunk) != size/2 || (size > 1 && &shrunk[0] != &b[0]) {
			t.Fatalf("Reallocate(%d) of %d bytes did not reuse them", size/2, size)
		}
		copy(grown, b)
		kept := a.Reallocate(4*size+1, grown)
		for i := range size {
			if kept[i] != byte(size+i) {
				t.Fatalf("Reallocate(%d) lost byte %d", 4*size+1, i)
			}
		}
		a.Free(kept)
	}
	// Every live allocation still holds what was written to it, though
	// other buffers of their sizes were freed and allocated since.
	for _, b := range live {
		for i := range b {
			if b[i] != byte(len(b)+i) {
				t.Fatalf("allocation of %d bytes changed at byte %d", len(b), i)
			}
		}
	}
}

// TestRecyclingReuse checks that a freed buffer of a kept class is handed
// out again for any size of its class, and that buffers not of a class
// (small, foreign or sliced) are not.
func TestRecyclingReuse(t *testing.T) {
	i, cs, _ := class(1 << 20)
	smallest := classSizes()[i-1] + 1 // the smallest size of cs's class
	reused := func(a *Recycling, freed []byte, size int) bool {
		// sync.Pool may drop what it holds (always under the race
		// detector, sometimes, and at every second collection), so one
		// reuse in a few tries is what is asked.
		for range 8 {
			a.Free(freed)
			b := a.Allocate(size)
			if unsafe.SliceData(b) == unsafe.SliceData(freed) {
				return true
			}
		}
		return false
	}
	a := new(Recycling)
	b := a.Allocate(1 << 20)
	if !reused(a, b, cs) || !reused(a, b, smallest) {
		t.Fatalf("a freed buffer of %d bytes was never handed out again", cs)
	}
	if reused(a, a.Allocate(1<<minShift), 1<<minShift) {
		t.Fatalf("a buffer of %d bytes was kept", 1<<minShift)
	}
	if reused(new(Recycling), make([]byte, 1<<20+7), 1<<20) {
		t.Fatal("a buffer whose capacity is no class size was kept")
	}
	big := a.Allocate(2 * cs)
	if reused(a, big[8:8+cs:8+cs], cs) {
		t.Fatal("a buffer not 64-byte aligned was kept")
	}
}

// TestRecyclingConcurrent allocates, fills, checks and frees buffers of
// random kept sizes from several goroutines: no buffer is handed to two
// holders at once.
func TestRecyclingConcurrent(t *testing.T) {
	a := new(Recycling)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 9))
			for range 300 {
				b := a.Allocate(1<<minShift + rng.IntN(1<<18))
				fill := byte(rng.Uint32())
				for i := range b {
					b[i] = fill
				}
				for i := range b {
					if b[i] != fill {
						t.Errorf("goroutine %d: byte %d of a live buffer changed", g, i)
						return
					}
				}
				a.Free(b)
			}
		})
	}
	wg.Wait()
}

// BenchmarkAllocate compares Recycling, Unzeroed and arrow-go's Go
// allocator on an allocation the size of a batch's values that is written
// whole and freed, as a reader and its caller do: Recycling hands the same
// buffer out again, Unzeroed and the Go allocator take new memory from the
// heap (the Go allocator clearing it first), whose pages fault when first
// written unless they are still mapped from an earlier allocation.
func BenchmarkAllocate(b *testing.B) {
	const size = 8 << 20
	for _, c := range []struct {
		name string
		mem  memory.Allocator
	}{{"recycling", new(Recycling)}, {"unzeroed", Unzeroed{}}, {"go", memory.NewGoAllocator()}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				buf := c.mem.Allocate(size)
				for i := 0; i < len(buf); i += 64 {
					buf[i] = 1
				}
				c.mem.Free(buf)
			}
		})
	}
}
