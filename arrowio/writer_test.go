package arrowio

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// roundTrip writes the columns with opts and checks that pqarrow reads
// back the same values and types.
func roundTrip(t *testing.T, mem memory.Allocator, opts WriteOptions, fields []arrow.Field, cols []arrow.Array) []byte {
	t.Helper()
	schema := arrow.NewSchema(fields, nil)
	rec := array.NewRecordBatch(schema, cols, int64(cols[0].Len()))
	defer rec.Release()
	buf := writeFile(t, schema, opts, rec)
	checkReadBack(t, buf, fields, cols)
	return buf
}

// checkReadBack checks that Quiver's reader and pqarrow (where it reads the
// types) read cols back from buf.
func checkReadBack(t *testing.T, buf []byte, fields []arrow.Field, cols []arrow.Array) {
	t.Helper()
	for i, got := range quiverRead(t, buf) {
		t.Run("quiver/"+fields[i].Name, func(t *testing.T) { assertSameValues(t, cols[i], got) })
		got.Release()
	}
	for _, f := range fields {
		if !pqarrowReads(f.Type) {
			return
		}
	}
	tbl := pqRead(t, memory.DefaultAllocator, buf) // pqarrow's own leaks are not ours
	defer tbl.Release()
	if tbl.NumRows() != int64(cols[0].Len()) {
		t.Fatalf("pqarrow reads %d rows, want %d", tbl.NumRows(), cols[0].Len())
	}
	for i, c := range cols {
		got := columnOf(t, memory.DefaultAllocator, tbl, i)
		t.Run("pqarrow/"+fields[i].Name, func(t *testing.T) { assertSameValues(t, c, got) })
		got.Release()
	}
}

func TestWriterTypesRoundTrip(t *testing.T) {
	for _, dt := range flatTypes {
		t.Run(typeName(dt), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			rng := rand.New(rand.NewPCG(1, uint64(dt.ID())))
			var fields []arrow.Field
			var cols []arrow.Array
			for _, nullable := range []bool{true, false} {
				if dt.ID() == arrow.NULL && !nullable {
					continue
				}
				for _, low := range []bool{true, false} {
					frac := 0.0
					if nullable {
						frac = 0.2
					}
					fields = append(fields, arrow.Field{Name: string(rune('a' + len(fields))), Type: dt, Nullable: nullable})
					cols = append(cols, randomArray(t, mem, dt, 3000, frac, low, rng))
				}
			}
			defer func() {
				for _, c := range cols {
					c.Release()
				}
			}()
			roundTrip(t, mem, WriteOptions{}, fields, cols)
		})
	}
}
