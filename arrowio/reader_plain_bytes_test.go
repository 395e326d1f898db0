package arrowio_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/quiverio/quiver/arrowio"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
)

// plainStrings builds a record of rows rows: "w", nullable strings, and
// "s", a nullable struct of one nullable string "label", both of length
// size(i) at row i with about one null in ten.
func plainStrings(t *testing.T, rows int, size func(i int) int) arrow.RecordBatch {
	t.Helper()
	st := arrow.StructOf(arrow.Field{Name: "label", Type: arrow.BinaryTypes.String, Nullable: true})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "w", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "s", Type: st, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	w := b.Field(0).(*array.StringBuilder)
	s := b.Field(1).(*array.StructBuilder)
	label := s.FieldBuilder(0).(*array.StringBuilder)
	rng := rand.New(rand.NewPCG(8, 9))
	word := func(i int) string {
		v := make([]byte, size(i))
		for j := range v {
			v[j] = byte('a' + rng.IntN(26))
		}
		return string(v)
	}
	for i := range rows {
		if rng.IntN(10) == 0 {
			w.AppendNull()
		} else {
			w.Append(word(i))
		}
		switch rng.IntN(20) {
		case 0:
			s.AppendNull()
		case 1:
			s.Append(true)
			label.AppendNull()
		default:
			s.Append(true)
			label.Append(word(i))
		}
	}
	return b.NewRecordBatch()
}

// TestPlainByteArrayAllocation reads short PLAIN strings, flat and in a
// struct, from a file without size statistics (pqarrow's): their data is
// sized from the chunk's size less the values' 4-byte lengths, and the
// struct's strings spread over its null slots in place, so the read
// allocates little more than it returns. Sized from the chunk's size as it
// stands, the data buffers alone would take 1.6 times the data.
func TestPlainByteArrayAllocation(t *testing.T) {
	rec := plainStrings(t, 200_000, func(i int) int { return 3 + i%7 })
	defer rec.Release()
	file := arrowiotest.WritePqarrow(t, rec, parquet.WithDictionaryDefault(false), parquet.WithStats(true))
	mem := &totalAllocator{}
	tbl := arrowiotest.ReadTable(t, file, arrowio.ReadOptions{Allocator: mem, Parallelism: 1})
	defer tbl.Release()
	arrowiotest.CheckTable(t, "ReadTable", tbl, rec)
	decoded := 0
	for i := range int(tbl.NumCols()) {
		for _, ch := range tbl.Column(i).Data().Chunks() {
			decoded += bufferBytes(ch.Data())
		}
	}
	if limit := decoded * 115 / 100; mem.total > limit {
		t.Errorf("allocated %d bytes for %d decoded (limit %d)", mem.total, decoded, limit)
	}
}

// bufferBytes is the length of d's buffers and its children's.
func bufferBytes(d arrow.ArrayData) int {
	n := 0
	for _, b := range d.Buffers() {
		if b != nil {
			n += b.Len()
		}
	}
	for _, c := range d.Children() {
		n += bufferBytes(c)
	}
	return n
}

// TestPlainByteArrayOutgrowsEstimate reads strings that lengthen along the
// chunk in batches of 1,000 rows, so that the late batches hold far more than
// their share of the chunk's data and outgrow the room they were given
// in the middle of a page: the values are sized and the buffer grown.
func TestPlainByteArrayOutgrowsEstimate(t *testing.T) {
	const rows = 20_000
	rec := plainStrings(t, rows, func(i int) int { return 1 + i*120/rows })
	defer rec.Release()
	for _, v2 := range []bool{false, true} {
		t.Run(fmt.Sprintf("v2=%v", v2), func(t *testing.T) {
			version := parquet.DataPageV1
			if v2 {
				version = parquet.DataPageV2
			}
			file := arrowiotest.WritePqarrow(t, rec, parquet.WithDictionaryDefault(false), parquet.WithDataPageVersion(version),
				parquet.WithDataPageSize(256<<10))
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Allocator: mem, BatchSize: 1000, Parallelism: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer rd.Close()
			tbl, err := arrowiotest.ReadBatches(rd)
			if err != nil {
				t.Fatal(err)
			}
			defer tbl.Release()
			arrowiotest.CheckTable(t, "batches of 1000", tbl, rec)
		})
	}
}
