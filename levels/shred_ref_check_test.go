package levels

import (
	"errors"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestShredMatchesReference shreds random arrays (whole, sliced, and with
// nullable fields forced required so that nulls are errors) with the
// Shredder and with the slot-by-slot reference: the levels and the
// present runs are the same, and so is failing.
func TestShredMatchesReference(t *testing.T) {
	cases := 600
	if testing.Short() {
		cases = 100
	}
	forRandomArrays(t, 3, cases, 60, func(t *testing.T, mem memory.Allocator, c int, f arrow.Field, ins []arrow.Array) {
		root := planFor(f)
		if c%4 == 3 {
			root = requiredPlan(f)
		}
		sh, err := NewShredder(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range ins {
			compareShred(t, mem, sh, in)
		}
	})
}

// compareShred shreds in both ways and compares.
func compareShred(t *testing.T, mem memory.Allocator, sh *Shredder, in arrow.Array) {
	t.Helper()
	want, werr := refShred(sh, in)
	cols, err := sh.Shred(mem, in)
	if (err != nil) != (werr != nil) {
		t.Fatalf("shred error %v, reference error %v", err, werr)
	}
	if err != nil {
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("error does not wrap ErrCorrupt: %v", err)
		}
		return
	}
	defer releaseColumns(cols)
	for i, c := range cols {
		w, st := want[i], sh.state[i]
		if !slices.Equal(c.Def, w.def) {
			t.Fatalf("leaf %d: definition levels\n got %v\nwant %v", i, c.Def, w.def)
		}
		if sh.leaves[i].RepLevel > 0 && !slices.Equal(c.Rep, w.rep) {
			t.Fatalf("leaf %d: repetition levels\n got %v\nwant %v", i, c.Rep, w.rep)
		}
		if !slices.Equal(st.runs, w.runs) || st.count != w.count {
			t.Fatalf("leaf %d: present runs %v (%d), want %v (%d)", i, st.runs, st.count, w.runs, w.count)
		}
	}
}
