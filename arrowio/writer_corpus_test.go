package arrowio_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/internal/corpus"
)

// TestWriterRewritesCorpus reads every flat file of the parquet-testing
// corpus that Quiver's reader reads, writes it again with the writer (one
// row group per row group read) and checks that the reader gives the same
// values back from the new file.
func TestWriterRewritesCorpus(t *testing.T) {
	root := corpus.Dir(t)
	files := corpus.Files(t)
	rewritten := 0
	for _, name := range files {
		if strings.Contains(name, "bad_data") || strings.Contains(name, "encrypt") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		if testing.Short() && len(data) > 1<<20 {
			continue
		}
		schema := schemaOf(data)
		if schema == nil {
			continue // the reader does not open it (yet)
		}
		var buf bytes.Buffer
		w, err := arrowio.NewWriter(&buf, schema, arrowio.WriteOptions{})
		if err != nil {
			continue // nested columns are not written yet
		}
		recs := readCorpusFile(data)
		if recs == nil {
			continue // the reader does not read it (yet)
		}
		t.Run(name, func(t *testing.T) {
			defer func() {
				for _, r := range recs {
					r.Release()
				}
			}()
			for _, r := range recs {
				if err := w.Write(r); err != nil {
					t.Fatalf("Write: %v", err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			got := quiverRead(t, buf.Bytes())
			if got == nil {
				t.Fatal("the reader cannot read the rewritten file")
			}
			defer releaseAll(got)
			for i := range got {
				want := concatColumn(t, recs, i)
				arrowiotest.AssertSameValues(t, want, got[i])
				want.Release()
			}
			rewritten++
		})
	}
	t.Logf("rewrote %d of %d corpus files", rewritten, len(files))
}

// schemaOf returns the Arrow schema Quiver reads for a file, or nil.
func schemaOf(data []byte) *arrow.Schema {
	r, err := arrowio.Open(bytes.NewReader(data), int64(len(data)), arrowio.ReadOptions{})
	if err != nil {
		return nil
	}
	defer r.Close()
	return r.Schema()
}

// readCorpusFile returns every row group of a file as Quiver reads it, or nil
// when the reader fails on any of them or the file holds no rows.
func readCorpusFile(data []byte) []arrow.RecordBatch {
	r, err := arrowio.Open(bytes.NewReader(data), int64(len(data)), arrowio.ReadOptions{})
	if err != nil {
		return nil
	}
	defer r.Close()
	var recs []arrow.RecordBatch
	for g := range r.NumRowGroups() {
		rec, err := r.ReadRowGroup(context.Background(), g)
		if err != nil {
			for _, x := range recs {
				x.Release()
			}
			return nil
		}
		recs = append(recs, rec)
	}
	if len(recs) == 0 {
		return nil
	}
	return recs
}

// concatColumn returns column i of recs as one array.
func concatColumn(t *testing.T, recs []arrow.RecordBatch, i int) arrow.Array {
	t.Helper()
	parts := make([]arrow.Array, len(recs))
	for k, r := range recs {
		parts[k] = r.Column(i)
	}
	a, err := array.Concatenate(parts, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
