package datasets

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverio/quiver/internal/arrowmem"
)

// Version identifies the output of every generator in this package. Caches
// of generated files are keyed by it; change it whenever any generator
// produces different values, schemas or batch boundaries.
const Version = 1

// Size selects how many rows each dataset has.
type Size string

const (
	// Full is the size used for published numbers: about 4 M rows for the
	// flat tables.
	Full Size = "full"
	// Small is the CI size: tens of thousands of rows, so that a whole
	// benchmark pass including file generation takes about a minute.
	Small Size = "small"
)

// SizeEnv is the environment variable that selects the [Size]: "small" or
// "full" (the default when it is unset or empty).
const SizeEnv = "QUIVER_BENCH_SIZE"

// SizeFromEnv returns the [Size] named by [SizeEnv].
func SizeFromEnv() (Size, error) {
	switch v := os.Getenv(SizeEnv); v {
	case "", string(Full):
		return Full, nil
	case string(Small):
		return Small, nil
	default:
		return "", fmt.Errorf("datasets: %s=%q: want %q or %q", SizeEnv, v, Small, Full)
	}
}

// Dataset describes one generated table.
type Dataset struct {
	// Name is the short name used in benchmark and file names.
	Name string
	// Schema is the Arrow schema of every batch.
	Schema *arrow.Schema
	// RowGroups is the number of batches Generate returns; the benchmarks
	// write each batch as one row group.
	RowGroups int
	// PrefixStrings names the string columns whose neighbouring values
	// share prefixes; the delta configuration stores those as
	// DELTA_BYTE_ARRAY and other strings as DELTA_LENGTH_BYTE_ARRAY.
	PrefixStrings []string

	fullRows, smallRows int
	// batch builds rows [start, start+n) of the table from rng.
	batch func(mem memory.Allocator, rng *rand.Rand, start, n, total int) arrow.RecordBatch
}

// Rows returns the number of rows the dataset has at size s.
func (d *Dataset) Rows(s Size) int {
	if s == Small {
		return d.smallRows
	}
	return d.fullRows
}

// Generate builds the dataset at size s as d.RowGroups record batches of
// (nearly) equal length, allocated from mem. The caller owns the batches
// and releases each one.
func (d *Dataset) Generate(mem memory.Allocator, s Size) []arrow.RecordBatch {
	total := d.Rows(s)
	out := make([]arrow.RecordBatch, 0, d.RowGroups)
	seed := d.seed()
	for i := range d.RowGroups {
		start := total * i / d.RowGroups
		end := total * (i + 1) / d.RowGroups
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		out = append(out, d.batch(mem, rng, start, end-start, total))
	}
	return out
}

// seed derives the generator seed from the dataset name and Version.
func (d *Dataset) seed() uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/v%d", d.Name, Version)
	return h.Sum64()
}

// All returns every dataset, in the order the benchmarks run them.
func All() []*Dataset {
	return []*Dataset{Lineitem, Taxi, Floats, Strings, Nested, Wide}
}

// ByName returns the dataset called name, or nil.
func ByName(name string) *Dataset {
	for _, d := range All() {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// ArrowBytes returns the bytes held by the Arrow buffers of recs: every
// buffer of every column, its children and dictionaries. It is the decoded
// size the benchmarks report as MB/s.
func ArrowBytes(recs []arrow.RecordBatch) int64 {
	var n int64
	for _, r := range recs {
		for _, c := range r.Columns() {
			n += arrowmem.DataBytes(c.Data())
		}
	}
	return n
}

// ColumnArrowBytes returns the Arrow buffer bytes of column col across recs.
func ColumnArrowBytes(recs []arrow.RecordBatch, col int) int64 {
	var n int64
	for _, r := range recs {
		n += arrowmem.DataBytes(r.Column(col).Data())
	}
	return n
}
