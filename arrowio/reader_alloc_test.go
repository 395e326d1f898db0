package arrowio_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/quiverio/quiver/arrowio"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
)

// peakAllocator is a Go allocator that records the most bytes it had
// allocated at once.
type peakAllocator struct {
	mu        sync.Mutex
	cur, peak int
	mem       memory.GoAllocator
}

func (a *peakAllocator) add(n int) {
	a.mu.Lock()
	a.cur += n
	a.peak = max(a.peak, a.cur)
	a.mu.Unlock()
}

func (a *peakAllocator) Allocate(size int) []byte {
	a.add(size)
	return a.mem.Allocate(size)
}

func (a *peakAllocator) Reallocate(size int, b []byte) []byte {
	a.add(size - len(b))
	return a.mem.Reallocate(size, b)
}

func (a *peakAllocator) Free(b []byte) {
	a.add(-len(b))
	a.mem.Free(b)
}

// lyingFile writes a small file with flat and nested columns and rewrites
// its footer with edit.
func lyingFile(t *testing.T, edit func(*footer.FileMetaData)) []byte {
	t.Helper()
	mem := memory.NewGoAllocator()
	fields := []arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "d", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}},
		{Name: "st", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true}), Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
	}
	const rows = 100
	var cols []arrow.Array
	for _, f := range fields {
		var js strings.Builder
		js.WriteString("[")
		for i := range rows {
			if i > 0 {
				js.WriteString(",")
			}
			switch f.Name {
			case "i":
				fmt.Fprintf(&js, "%d", i)
			case "s", "d":
				fmt.Fprintf(&js, "%q", fmt.Sprint("v", i%7))
			case "st":
				fmt.Fprintf(&js, `{"x": %d}`, i)
			case "l":
				fmt.Fprintf(&js, "[%d, %d]", i, -i)
			}
		}
		js.WriteString("]")
		var arr arrow.Array
		var err error
		if dt, ok := f.Type.(*arrow.DictionaryType); ok {
			var vals arrow.Array
			vals, _, err = array.FromJSON(mem, dt.ValueType, strings.NewReader(js.String()))
			if err == nil {
				b := array.NewDictionaryBuilder(mem, dt)
				err = b.AppendArray(vals)
				arr = b.NewArray()
				b.Release()
				vals.Release()
			}
		} else {
			arr, _, err = array.FromJSON(mem, f.Type, strings.NewReader(js.String()))
		}
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		cols = append(cols, arr)
	}
	schema := arrow.NewSchema(fields, nil)
	rec := array.NewRecordBatch(schema, cols, rows)
	releaseAll(cols)
	defer rec.Release()
	file := arrowiotest.WriteFile(t, schema, arrowio.WriteOptions{}, rec)

	ft, err := footer.ReadFooter(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	edit(ft.Meta)
	out := append([]byte(nil), file[:ft.MetaOffset]...)
	meta := footer.Marshal(nil, ft.Meta)
	out = append(out, meta...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(meta)))
	return append(out, footer.MagicPlain...)
}

// TestLyingCounts reads files whose footers declare far more rows, levels
// or bytes than their pages hold: every read fails with a CorruptError and
// allocates in proportion to the file, not to the declared counts.
func TestLyingCounts(t *testing.T) {
	for _, lie := range []int64{1 << 53, 1 << 40, 1<<31 + 5, 101} {
		for _, c := range []struct {
			name string
			edit func(*footer.FileMetaData)
		}{
			{"rows", func(m *footer.FileMetaData) {
				m.NumRows, m.RowGroups[0].NumRows = lie, lie
			}},
			{"rows+levels", func(m *footer.FileMetaData) {
				m.NumRows, m.RowGroups[0].NumRows = lie, lie
				for i := range m.RowGroups[0].Columns {
					m.RowGroups[0].Columns[i].MetaData.NumValues = lie
					m.RowGroups[0].Columns[i].MetaData.TotalUncompressedSize = lie
				}
			}},
			{"rows-no-levels", func(m *footer.FileMetaData) {
				m.NumRows, m.RowGroups[0].NumRows = lie, lie
				for i := range m.RowGroups[0].Columns {
					m.RowGroups[0].Columns[i].MetaData.NumValues = 0
				}
			}},
		} {
			file := lyingFile(t, c.edit)
			for _, how := range []string{"table", "rowgroup", "batches"} {
				t.Run(fmt.Sprintf("%s=%d/%s", c.name, lie, how), func(t *testing.T) {
					mem := &peakAllocator{}
					rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{Allocator: mem, Parallelism: 1})
					if err != nil {
						t.Fatalf("open: %v", err)
					}
					defer rd.Close()
					var tbl interface{ Release() }
					switch how {
					case "table":
						tbl, err = rd.ReadTable(context.Background())
					case "rowgroup":
						tbl, err = rd.ReadRowGroup(context.Background(), 0)
					default:
						tbl, err = arrowiotest.ReadBatches(rd)
					}
					if err == nil {
						tbl.Release()
					}
					var ce *arrowio.CorruptError
					if !errors.As(err, &ce) || !errors.Is(err, arrowio.ErrCorrupt) {
						t.Errorf("err = %v, want a CorruptError", err)
					}
					if limit := 64 << 20; mem.peak > limit {
						t.Errorf("peak allocation %d bytes for a %d-byte file, want at most %d", mem.peak, len(file), limit)
					}
					if mem.cur != 0 {
						t.Errorf("%d bytes still allocated after the failed read", mem.cur)
					}
				})
			}
		}
	}
}

