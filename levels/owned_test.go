package levels

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestAssembleOwned assembles random nested arrays from owned values
// whose buffers have room for every slot: the arrays come back equal, and
// every leaf's values buffer is the owned one, spread in place, not a
// copy.
func TestAssembleOwned(t *testing.T) {
	cases := 300
	if testing.Short() {
		cases = 60
	}
	forRandomArrays(t, 7, cases, 40, func(t *testing.T, mem memory.Allocator, c int, f arrow.Field, ins []arrow.Array) {
		root := planFor(f)
		sh, err := NewShredder(root)
		if err != nil {
			t.Fatal(err)
		}
		as, err := NewAssembler(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range ins {
			cols, err := sh.Shred(mem, in)
			if err != nil {
				t.Fatalf("shred: %v", err)
			}
			owned := make([]Column, len(cols))
			for i, col := range cols {
				owned[i] = Column{Def: col.Def, Rep: col.Rep, Values: ownedCopy(t, mem, col.Values, len(col.Def)+1), Owned: true}
			}
			releaseColumns(cols)
			out, err := as.Assemble(mem, in.Len(), owned)
			if err != nil {
				t.Fatalf("assemble: %v", err)
			}
			if err := array.ValidateFull(out); err != nil {
				t.Fatalf("assembled array is invalid: %v", err)
			}
			if !array.Equal(in, out) {
				t.Fatalf("round trip differs:\n in: %v\nout: %v", in, out)
			}
			used := map[*memory.Buffer]bool{}
			collectBuffers(out.Data(), used)
			for i, col := range owned {
				bufs := col.Values.Data().Buffers()
				if col.Values.Len() > 0 && len(bufs) > 1 && bufs[1] != nil && !used[bufs[1]] {
					t.Errorf("leaf %d (%s): the owned values buffer is not the result's", i, col.Values.DataType())
				}
			}
			out.Release()
			releaseColumns(owned)
		}
	})
}

// ownedCopy copies a into new buffers at offset 0 whose values buffer has
// room for 64 bytes of every one of slots slots.
func ownedCopy(t *testing.T, mem memory.Allocator, a arrow.Array, slots int) arrow.Array {
	t.Helper()
	c, err := array.Concatenate([]arrow.Array{a}, mem)
	if err != nil {
		t.Fatal(err)
	}
	if bufs := c.Data().Buffers(); len(bufs) > 1 && bufs[1] != nil {
		bufs[1].Reserve(64 * slots)
	}
	return c
}

// collectBuffers adds the buffers of d and its children to set.
func collectBuffers(d arrow.ArrayData, set map[*memory.Buffer]bool) {
	for _, b := range d.Buffers() {
		if b != nil {
			set[b] = true
		}
	}
	for _, c := range d.Children() {
		collectBuffers(c, set)
	}
}
