package bench

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/bench/datasets"
	"github.com/quiverio/quiver/bench/pqfiles"
)

// TestQuiverReadsValues checks that quiver's reader, as the benchmarks run
// it (serially and in parallel with the default allocator, serially with
// the recycling one), returns every value of every small file (so it is
// never timed doing less than the others): each column equals the
// generated one. The nested table may be reported unsupported until
// quiver reads nested columns.
func TestQuiverReadsValues(t *testing.T) {
	t.Setenv(datasets.SizeEnv, string(datasets.Small))
	for _, d := range datasets.All() {
		recs := d.Generate(memory.DefaultAllocator, datasets.Small)
		want := array.NewTableFromRecords(d.Schema, recs)
		for _, r := range recs {
			r.Release()
		}
		set := files(t, d)
		for _, c := range pqfiles.Configs(d) {
			for _, run := range []struct {
				parallelism int
				mem         memory.Allocator
			}{{1, nil}, {0, nil}, {1, recycling}} {
				parallelism := run.parallelism
				got, err := quiverTable(set.Path(c), parallelism, run.mem)
				if d == datasets.Nested && errors.Is(err, arrowio.ErrUnsupported) {
					t.Logf("%s/%s: %v", d.Name, c.Name, err)
					continue
				}
				if err != nil {
					t.Fatalf("%s/%s parallelism %d, allocator %T: %v", d.Name, c.Name, parallelism, run.mem, err)
				}
				for i := range int(want.NumCols()) {
					if !array.ChunkedEqual(got.Column(i).Data(), want.Column(i).Data()) {
						t.Errorf("%s/%s parallelism %d, allocator %T: column %s differs from the generated one", d.Name, c.Name, parallelism, run.mem, want.Schema().Field(i).Name)
					}
				}
				got.Release()
			}
		}
		want.Release()
	}
}

// quiverTable reads the file at path with arrowio as readQuiver does, with
// memory from mem (nil for the default allocator).
func quiverTable(path string, parallelism int, mem memory.Allocator) (arrow.Table, error) {
	rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{BatchSize: 65536, Parallelism: parallelism, Allocator: mem})
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return rd.ReadTable(context.Background())
}
