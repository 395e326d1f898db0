package levels

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/levels/levelstest"
)

// TestShredAssembleRoundTrip shreds random nested arrays (and slices of
// them) of random types and assembles the result: the array comes back
// equal, and each leaf's levels satisfy the plan's invariants.
func TestShredAssembleRoundTrip(t *testing.T) {
	cases := 400
	if testing.Short() {
		cases = 60
	}
	forRandomArrays(t, 1, cases, 40, func(t *testing.T, mem memory.Allocator, c int, f arrow.Field, ins []arrow.Array) {
		for _, in := range ins {
			roundTrip(t, mem, planFor(f), in, false)
		}
	})
}

// forRandomArrays runs fn on cases random fields of random nested types
// (seeded by stream), each with a random array of up to maxLen-1 rows
// and a random slice of it, in a subtest with a checked allocator.
func forRandomArrays(t *testing.T, stream uint64, cases, maxLen int,
	fn func(t *testing.T, mem memory.Allocator, c int, f arrow.Field, ins []arrow.Array)) {
	for c := range cases {
		r := rand.New(rand.NewPCG(stream, uint64(c)))
		f := arrow.Field{Name: "f", Type: levelstest.RandType(r, 4, true), Nullable: r.IntN(3) != 0}
		t.Run(fmt.Sprintf("%d/%s", c, f.Type), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			n := r.IntN(maxLen)
			arr := levelstest.RandArray(r, mem, f, n, nil, true)
			defer arr.Release()
			lo := r.IntN(n + 1)
			hi := lo + r.IntN(n-lo+1)
			sl := array.NewSlice(arr, int64(lo), int64(hi))
			defer sl.Release()
			fn(t, mem, c, f, []arrow.Array{arr, sl})
		})
	}
}

// roundTrip shreds in with plan root, assembles the columns and compares.
// With owned, the columns assembled are owned copies (Column.Owned) with
// room for every slot, and each must be spread in place: its values
// buffer must be the result's.
func roundTrip(t *testing.T, mem memory.Allocator, root *Node, in arrow.Array, owned bool) {
	t.Helper()
	sh, err := NewShredder(root)
	if err != nil {
		t.Fatal(err)
	}
	as, err := NewAssembler(root)
	if err != nil {
		t.Fatal(err)
	}
	cols, err := sh.Shred(mem, in)
	if err != nil {
		t.Fatalf("shred: %v", err)
	}
	if owned {
		cols = ownedCopies(t, mem, cols)
	}
	defer releaseColumns(cols)
	for i, c := range cols {
		checkLevels(t, as.leaves[i], c, in.Len())
	}
	out, err := as.Assemble(mem, in.Len(), cols)
	if err != nil {
		t.Fatalf("assemble: %v", err)
	}
	defer out.Release()
	if err := array.ValidateFull(out); err != nil {
		t.Fatalf("assembled array is invalid: %v", err)
	}
	if !array.Equal(in, out) {
		t.Fatalf("round trip differs:\n in: %v\nout: %v", in, out)
	}
	if owned {
		checkSpreadInPlace(t, out, cols)
	}
}

// checkLevels checks the Dremel invariants of one leaf's levels: levels
// within the leaf's maxima, one row start per row, and a value per entry
// at the maximum definition level.
func checkLevels(t *testing.T, l *plan, c Column, rows int) {
	t.Helper()
	values := 0
	for i, d := range c.Def {
		if d < 0 || d > l.DefLevel {
			t.Fatalf("leaf %s: definition level %d at %d, max %d", l.Name, d, i, l.DefLevel)
		}
		if d == l.DefLevel {
			values++
		}
	}
	if values != c.Values.Len() {
		t.Fatalf("leaf %s: %d entries at the max definition level, %d values", l.Name, values, c.Values.Len())
	}
	if c.Rep == nil {
		if len(c.Def) != rows {
			t.Fatalf("leaf %s: %d entries for %d rows without repetition", l.Name, len(c.Def), rows)
		}
		return
	}
	if len(c.Rep) != len(c.Def) {
		t.Fatalf("leaf %s: %d repetition levels, %d definition levels", l.Name, len(c.Rep), len(c.Def))
	}
	if got := CountRows(c.Rep); got != rows {
		t.Fatalf("leaf %s: %d row starts for %d rows", l.Name, got, rows)
	}
	for i, r := range c.Rep {
		if r < 0 || r > l.RepLevel {
			t.Fatalf("leaf %s: repetition level %d at %d, max %d", l.Name, r, i, l.RepLevel)
		}
	}
}
