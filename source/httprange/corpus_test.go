package httprange_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/internal/corpus"
	"github.com/quiverio/quiver/internal/corpus/corpusread"
	"github.com/quiverio/quiver/source/httprange"
)

// TestCorpusOverHTTP reads every file of the parquet-testing corpus that
// arrowio reads locally through arrowio.Open over a File served by a Go
// HTTP server on 127.0.0.1, at Parallelism 1 and 2, and checks the tables
// are equal.
func TestCorpusOverHTTP(t *testing.T) {
	root := corpus.Dir(t)
	files := corpus.Files(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := os.Open(filepath.Join(root, filepath.FromSlash(r.URL.Path)))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("ETag", fmt.Sprintf(`"%x-%x"`, st.Size(), st.ModTime().UnixNano()))
		http.ServeContent(w, r, "", st.ModTime(), f)
	}))
	defer srv.Close()

	files = corpus.Sample(files) // under qemu the whole corpus takes minutes
	read, skipped := 0, 0
	for _, rel := range files {
		local, err := corpusread.Local(filepath.Join(root, rel))
		if err != nil {
			skipped++ // encrypted without keys, huge, or refused locally too
			continue
		}
		t.Run(rel, func(t *testing.T) {
			defer local.Release()
			for _, par := range []int{1, 2} {
				f, err := httprange.Open(context.Background(), srv.URL+"/"+filepath.ToSlash(rel), httprange.Options{})
				if err != nil {
					t.Fatal(err)
				}
				remote, err := corpusread.Table(func() (*arrowio.Reader, error) {
					return arrowio.Open(f, f.Size(), arrowio.ReadOptions{Parallelism: par})
				})
				f.Close()
				if err != nil {
					t.Fatalf("Parallelism %d: %v", par, err)
				}
				// Equal values, NaN equal to NaN, no float tolerance.
				if !array.TableApproxEqual(local, remote, array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
					t.Errorf("Parallelism %d: the table read over HTTP differs from the local read", par)
				}
				remote.Release()
				if par == 1 && testing.Verbose() {
					t.Logf("%d bytes: %+v", f.Size(), f.Stats())
				}
			}
		})
		read++
	}
	if read == 0 {
		t.Fatalf("no corpus file read locally (%d skipped)", skipped)
	}
	t.Logf("%d files compared, %d skipped (encrypted, over 64 MiB decoded, or not read locally)", read, skipped)
}
