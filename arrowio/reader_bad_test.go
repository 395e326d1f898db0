package arrowio_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/quiverio/quiver/arrowio"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

// readMode is how readAll reads a file.
type readMode struct {
	// chunkReads reads each column chunk when its column decodes, as
	// OpenFile's reader does, rather than a row group's at once.
	chunkReads bool
	// window is the window of chunks read page by page (with chunkReads
	// and noCRC; 0 for pageWindow).
	window int
	// noCRC skips page CRC verification, which reading page by page needs.
	noCRC bool
}

// readAll opens file and reads every row group with every column it can
// project (flat top-level columns; nested ones wait for the nested-data
// reader), returning the first error. It must never panic.
func readAll(file []byte, mem memory.Allocator, m readMode) (rows int64, err error) {
	opts := arrowio.ReadOptions{Allocator: mem, Parallelism: 1, SkipCRC: m.noCRC}
	rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), opts)
	if errors.Is(err, arrowio.ErrUnsupported) {
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
		opts.Columns = cols
		rd, err = arrowio.Open(bytes.NewReader(file), int64(len(file)), opts)
	}
	if err != nil {
		return 0, err
	}
	defer rd.Close()
	arrowio.FileOf(rd).ChunkReads, arrowio.FileOf(rd).Window = m.chunkReads, m.window
	tbl, err := rd.ReadTable(context.Background())
	if err != nil {
		return 0, err
	}
	defer tbl.Release()
	return tbl.NumRows(), nil
}

// TestBadData reads every file in the corpus's bad_data/: each must fail
// with an error that wraps ErrCorrupt (or ErrUnsupported), never panic,
// except the ones the corpus README says readers should accept. The files
// whose nested columns carry inconsistent levels fail with an error
// wrapping ErrCorrupt whole and in batches of one row, freeing what they
// allocated.
func TestBadData(t *testing.T) {
	root := corpus.Dir(t)
	accept := map[string]string{
		// Dictionary indices of bit width 0 are legal when every index is 0.
		"ARROW-GH-43605.parquet": "bit width 0 dictionary indices",
	}
	badLevels := map[string]string{
		"ARROW-GH-45185.parquet":          "the repetition levels of a list column start with 1",
		"ARROW-RS-GH-6229-LEVELS.parquet": "a page has fewer repetition levels than values",
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
			rows, err := readEveryWay(t, b, mem)
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
			if !arrowiotest.IsFileError(err) {
				t.Errorf("error does not wrap ErrCorrupt or ErrUnsupported: %v", err)
			}
			t.Logf("%v", err)
			if why, ok := badLevels[name]; ok {
				for _, batch := range []int{0, 1} {
					rd, err := arrowio.Open(bytes.NewReader(b), int64(len(b)), arrowio.ReadOptions{Allocator: mem, BatchSize: batch, Parallelism: 1})
					if err != nil {
						t.Fatalf("open: %v", err)
					}
					var tbl arrow.Table
					if batch == 0 {
						tbl, err = rd.ReadTable(context.Background())
					} else {
						tbl, err = arrowiotest.ReadBatches(rd)
					}
					rd.Close()
					if err == nil {
						tbl.Release()
					}
					if !errors.Is(err, arrowio.ErrCorrupt) {
						t.Errorf("batch %d: %v, want an error wrapping ErrCorrupt: %s", batch, err, why)
					}
				}
			}
		})
	}
	for name := range badLevels {
		if !slices.Contains(corpus.Files(t), "bad_data/"+name) {
			t.Errorf("bad_data/%s is not in the corpus", name)
		}
	}
}

// readEveryWay reads file a row group at a time, a chunk at a time, and
// page by page with a 40-byte window (which page headers and pages
// outgrow), and fails t unless the ways that verify CRCs agree on
// whether the file reads, and the ways that do not too. It returns the
// first way's result.
func readEveryWay(t testing.TB, file []byte, mem memory.Allocator) (rows int64, err error) {
	t.Helper()
	rows, err = readAll(file, mem, readMode{})
	if _, cerr := readAll(file, mem, readMode{chunkReads: true}); (cerr == nil) != (err == nil) {
		t.Errorf("read a chunk at a time: %v, a row group at a time: %v", cerr, err)
	}
	_, gerr := readAll(file, mem, readMode{noCRC: true})
	if _, perr := readAll(file, mem, readMode{chunkReads: true, window: 40, noCRC: true}); (perr == nil) != (gerr == nil) {
		t.Errorf("without CRC checks, read page by page: %v, a row group at a time: %v", perr, gerr)
	}
	return rows, err
}