// totalAllocator is a Go allocator that counts every byte it hands out,
// reallocations that need new memory included.
type totalAllocator struct {
	mu    sync.Mutex
	total int
	mem   memory.GoAllocator
}

func (a *totalAllocator) Allocate(size int) []byte {
	a.mu.Lock()
	a.total += size
	a.mu.Unlock()
	return a.mem.Allocate(size)
}

func (a *totalAllocator) Reallocate(size int, b []byte) []byte {
	if size > cap(b) { // shrinking, or growing within capacity, reslices
		a.mu.Lock()
		a.total += size
		a.mu.Unlock()
	}
	return a.mem.Reallocate(size, b)
}

func (a *totalAllocator) Free(b []byte) { a.mem.Free(b) }

// TestDeltaByteArrayAllocation reads DELTA_BYTE_ARRAY values that share
// prefixes, so that they decode to more than the chunk's size: their data
// buffer must be sized from the first page, neither from the chunk's size
// nor grown by doubling (each allocated well over the data).
func TestDeltaByteArrayAllocation(t *testing.T) {
	const rows = 100_000
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	rng := rand.New(rand.NewPCG(5, 6))
	suffix := make([]byte, 20)
	for range rows {
		for i := range suffix {
			suffix[i] = byte('a' + rng.IntN(26))
		}
		b.Append("https://example.com/" + string(suffix))
	}
	col := b.NewArray()
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "url", Type: arrow.BinaryTypes.String}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, rows)
	defer rec.Release()
	file := arrowiotest.WriteFile(t, schema, arrowio.WriteOptions{
		DisableDictionary: true,
		Encoding:          footer.Some(footer.EncodingDeltaByteArray),
		DataPageSize:      64 << 10,
	}, rec)
	// The values must outgrow the chunk's size, which a reader could
	// take for their size, by more than the allocation limit allows.
	if len(file)*14/10 > col.Data().Buffers()[2].Len() {
		t.Fatalf("the file (%d bytes) does not shrink the %d value bytes enough for the test", len(file), col.Data().Buffers()[2].Len())
	}
	mem := &totalAllocator{}
	tbl := arrowiotest.ReadTable(t, file, arrowio.ReadOptions{Allocator: mem, Parallelism: 1})
	defer tbl.Release()
	got := tbl.Column(0).Data().Chunk(0).(*array.String)
	if !array.Equal(got, col) {
		t.Fatal("values differ")
	}
	decoded := got.Data().Buffers()[1].Len() + got.Data().Buffers()[2].Len()
	if limit := decoded * 13 / 10; mem.total > limit {
		t.Errorf("allocated %d bytes for %d decoded (limit %d)", mem.total, decoded, limit)
	}
}

// TestSmallChunksAllocation reads a file of many small column chunks (200
// columns of int64, float64, int32 and dictionary-encoded strings, every
// fifth nullable, in row groups of 1,000 rows), where what a reader
// allocates per chunk rather than per value decides its allocations. The
// bound, 12 allocations per chunk with the footer and the Arrow arrays
// counted, is half what reading such a file took before the leaf readers
// were pooled.
func TestSmallChunksAllocation(t *testing.T) {
	const cols, rows, groupRows = 200, 3000, 1000
	mem := memory.NewGoAllocator()
	fields := make([]arrow.Field, cols)
	arrs := make([]arrow.Array, cols)
	rng := rand.New(rand.NewPCG(7, 8))
	for c := range fields {
		fields[c] = arrow.Field{Name: fmt.Sprintf("c%03d", c), Nullable: c%5 == 0}
		var b array.Builder
		switch c % 4 {
		case 0:
			fields[c].Type, b = arrow.PrimitiveTypes.Int64, array.NewInt64Builder(mem)
		case 1:
			fields[c].Type, b = arrow.PrimitiveTypes.Float64, array.NewFloat64Builder(mem)
		case 2:
			fields[c].Type, b = arrow.PrimitiveTypes.Int32, array.NewInt32Builder(mem)
		default:
			fields[c].Type, b = arrow.BinaryTypes.String, array.NewStringBuilder(mem)
		}
		for range rows {
			if fields[c].Nullable && rng.IntN(10) == 0 {
				b.AppendNull()
				continue
			}
			switch b := b.(type) {
			case *array.Int64Builder:
				b.Append(rng.Int64())
			case *array.Float64Builder:
				b.Append(rng.Float64())
			case *array.Int32Builder:
				b.Append(rng.Int32())
			case *array.StringBuilder:
				b.Append(fmt.Sprintf("value-%d", rng.IntN(20)))
			}
		}
		arrs[c] = b.NewArray()
		b.Release()
		defer arrs[c].Release()
	}
	schema := arrow.NewSchema(fields, nil)
	rec := array.NewRecordBatch(schema, arrs, rows)
	defer rec.Release()
	file := arrowiotest.WriteFile(t, schema, arrowio.WriteOptions{MaxRowGroupRows: groupRows}, rec)
	read := func() { arrowiotest.ReadTable(t, file, arrowio.ReadOptions{Parallelism: 1}).Release() }
	read()
	chunks := float64(cols * rows / groupRows)
	if per := testing.AllocsPerRun(3, read) / chunks; per > 12 {
		t.Errorf("%.1f allocations per column chunk, want at most 12", per)
	} else {
		t.Logf("%.1f allocations per column chunk", per)
	}
}
