package pqfiles

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverio/quiver/bench/datasets"
)

// CacheEnv names the environment variable that overrides the cache root
// (default: os.UserCacheDir()/quiver-bench).
const CacheEnv = "QUIVER_BENCH_CACHE"

// Meta describes a generated dataset: what the benchmarks need to report
// throughput without holding the data in memory.
type Meta struct {
	// Rows is the number of rows in the dataset.
	Rows int64 `json:"rows"`
	// ArrowBytes is the size of the decoded Arrow buffers of all columns.
	ArrowBytes int64 `json:"arrow_bytes"`
	// ColumnArrowBytes is the decoded Arrow size of each top-level column.
	ColumnArrowBytes []int64 `json:"column_arrow_bytes"`
}

// Set is the cached files of one dataset at one size.
type Set struct {
	Dataset *datasets.Dataset
	Size    datasets.Size
	Meta    Meta
	dir     string
}

// Path returns the file of configuration c (which must be one of
// Configs(s.Dataset)).
func (s *Set) Path(c *Config) string {
	return filepath.Join(s.dir, s.Dataset.Name+"-"+c.Name+".parquet")
}

// Dir returns the cache directory for size s: the cache root, then the
// size, then a directory named for [datasets.Version] and [Version].
func Dir(s datasets.Size) (string, error) {
	root := os.Getenv(CacheEnv)
	if root == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("pqfiles: no cache directory (set %s): %w", CacheEnv, err)
		}
		root = filepath.Join(base, "quiver-bench")
	}
	return filepath.Join(root, string(s), versionDir()), nil
}

func versionDir() string { return fmt.Sprintf("v%d.%d", datasets.Version, Version) }

var ensureMu sync.Mutex

// Ensure returns d's files at size s, generating the dataset and writing
// whatever file or metadata is missing first. Files are written under a
// temporary name and renamed into place, so an interrupted run never
// leaves a truncated file behind. The first call for a size removes cache
// directories of other versions beside the current one.
func Ensure(s datasets.Size, d *datasets.Dataset) (*Set, error) {
	ensureMu.Lock()
	defer ensureMu.Unlock()
	dir, err := Dir(s)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("pqfiles: %w", err)
	}
	if err := removeStale(filepath.Dir(dir)); err != nil {
		return nil, err
	}
	set := &Set{Dataset: d, Size: s, dir: dir}
	metaPath := filepath.Join(dir, d.Name+".json")
	var missing []*Config
	for _, c := range Configs(d) {
		if _, err := os.Stat(set.Path(c)); errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, c)
		} else if err != nil {
			return nil, fmt.Errorf("pqfiles: %w", err)
		}
	}
	if b, err := os.ReadFile(metaPath); err == nil && len(missing) == 0 {
		if err := json.Unmarshal(b, &set.Meta); err != nil {
			return nil, fmt.Errorf("pqfiles: %s: %w", metaPath, err)
		}
		if len(set.Meta.ColumnArrowBytes) == d.Schema.NumFields() {
			return set, nil
		}
	}

	recs := d.Generate(memory.DefaultAllocator, s)
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	for _, c := range missing {
		if err := writeAtomic(set.Path(c), func(f *os.File) error { return c.Write(f, d, s, recs) }); err != nil {
			return nil, err
		}
	}
	set.Meta = MetaOf(recs)
	b, err := json.Marshal(set.Meta)
	if err != nil {
		return nil, fmt.Errorf("pqfiles: %w", err)
	}
	if err := writeAtomic(metaPath, func(f *os.File) error { _, err := f.Write(b); return err }); err != nil {
		return nil, err
	}
	return set, nil
}

// MetaOf measures recs.
func MetaOf(recs []arrow.RecordBatch) Meta {
	m := Meta{ArrowBytes: datasets.ArrowBytes(recs)}
	if len(recs) > 0 {
		m.ColumnArrowBytes = make([]int64, recs[0].NumCols())
		for i := range m.ColumnArrowBytes {
			m.ColumnArrowBytes[i] = datasets.ColumnArrowBytes(recs, i)
		}
	}
	for _, r := range recs {
		m.Rows += r.NumRows()
	}
	return m
}

// writeAtomic writes path through fill into a temporary file in the same
// directory and renames it into place once it is complete.
func writeAtomic(path string, fill func(*os.File) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("pqfiles: %w", err)
	}
	err = fill(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("pqfiles: writing %s: %w", path, err)
	}
	return nil
}

// removeStale deletes the version directories under sizeDir other than
// the current one.
func removeStale(sizeDir string) error {
	entries, err := os.ReadDir(sizeDir)
	if err != nil {
		return fmt.Errorf("pqfiles: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), "v") && e.Name() != versionDir() {
			if err := os.RemoveAll(filepath.Join(sizeDir, e.Name())); err != nil {
				return fmt.Errorf("pqfiles: removing stale cache: %w", err)
			}
		}
	}
	return nil
}
