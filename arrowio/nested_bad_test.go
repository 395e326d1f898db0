package arrowio_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/quiverio/quiver/arrowio"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/internal/corpus"
)

// TestNestedBadLevels reads the corpus files whose nested columns carry
// inconsistent levels, whole and in batches of one row: each read fails
// with an error wrapping ErrCorrupt, frees what it
// allocated and does not panic.
func TestNestedBadLevels(t *testing.T) {
	root := corpus.Dir(t)
	for _, c := range []struct{ file, why string }{
		{"bad_data/ARROW-GH-45185.parquet", "the repetition levels of a list column start with 1"},
		{"bad_data/ARROW-RS-GH-6229-LEVELS.parquet", "a page has fewer repetition levels than values"},
	} {
		b, err := os.ReadFile(filepath.Join(root, c.file))
		if err != nil {
			t.Fatal(err)
		}
		for _, batch := range []int{0, 1} {
			t.Run(fmt.Sprintf("%s/batch=%d", filepath.Base(c.file), batch), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				rd, err := arrowio.Open(bytes.NewReader(b), int64(len(b)), arrowio.ReadOptions{Allocator: mem, BatchSize: batch, Parallelism: 1})
				if err != nil {
					t.Fatalf("open: %v", err)
				}
				defer rd.Close()
				if batch == 0 {
					tbl, err := rd.ReadTable(context.Background())
					if err == nil {
						tbl.Release()
					}
					checkBadLevels(t, c.why, err)
					return
				}
				tbl, err := arrowiotest.ReadBatches(rd)
				if err == nil {
					tbl.Release()
				}
				checkBadLevels(t, c.why, err)
			})
		}
	}
}

func checkBadLevels(t *testing.T, why string, err error) {
	t.Helper()
	if err == nil {
		t.Fatalf("read without error, but %s", why)
	}
	if !errors.Is(err, arrowio.ErrCorrupt) {
		t.Fatalf("error does not wrap ErrCorrupt (%s): %v", why, err)
	}
	t.Logf("%s: %v", why, err)
}
