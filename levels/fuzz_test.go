package levels

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/levels/levelstest"
)

// fuzzInput is what FuzzAssemble decodes its bytes into: for each leaf of
// the plan, levels and a value count, and the rows asked for.
//
// The byte format is: one byte that shifts the row count (int8), then per
// leaf one byte n, n pairs of bytes (definition level, repetition level,
// each taken modulo the leaf's maximum plus one, so most streams stay in
// range) and one byte that shifts the value count (int8). Missing bytes
// read as zero.
type fuzzInput struct {
	rows int
	cols []fuzzLeaf
}

type fuzzLeaf struct {
	def, rep []int16
	values   int
}

// decodeFuzz reads data as a fuzzInput for assembler a.
func decodeFuzz(a *Assembler, data []byte) fuzzInput {
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	rowShift := int(int8(next()))
	in := fuzzInput{cols: make([]fuzzLeaf, len(a.leaves))}
	for i, l := range a.leaves {
		n := int(next())
		c := fuzzLeaf{def: make([]int16, n), rep: make([]int16, n)}
		for j := range n {
			c.def[j] = int16(next()) % (l.DefLevel + 1)
			c.rep[j] = int16(next()) % (l.RepLevel + 1)
			if c.def[j] == l.DefLevel {
				c.values++
			}
		}
		c.values = max(c.values+int(int8(next())), 0)
		in.cols[i] = c
	}
	if l := a.leaves[0]; l.RepLevel > 0 {
		in.rows = CountRows(in.cols[0].rep)
	} else {
		in.rows = len(in.cols[0].def)
	}
	in.rows = max(in.rows+rowShift, 0)
	return in
}

// encodeFuzz is decodeFuzz's inverse for columns of at most 255 entries.
func encodeFuzz(cols []Column) []byte {
	out := []byte{0}
	for _, c := range cols {
		out = append(out, byte(len(c.Def)))
		for i, d := range c.Def {
			r := int16(0)
			if c.Rep != nil {
				r = c.Rep[i]
			}
			out = append(out, byte(d), byte(r))
		}
		out = append(out, 0)
	}
	return out
}

// fuzzField returns the field FuzzAssemble assembles for seed.
func fuzzField(seed uint64) arrow.Field {
	r := rand.New(rand.NewPCG(seed, 7))
	return arrow.Field{Name: "f", Type: levelstest.RandType(r, 3, true), Nullable: seed&1 == 0}
}

// FuzzAssemble feeds the assembler arbitrary level streams and value
// counts for random plans, with values it owns or, for odd seeds, owned
// values it may spread in place: it returns a valid array or an error wrapping
// ErrCorrupt, never panics, and frees what it allocates. Seeds are the
// shredded levels of random arrays, which assemble.
func FuzzAssemble(f *testing.F) {
	for seed := range uint64(24) {
		r := rand.New(rand.NewPCG(seed, 8))
		fld := fuzzField(seed)
		sh, err := NewShredder(planFor(fld))
		if err != nil {
			f.Fatal(err)
		}
		arr := levelstest.RandArray(r, memory.DefaultAllocator, fld, 1+r.IntN(6), nil, true)
		cols, err := sh.Shred(memory.DefaultAllocator, arr)
		if err != nil {
			f.Fatal(err)
		}
		if small := func() bool {
			for _, c := range cols {
				if len(c.Def) > 255 {
					return false
				}
			}
			return len(cols) > 0
		}(); small {
			f.Add(seed, encodeFuzz(cols))
		}
		releaseColumns(cols)
		arr.Release()
	}
	f.Fuzz(func(t *testing.T, seed uint64, data []byte) {
		as, err := NewAssembler(planFor(fuzzField(seed)))
		if err != nil {
			t.Fatal(err)
		}
		in := decodeFuzz(as, data)
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		r := rand.New(rand.NewPCG(seed, 9))
		cols := make([]Column, len(in.cols))
		for i, c := range in.cols {
			l := as.leaves[i]
			cols[i] = Column{Def: c.def, Rep: c.rep,
				Values: levelstest.RandArray(r, mem, arrow.Field{Name: l.Name, Type: l.Type}, c.values, nil, true)}
		}
		if seed%2 == 1 {
			// Odd seeds give the values up, for Assemble to spread in place.
			cols = ownedCopies(t, mem, cols)
		}
		defer releaseColumns(cols)
		out, err := as.Assemble(mem, in.rows, cols)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("error does not wrap ErrCorrupt: %v", err)
			}
			return
		}
		defer out.Release()
		if out.Len() != in.rows {
			t.Fatalf("%d rows asked, %d assembled", in.rows, out.Len())
		}
		if err := array.ValidateFull(out); err != nil {
			t.Fatalf("assembled an invalid %s: %v", out.DataType(), err)
		}
	})
}
