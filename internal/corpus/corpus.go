// Package corpus locates the shared Parquet conformance files
// (apache/parquet-testing, kept beside the repository in
// ../shared/parquet-testing) for tests. A fresh clone has no such
// directory; tests that need it skip with a message that says so.
package corpus

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// EnvVar overrides where the corpus is looked for.
const EnvVar = "QUIVER_PARQUET_TESTING"

// Lookup returns the corpus root, or an error saying where it was looked
// for. Fuzz targets use it to add seeds when the corpus is there without
// skipping when it is not.
func Lookup() (string, error) {
	if d := os.Getenv(EnvVar); d != "" {
		return d, nil
	}
	d, err := Shared("parquet-testing")
	if err != nil {
		return "", fmt.Errorf("parquet-testing corpus not found (set %s to use another copy): %w", EnvVar, err)
	}
	return d, nil
}

// Shared returns the path of rel inside the shared directory beside the
// repository (../shared), or an error when it is not there.
func Shared(rel string) (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", fmt.Errorf("no go.mod of the quiver module above the working directory: %w", err)
	}
	p := filepath.Join(root, "..", "shared", rel)
	if _, err := os.Stat(p); err != nil {
		return "", err
	}
	return p, nil
}

// Dir returns the corpus root, or skips tb when it is absent.
func Dir(tb testing.TB) string {
	tb.Helper()
	d, err := Lookup()
	if err != nil {
		tb.Skip(err)
	}
	return d
}

// Files returns every .parquet file below the corpus root, as paths
// relative to it in sorted order, or skips tb when the corpus is absent.
func Files(tb testing.TB) []string {
	tb.Helper()
	root := Dir(tb)
	out, err := List(root)
	if err != nil {
		tb.Fatal(err)
	}
	if len(out) == 0 {
		tb.Skipf("parquet-testing corpus at %s holds no .parquet files", root)
	}
	return out
}

// Sample returns every eighth of files under -short (enough kinds of
// file for quick runs of tests that read the corpus through a slow
// source), and files otherwise.
func Sample(files []string) []string {
	if !testing.Short() {
		return files
	}
	var some []string
	for i := 0; i < len(files); i += 8 {
		some = append(some, files[i])
	}
	return some
}

// List returns every .parquet file below root, relative to it, sorted.
func List(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".parquet") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walking %s: %w", root, err)
	}
	sort.Strings(out)
	return out, nil
}

// moduleRoot walks up from the working directory to the directory whose
// go.mod declares the quiver module (passing over bench/'s own go.mod).
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if mod, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil &&
			strings.HasPrefix(string(mod), "module github.com/quiverio/quiver\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

// HeavyEnv names the environment variable that lets tests read the corpus
// files that take gigabytes of memory (large_string_map.brotli.parquet
// decodes to two 1 GiB strings): `make heavy` sets it.
const HeavyEnv = "QUIVER_HEAVY"

// SkipHeavy skips tb unless HeavyEnv is set, saying why the file is heavy.
func SkipHeavy(tb testing.TB, why string) {
	tb.Helper()
	if os.Getenv(HeavyEnv) == "" {
		tb.Skipf("left out unless %s=1: %s", HeavyEnv, why)
	}
}
