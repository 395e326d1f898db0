package arrowio_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/codec/codectest"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/internal/corpus"
)

// poisonAllocator is a Go allocator whose fresh and freed bytes all hold
// fill, the way a non-zeroing allocator that recycles freed buffers hands
// out whatever memory last held: two reads of the same file through
// allocators of different fills return the same bytes only where the
// reader wrote every byte it returns and kept no buffer it freed.
type poisonAllocator struct {
	fill byte
	memory.GoAllocator
}

// Allocate returns size bytes of fill.
func (p *poisonAllocator) Allocate(size int) []byte {
	b := p.GoAllocator.Allocate(size)
	for i := range b {
		b[i] = p.fill
	}
	return b
}

// Reallocate returns size bytes that start with b's and go on with fill.
func (p *poisonAllocator) Reallocate(size int, b []byte) []byte {
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

// Free fills b with fill, as a recycling allocator (NewRecyclingAllocator)
// may hand b out again and have it overwritten: an array that still held b after
// its last reference was released would show the fill.
func (p *poisonAllocator) Free(b []byte) {
	for i := range b {
		b[i] = p.fill
	}
}

// diffBytes returns where two arrays' buffers (children and dictionaries
// included) first differ byte for byte up to each buffer's length, or ""
// when they are the same.
func diffBytes(a, b arrow.ArrayData, at string) string {
	if a.Len() != b.Len() || a.Offset() != b.Offset() || a.NullN() != b.NullN() {
		return fmt.Sprintf("%s: length, offset or nulls %d/%d/%d, then %d/%d/%d", at, a.Len(), a.Offset(), a.NullN(), b.Len(), b.Offset(), b.NullN())
	}
	ab, bb := a.Buffers(), b.Buffers()
	if len(ab) != len(bb) {
		return fmt.Sprintf("%s: %d buffers, then %d", at, len(ab), len(bb))
	}
	for i := range ab {
		if (ab[i] == nil) != (bb[i] == nil) {
			return fmt.Sprintf("%s: buffer %d present in one read only", at, i)
		}
		if ab[i] == nil {
			continue
		}
		x, y := ab[i].Bytes(), bb[i].Bytes()
		if len(x) != len(y) {
			return fmt.Sprintf("%s: buffer %d has %d bytes, then %d", at, i, len(x), len(y))
		}
		if k := firstDiff(x, y); k >= 0 {
			return fmt.Sprintf("%s: buffer %d of %d bytes differs at byte %d (%#x, then %#x): it was never written, or was freed while the array held it", at, i, len(x), k, x[k], y[k])
		}
	}
	ac, bc := a.Children(), b.Children()
	if len(ac) != len(bc) {
		return fmt.Sprintf("%s: %d children, then %d", at, len(ac), len(bc))
	}
	for i := range ac {
		if d := diffBytes(ac[i], bc[i], fmt.Sprintf("%s child %d", at, i)); d != "" {
			return d
		}
	}
	ad, _ := a.Dictionary().(*array.Data)
	bd, _ := b.Dictionary().(*array.Data)
	if (ad == nil) != (bd == nil) {
		return at + ": dictionary in one read only"
	}
	if ad != nil {
		return diffBytes(ad, bd, at+" dictionary")
	}
	return ""
}

// firstDiff returns the first index where x and y differ, or -1.
func firstDiff(x, y []byte) int {
	if bytes.Equal(x, y) {
		return -1
	}
	for k := range x {
		if x[k] != y[k] {
			return k
		}
	}
	return -1
}

// checkFullyWritten reads twice through read, with allocators filling
// fresh memory with 0x00 and then 0xA5, and fails unless both reads
// return the same bytes in every buffer: a byte the reader did not write
// (a null slot, a bitmap's last bits, padding) would show the fill. It
// returns read's error, the same both times, without failing.
func checkFullyWritten(t *testing.T, desc string, read func(mem memory.Allocator) (arrow.Table, error)) error {
	t.Helper()
	var tables [2]arrow.Table
	var errs [2]error
	for i, fill := range []byte{0x00, 0xA5} {
		mem := memory.NewCheckedAllocator(&poisonAllocator{fill: fill})
		tables[i], errs[i] = read(mem)
		if tables[i] != nil {
			defer mem.AssertSize(t, 0)
			defer tables[i].Release()
		}
	}
	if (errs[0] == nil) != (errs[1] == nil) {
		t.Fatalf("%s: one read failed: %v; %v", desc, errs[0], errs[1])
	}
	if errs[0] != nil {
		return errs[0]
	}
	a, b := tables[0], tables[1]
	for c := range int(a.NumCols()) {
		ac, bc := a.Column(c).Data().Chunks(), b.Column(c).Data().Chunks()
		if len(ac) != len(bc) {
			t.Fatalf("%s: column %d has %d chunks, then %d", desc, c, len(ac), len(bc))
		}
		for k := range ac {
			at := fmt.Sprintf("column %q (%s) chunk %d", a.Schema().Field(c).Name, a.Schema().Field(c).Type, k)
			if d := diffBytes(ac[k].Data(), bc[k].Data(), at); d != "" {
				t.Errorf("%s: %s", desc, d)
			}
		}
	}
	return nil
}

// TestCorpusFullyWritten reads every corpus file, flat and nested, whole
// and in small batches, and checks that the reader wrote every byte of
// every buffer it returned: the contract that lets it decode into memory
// no allocator zeroed.
func TestCorpusFullyWritten(t *testing.T) {
	root := corpus.Dir(t)
	for _, rel := range corpus.Files(t) {
		if strings.HasPrefix(rel, "bad_data") {
			continue
		}
		path := filepath.Join(root, rel)
		t.Run(rel, func(t *testing.T) {
			if size := decodedSize(path, rel); size > codectest.MaxCorpusPage {
				t.Skipf("decodes to %d MiB: four reads would take a minute, and its types are in smaller files", size>>20)
			}
			batchSizes := []int{0, 100}
			if testing.Short() {
				batchSizes = batchSizes[:1]
			}
			for _, batch := range batchSizes {
				err := checkFullyWritten(t, fmt.Sprintf("batch %d", batch), func(mem memory.Allocator) (arrow.Table, error) {
					opts := arrowio.ReadOptions{Allocator: mem, BatchSize: batch}
					if len(corpus.EncryptionKeys(rel)) > 0 {
						opts.Decryption = corpusDecryption(rel)
					}
					tbl, err := readPath(path, opts, batch > 0)
					return tbl, err
				})
				if err != nil && !errors.Is(err, arrowio.ErrUnsupported) && !errors.Is(err, context.Canceled) {
					t.Logf("not read: %v", err)
				}
			}
		})
	}
}

// decodedSize returns the total uncompressed size of the row groups of
// the corpus file rel at path, or 0 when it does not open.
func decodedSize(path, rel string) int64 {
	opts := arrowio.ReadOptions{}
	if len(corpus.EncryptionKeys(rel)) > 0 {
		opts.Decryption = corpusDecryption(rel)
	}
	rd, err := arrowio.OpenFile(path, opts)
	if err != nil {
		return 0
	}
	defer rd.Close()
	var size int64
	for _, rg := range rd.Metadata().RowGroups {
		size += rg.TotalByteSize
	}
	return size
}
