package arrowio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

// readAll opens file and reads every row group with every column it can
// project (flat top-level columns; nested ones wait for the nested-data
// reader), returning the first error. It must never panic.
//
// With chunkReads the reader reads each column chunk when its column
// decodes, as OpenFile's reader does, rather than a row group's at once.
func readAll(file []byte, mem memory.Allocator, chunkReads bool) (rows int64, err error) {
	rd, err := Open(bytes.NewReader(file), int64(len(file)), ReadOptions{Allocator: mem, Parallelism: 1, VerifyCRC: true})
	if errors.Is(err, ErrUnsupported) {
		// Retry with the columns this reader supports today.
		var cols []string
		if ft, ferr := footer.ReadFooter(bytes.NewReader(file), int64(len(file))); ferr == nil {
			for _, c := range ft.Schema.Root.Children {
				if c.IsLeaf() && c.MaxRep == 0 {
					cols = append(cols, c.Name)
				}
			}
		}
		if len(cols) == 0 {
			return 0, err
		}
		rd, err = Open(bytes.NewReader(file), int64(len(file)), ReadOptions{Allocator: mem, Parallelism: 1, VerifyCRC: true, Columns: cols})
	}
	if err != nil {
		return 0, err
	}
	defer rd.Close()
	rd.chunkReads = chunkReads
	tbl, err := rd.ReadTable(context.Background())
	if err != nil {
		return 0, err
	}
	defer tbl.Release()
	return tbl.NumRows(), nil
}

// TestBadData reads every file in the corpus's bad_data/: each must fail
// with an error that wraps ErrCorrupt (or ErrUnsupported), never panic,
// except the ones the corpus README says readers should accept.
func TestBadData(t *testing.T) {
	root := corpus.Dir(t)
	accept := map[string]string{
		// Dictionary indices of bit width 0 are legal when every index is 0.
		"ARROW-GH-43605.parquet": "bit width 0 dictionary indices",
	}
	for _, rel := range corpus.Files(t) {
		if !strings.HasPrefix(rel, "bad_data") {
			continue
		}
		name := filepath.Base(rel)
		t.Run(name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			b, err := os.ReadFile(filepath.Join(root, rel))
			if err != nil {
				t.Fatal(err)
			}
			rows, err := readAll(b, mem, false)
			if _, cerr := readAll(b, mem, true); (cerr == nil) != (err == nil) {
				t.Errorf("read a chunk at a time: %v, a row group at a time: %v", cerr, err)
			}
			if why, ok := accept[name]; ok {
				if err != nil {
					t.Errorf("%s should read (%s): %v", name, why, err)
				}
				t.Logf("read %d rows", rows)
				return
			}
			if err == nil {
				t.Fatalf("read %d rows without error", rows)
			}
			if !isFileError(err) {
				t.Errorf("error does not wrap ErrCorrupt or ErrUnsupported: %v", err)
			}
			t.Logf("%v", err)
		})
	}
}

// isFileError reports whether err blames the file.
func isFileError(err error) bool {
	return errors.Is(err, ErrCorrupt) || errors.Is(err, ErrUnsupported) || strings.Contains(fmt.Sprint(err), "corrupt")
}
