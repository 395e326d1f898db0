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
		for _, in := range ins {
			roundTrip(t, mem, planFor(f), in, true)
		}
	})
}

// ownedCopies replaces the values of cols (released) with copies at
// offset 0 whose values buffer has room for 64 bytes of every level, and
// marks them owned.
func ownedCopies(t *testing.T, mem memory.Allocator, cols []Column) []Column {
	t.Helper()
	out := make([]Column, len(cols))
	for i, c := range cols {
		v, err := array.Concatenate([]arrow.Array{c.Values}, mem)
		if err != nil {
			t.Fatal(err)
		}
		if bufs := v.Data().Buffers(); len(bufs) > 1 && bufs[1] != nil {
			bufs[1].Reserve(64 * (len(c.Def) + 1))
		}
		out[i] = Column{Def: c.Def, Rep: c.Rep, Values: v, Owned: true}
	}
	releaseColumns(cols)
	return out
}

// checkSpreadInPlace fails unless every column's values buffer is among
// the buffers of out.
func checkSpreadInPlace(t *testing.T, out arrow.Array, cols []Column) {
	t.Helper()
	used := map[*memory.Buffer]bool{}
	collectBuffers(out.Data(), used)
	for i, c := range cols {
		bufs := c.Values.Data().Buffers()
		if c.Values.Len() > 0 && len(bufs) > 1 && bufs[1] != nil && !used[bufs[1]] {
			t.Errorf("leaf %d (%s): the owned values buffer is not the result's", i, c.Values.DataType())
		}
	}
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
