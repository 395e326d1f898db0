package bench

import (
	"sync"
	"testing"

	"github.com/quiverio/quiver/bench/datasets"
	"github.com/quiverio/quiver/bench/pqfiles"
)

// size returns the dataset size selected by QUIVER_BENCH_SIZE, failing tb
// on an unknown value.
func size(tb testing.TB) datasets.Size {
	tb.Helper()
	s, err := datasets.SizeFromEnv()
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

var (
	setsMu sync.Mutex
	sets   = map[string]*pqfiles.Set{}
)

// files returns d's cached Parquet files at the selected size, generating
// them on first use.
func files(tb testing.TB, d *datasets.Dataset) *pqfiles.Set {
	tb.Helper()
	s := size(tb)
	key := string(s) + "/" + d.Name
	setsMu.Lock()
	defer setsMu.Unlock()
	if set, ok := sets[key]; ok {
		return set
	}
	set, err := pqfiles.Ensure(s, d)
	if err != nil {
		tb.Fatal(err)
	}
	sets[key] = set
	return set
}
