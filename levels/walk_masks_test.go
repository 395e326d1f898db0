package levels

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// refWalk is the plainest walk: entry by entry, a slot where the entry is
// defined to p's slot level and repeated at most at p's level, valid where
// defined to p's level; an element where defined to the element level and
// repeated at most at the element's.
func refWalk(p *plan, def, rep []int16) (valid []bool, offsets []int) {
	elems := 0
	for i, d := range def {
		r := int16(0)
		if rep != nil {
			r = rep[i]
		}
		if d >= p.SlotDefLevel && r <= p.RepLevel {
			offsets = append(offsets, elems)
			valid = append(valid, d >= p.DefLevel)
		}
		if d >= p.elemDef && r <= p.elemRep {
			elems++
		}
	}
	return valid, append(offsets, elems)
}

// plansOf returns p and every plan below it.
func plansOf(p *plan) []*plan {
	out := []*plan{p}
	for _, c := range p.children {
		out = append(out, plansOf(c)...)
	}
	return out
}

// TestWalkMasks checks the mask walks (walkNested, walkLeaf) against
// refWalk for every node of a nested type, on random levels of lengths
// around the words and chunks the walks work in.
func TestWalkMasks(t *testing.T) {
	f := arrow.Field{Name: "f", Nullable: true, Type: arrow.ListOf(arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		arrow.Field{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)},
	))}
	root, leaves, err := compile(planFor(f))
	if err != nil {
		t.Fatal(err)
	}
	lengths := []int{0, 1, 63, 64, 65, 200, maskChunk - 1, maskChunk, maskChunk + 1, 2*maskChunk + 77}
	if !testing.Short() {
		lengths = append(lengths, 5*maskChunk+3)
	}
	r := rand.New(rand.NewPCG(7, 8))
	m := new(walkMasks)
	for _, p := range plansOf(root) {
		leaf := leaves[p.rep]
		for _, n := range lengths {
			// Levels skewed towards the maximum, as real ones are, so
			// that words of all slots and of no slots both occur.
			def, rep := make([]int16, n), make([]int16, n)
			for i := range def {
				def[i] = leaf.DefLevel - int16(min(r.IntN(int(leaf.DefLevel)+3), int(leaf.DefLevel)))
				rep[i] = int16(r.IntN(int(leaf.RepLevel) + 1))
			}
			wantValid, wantOff := refWalk(p, def, rep)
			slots := len(wantValid)
			name := fmt.Sprintf("%s/n=%d", p.Name, n)
			checkWalk(t, name, p, def, rep, slots, wantValid, wantOff, m)
			for _, bad := range []int{slots - 1, slots + 1} {
				if bad < 0 {
					continue
				}
				valid := make([]byte, max((bad+63)/64*8, 8))
				if _, _, err := walk[int32](p, def, rep, bad, valid, nil, m); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("%s: %d slots asked, %d found: %v", name, bad, slots, err)
				}
			}
		}
	}
}

// checkWalk runs walk over def and rep with and without validity and
// offsets and compares with the reference.
func checkWalk(t *testing.T, name string, p *plan, def, rep []int16, slots int, wantValid []bool, wantOff []int, m *walkMasks) {
	t.Helper()
	wantNulls := 0
	for _, v := range wantValid {
		wantNulls += int(b2u(!v))
	}
	valid := make([]byte, max((slots+63)/64*8, 8))
	var offsets []int64
	if p.elemDef <= p.DefLevel+1 {
		offsets = make([]int64, slots+1)
	}
	nulls, elems, err := walk(p, def, rep, slots, valid, offsets, m)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if nulls != wantNulls {
		t.Fatalf("%s: %d nulls, want %d", name, nulls, wantNulls)
	}
	for i, v := range wantValid {
		if got := valid[i>>3]>>(i&7)&1 == 1; got != v {
			t.Fatalf("%s: slot %d valid %v, want %v", name, i, got, v)
		}
	}
	if offsets != nil {
		got := make([]int, len(offsets))
		for i, o := range offsets {
			got[i] = int(o)
		}
		if !slices.Equal(got, wantOff) || elems != wantOff[slots] {
			t.Fatalf("%s: offsets differ (%d elements, want %d)", name, elems, wantOff[slots])
		}
	}
	if _, _, err := walk[int32](p, def, rep, slots, nil, nil, m); err != nil {
		t.Fatalf("%s, without validity: %v", name, err)
	}
}
