// Package corpus locates the shared Parquet conformance files
// (apache/parquet-testing, kept beside the repository in
// ../shared/parquet-testing) for tests. A fresh clone has no such
// directory; tests that need it skip with a message that says so.
package corpus

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// EnvVar overrides where the corpus is looked for.
const EnvVar = "QUIVER_PARQUET_TESTING"

// Dir returns the corpus root, or skips tb when it is absent.
func Dir(tb testing.TB) string {
	tb.Helper()
	if d := os.Getenv(EnvVar); d != "" {
		return d
	}
	root, err := moduleRoot()
	if err != nil {
		tb.Skipf("parquet-testing corpus: %v", err)
	}
	d := filepath.Join(root, "..", "shared", "parquet-testing")
	if _, err := os.Stat(d); err != nil {
		tb.Skipf("parquet-testing corpus not found at %s (set %s to use another copy): %v", d, EnvVar, err)
	}
	return d
}

// Files returns every .parquet file below the corpus root, as paths
// relative to it in sorted order, or skips tb when the corpus is absent.
func Files(tb testing.TB) []string {
	tb.Helper()
	root := Dir(tb)
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
		tb.Fatalf("walking %s: %v", root, err)
	}
	if len(out) == 0 {
		tb.Skipf("parquet-testing corpus at %s holds no .parquet files", root)
	}
	sort.Strings(out)
	return out
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
