package arrowio

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/internal/corpus"
	"github.com/quiverio/quiver/pageindex"
)

// readPath opens path with opts, reads it whole (with ReadTable, or with
// RecordReader batches when batches is set) and closes the Reader before
// returning, so that the arrays are used after Close. mapped reports
// whether the file was memory-mapped.
func readPath(path string, opts ReadOptions, batches bool) (tbl arrow.Table, mapped bool, err error) {
	rd, err := OpenFile(path, opts)
	if err != nil {
		return nil, false, err
	}
	mapped = rd.f.Mapped()
	if batches {
		tbl, err = readAllBatches(rd)
	} else {
		tbl, err = rd.ReadTable(context.Background())
	}
	if cerr := rd.Close(); err == nil && cerr != nil {
		tbl.Release()
		return nil, mapped, cerr
	}
	return tbl, mapped, err
}

// TestMemoryMapCorpus reads every corpus file with and without MemoryMap:
// the same values (read after Close), the same errors for the bad files,
// nothing leaked, and every readable plaintext file really mapped.
func TestMemoryMapCorpus(t *testing.T) {
	root := corpus.Dir(t)
	mappedFiles := 0
	for _, rel := range corpus.Files(t) {
		path := filepath.Join(root, rel)
		t.Run(rel, func(t *testing.T) {
			cases := []struct {
				par     int
				batches bool
			}{{1, false}, {2, false}, {1, true}}
			if testing.Short() {
				cases = cases[:1]
			}
			for _, c := range cases {
				want, _, wantErr := readPath(path, ReadOptions{Parallelism: c.par, BatchSize: 1000}, c.batches)
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				got, mapped, err := readPath(path, ReadOptions{Parallelism: c.par, BatchSize: 1000, MemoryMap: true, Allocator: mem}, c.batches)
				if (err == nil) != (wantErr == nil) {
					t.Fatalf("parallelism %d, batches %v: mapped read error %v, ReadAt read error %v", c.par, c.batches, err, wantErr)
				}
				if err != nil {
					mem.AssertSize(t, 0)
					return
				}
				if !array.TableApproxEqual(want, got, array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
					t.Errorf("parallelism %d, batches %v: mapped read differs", c.par, c.batches)
				}
				if !mapped && !strings.Contains(rel, "encrypt") {
					t.Errorf("a readable plaintext file was not mapped")
				}
				if mapped {
					mappedFiles++
				}
				want.Release()
				got.Release()
				mem.AssertSize(t, 0)
			}
		})
	}
	if mappedFiles == 0 {
		t.Fatal("no corpus file was read through a mapping")
	}
}

// TestMemoryMapFilteredAndRowGroups reads a quiver file with several row
// groups through a mapping with a filter and row by row group, as without.
func TestMemoryMapFilteredAndRowGroups(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	path := writeTempFile(t, schema, WriteOptions{DataPageSize: 4 << 10}, 4, func(b int) arrow.RecordBatch {
		return mmapTestBatch(schema, b*5000, 5000)
	})
	filter := pageindex.And(pageindex.GreaterEq("k", pageindex.Int(7000)), pageindex.Less("k", pageindex.Int(12500)))
	for _, opts := range []ReadOptions{{Filter: filter}, {Filter: filter, Parallelism: 2}, {Columns: []string{"s"}}} {
		want, _, err := readPath(path, opts, false)
		if err != nil {
			t.Fatal(err)
		}
		mapped := opts
		mapped.MemoryMap = true
		got, ok, err := readPath(path, mapped, false)
		if err != nil || !ok {
			t.Fatalf("mapped read: mapped %v, %v", ok, err)
		}
		if !array.TableEqual(want, got) {
			t.Errorf("options %+v: mapped read differs", opts)
		}
		want.Release()
		got.Release()
	}
	rd, err := OpenFile(path, ReadOptions{MemoryMap: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	for i := range rd.NumRowGroups() {
		rec, err := rd.ReadRowGroup(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		want := mmapTestBatch(schema, i*5000, 5000)
		if !array.RecordEqual(rec, want) {
			t.Errorf("row group %d differs", i)
		}
		rec.Release()
		want.Release()
	}
}

// mmapTestBatch returns rows [from, from+n) of the mapped-read tests' data.
func mmapTestBatch(schema *arrow.Schema, from, n int) arrow.RecordBatch {
	kb := array.NewInt64Builder(memory.DefaultAllocator)
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	defer kb.Release()
	defer sb.Release()
	for k := from; k < from+n; k++ {
		kb.Append(int64(k))
		if k%7 == 0 {
			sb.AppendNull()
		} else {
			sb.Append(strings.Repeat("v", k%23))
		}
	}
	k, s := kb.NewArray(), sb.NewArray()
	defer k.Release()
	defer s.Release()
	return array.NewRecordBatch(schema, []arrow.Array{k, s}, int64(n))
}

// TestMemoryMapTruncated truncates a mapped file under the Reader: reading
// the pages past the new end is an error wrapping ErrCorrupt, not a crash.
func TestMemoryMapTruncated(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("files are not mapped on this system")
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64}}, nil)
	keys := func(int) arrow.RecordBatch {
		b := array.NewInt64Builder(memory.DefaultAllocator)
		defer b.Release()
		for k := range 200_000 {
			b.Append(int64(k))
		}
		k := b.NewArray()
		defer k.Release()
		return array.NewRecordBatch(schema, []arrow.Array{k}, 200_000)
	}
	path := writeTempFile(t, schema, WriteOptions{DisableDictionary: true}, 1, keys)
	for _, batches := range []bool{false, true} {
		rd, err := OpenFile(path, ReadOptions{MemoryMap: true})
		if err != nil {
			t.Fatal(err)
		}
		if !rd.f.Mapped() {
			t.Fatal("the file was not mapped")
		}
		err = truncateAndRead(t, rd, path, batches)
		if !errors.Is(err, errs.ErrCorrupt) || !strings.Contains(err.Error(), "changed while it was read") {
			t.Errorf("batches %v: reading a truncated mapped file: %v", batches, err)
		}
		if err := rd.Close(); err != nil {
			t.Fatal(err)
		}
		// Write the file again for the next round.
		path = writeTempFile(t, schema, WriteOptions{DisableDictionary: true}, 1, keys)
	}
}

// truncateAndRead cuts the file at path, which rd reads, to 8 KiB and
// reads rd whole, with ReadTable or in batches, and returns the error.
func truncateAndRead(t *testing.T, rd *Reader, path string, batches bool) error {
	t.Helper()
	if err := os.Truncate(path, 8192); err != nil {
		t.Fatal(err)
	}
	var tbl arrow.Table
	var err error
	if batches {
		tbl, err = readAllBatches(rd)
	} else {
		tbl, err = rd.ReadTable(context.Background())
	}
	if tbl != nil {
		tbl.Release()
	}
	return err
}

// TestMemoryMapNotParquet checks that files quiver cannot read give the
// same errors mapped as not.
func TestMemoryMapNotParquet(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"empty": "", "text": strings.Repeat("not parquet ", 100)} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, errPlain := OpenFile(path, ReadOptions{})
		_, errMapped := OpenFile(path, ReadOptions{MemoryMap: true})
		if errPlain == nil || errMapped == nil || errPlain.Error() != errMapped.Error() {
			t.Errorf("%s: mapped %v, not mapped %v", name, errMapped, errPlain)
		}
	}
}
