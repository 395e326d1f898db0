package bench

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/bench/datasets"
	"github.com/quiverio/quiver/bench/pqfiles"
)

// BenchmarkRead reads whole files into memory with every reader, for every
// dataset in every configuration it is written with.
func BenchmarkRead(b *testing.B) {
	for _, d := range datasets.All() {
		set := files(b, d)
		for _, c := range pqfiles.Configs(d) {
			for _, r := range readers {
				name := fmt.Sprintf("dataset=%s/config=%s/impl=%s", d.Name, c.Name, r.name)
				b.Run(name, func(b *testing.B) {
					benchRead(b, r, set.Path(c), allColumns, all, set.Meta.ArrowBytes, set.Meta.Rows)
				})
			}
		}
	}
}

// BenchmarkReadCold reads whole files with quiver and pqarrow, each read
// after two garbage collections outside the timer. Those empty the
// sync.Pools in which quiver keeps its scratch buffers, so that every
// read allocates as the first of a process does, where BenchmarkRead's
// later reads take the scratch of the ones before (and, for
// quiver-recycling, the released buffers of their arrays).
// alloc/decoded is the bytes allocated per read over the decoded Arrow
// bytes, the figure the reader's allocation goal is judged on.
func BenchmarkReadCold(b *testing.B) {
	for _, d := range datasets.All() {
		set := files(b, d)
		for _, c := range pqfiles.Configs(d) {
			for _, r := range readers {
				if r.name != "quiver" && r.name != "pqarrow" {
					continue
				}
				name := fmt.Sprintf("dataset=%s/config=%s/impl=%s", d.Name, c.Name, r.name)
				b.Run(name, func(b *testing.B) {
					b.SetBytes(set.Meta.ArrowBytes)
					b.ReportAllocs()
					var before, after runtime.MemStats
					var allocated uint64
					for b.Loop() {
						b.StopTimer()
						runtime.GC()
						runtime.GC()
						runtime.ReadMemStats(&before)
						b.StartTimer()
						n, err := r.read(set.Path(c), allColumns, all)
						b.StopTimer()
						runtime.ReadMemStats(&after)
						b.StartTimer()
						if err == nil && n != set.Meta.Rows {
							err = fmt.Errorf("%s read %d rows, want %d", r.name, n, set.Meta.Rows)
						}
						if err != nil {
							b.Fatal(err)
						}
						allocated += after.TotalAlloc - before.TotalAlloc
					}
					b.ReportMetric(float64(allocated)/float64(b.N)/float64(set.Meta.ArrowBytes), "alloc/decoded")
				})
			}
		}
	}
}

// readColumns are the lineitem columns BenchmarkReadColumn reads alone:
// the sorted int64 keys and the nullable free-text comments.
var readColumns = []string{"l_orderkey", "l_comment"}

// BenchmarkReadColumn reads one column of lineitem's eight.
func BenchmarkReadColumn(b *testing.B) {
	d := datasets.Lineitem
	set := files(b, d)
	for _, c := range pqfiles.Configs(d) {
		for _, colName := range readColumns {
			col := d.Schema.FieldIndices(colName)[0]
			for _, r := range readers {
				if r.whole || strings.HasSuffix(r.name, "-parallel") { // one column leaves nothing to parallelise
					continue
				}
				name := fmt.Sprintf("dataset=%s/config=%s/column=%s/impl=%s", d.Name, c.Name, colName, r.name)
				b.Run(name, func(b *testing.B) {
					benchRead(b, r, set.Path(c), colName, all, set.Meta.ColumnArrowBytes[col], set.Meta.Rows)
				})
			}
		}
	}
}

// BenchmarkReadRowGroup reads one row group (the middle one) of the flat
// integer tables' files, whole.
func BenchmarkReadRowGroup(b *testing.B) {
	for _, d := range []*datasets.Dataset{datasets.Lineitem, datasets.Taxi} {
		set := files(b, d)
		rg := d.RowGroups / 2
		rows := int64(d.Rows(set.Size)*(rg+1)/d.RowGroups - d.Rows(set.Size)*rg/d.RowGroups)
		bytes := set.Meta.ArrowBytes * rows / set.Meta.Rows
		for _, c := range pqfiles.Configs(d) {
			for _, r := range readers {
				if r.whole {
					continue
				}
				name := fmt.Sprintf("dataset=%s/config=%s/impl=%s", d.Name, c.Name, r.name)
				b.Run(name, func(b *testing.B) {
					benchRead(b, r, set.Path(c), allColumns, rg, bytes, rows)
				})
			}
		}
	}
}

// benchRead times r reading (col, rg) of path, checks the rows it returns
// against rows, and reports bytes of decoded Arrow data per read.
func benchRead(b *testing.B, r reader, path, col string, rg int, bytes, rows int64) {
	measure(b, bytes, rows, "rows/s", func() error {
		n, err := r.read(path, col, rg)
		if err == nil && n != rows {
			err = fmt.Errorf("%s read %d rows of %s, want %d", r.name, n, path, rows)
		}
		return err
	})
}

// TestReaders runs every reader over every small file, whole, one column
// and one row group, and checks the rows each returns. Quiver may report
// the nested table unsupported (arrowio.ErrUnsupported) until it reads
// nested columns; anything else is a failure.
func TestReaders(t *testing.T) {
	t.Setenv(datasets.SizeEnv, string(datasets.Small))
	for _, d := range datasets.All() {
		set := files(t, d)
		for _, c := range pqfiles.Configs(d) {
			for _, r := range readers {
				n, err := r.read(set.Path(c), allColumns, all)
				if d == datasets.Nested && strings.HasPrefix(r.name, "quiver") && errors.Is(err, arrowio.ErrUnsupported) {
					t.Logf("%s %s/%s: %v", r.name, d.Name, c.Name, err)
					continue
				}
				if err != nil || n != set.Meta.Rows {
					t.Errorf("%s %s/%s whole: %d rows, %v; want %d", r.name, d.Name, c.Name, n, err, set.Meta.Rows)
				}
				if r.whole {
					continue
				}
				first := d.Schema.Field(0).Name
				n, err = r.read(set.Path(c), first, all)
				if err != nil || n != set.Meta.Rows {
					t.Errorf("%s %s/%s column %s: %d rows, %v; want %d", r.name, d.Name, c.Name, first, n, err, set.Meta.Rows)
				}
				want := int64(d.Rows(datasets.Small) / d.RowGroups) // batches differ by at most one row
				n, err = r.read(set.Path(c), allColumns, 1)
				if err != nil || n < want || n > want+1 {
					t.Errorf("%s %s/%s row group 1: %d rows, %v; want %d or %d", r.name, d.Name, c.Name, n, err, want, want+1)
				}
			}
		}
	}
}
