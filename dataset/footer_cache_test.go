package dataset

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// The cache keeps at most its bound, dropping the least recently used
// footers, and serves arrowio's tail read from memory.
func TestFooterCacheBound(t *testing.T) {
	dir := t.TempDir()
	makePartitioned(t, dir, 8, 100, arrowio.WriteOptions{})
	ctx := context.Background()
	found, err := discover(ctx, Local, []string{dir}, "")
	if err != nil {
		t.Fatal(err)
	}
	var ro arrowio.ReadOptions
	m, err := loadMeta(ctx, Local, nil, found[0].FileInfo, nil, &ro)
	if err != nil {
		t.Fatal(err)
	}
	// Room for three footers.
	c := NewFooterCache(3*m.cost + m.cost/2)
	for _, f := range found {
		if _, err := loadMeta(ctx, Local, c, f.FileInfo, nil, &ro); err != nil {
			t.Fatal(err)
		}
	}
	if c.used > c.limit || len(c.items) != 3 {
		t.Errorf("%d bytes in %d entries, bound %d", c.used, len(c.items), c.limit)
	}
	src := &countingSource{Source: Local}
	for i := len(found) - 3; i < len(found); i++ {
		if _, err := loadMeta(ctx, src, c, found[i].FileInfo, nil, &ro); err != nil {
			t.Fatal(err)
		}
	}
	if n := src.opens.Load(); n != 0 {
		t.Errorf("the last three footers opened %d files", n)
	}
	if _, err := loadMeta(ctx, src, c, found[0].FileInfo, nil, &ro); err != nil || src.opens.Load() != 1 {
		t.Errorf("an evicted footer: %v, %d opens", err, src.opens.Load())
	}
	// The whole of a small file is in its tail: reads of any of it are
	// served from memory, and the footer parsed here is the one arrowio
	// reads the file with.
	if m.tailOff != 0 || int64(len(m.tail)) != found[0].Size {
		t.Errorf("tail of %d bytes at %d for a %d-byte file", len(m.tail), m.tailOff, found[0].Size)
	}
	r, err := m.open(failReaderAt{}, found[0].Size, arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Metadata() != m.ft.Meta {
		t.Error("arrowio parsed the footer again")
	}
	tbl, err := r.ReadTable(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	if tbl.NumRows() != m.ft.Meta.NumRows {
		t.Errorf("%d rows, the footer says %d", tbl.NumRows(), m.ft.Meta.NumRows)
	}
}

type failReaderAt struct{}

func (failReaderAt) ReadAt([]byte, int64) (int, error) { panic("read past the cached tail") }

// A footer longer than the first 64 KiB read is read whole and kept with
// the rest of the tail.
func TestLongFooter(t *testing.T) {
	dir := t.TempDir()
	var fields []arrow.Field
	for i := range 2000 {
		fields = append(fields, arrow.Field{Name: fmt.Sprintf("a_rather_long_column_name_%04d", i), Type: arrow.PrimitiveTypes.Int64})
	}
	sc := arrow.NewSchema(fields, nil)
	cols := make([]arrow.Array, len(fields))
	for i := range cols {
		b := array.NewInt64Builder(memory.DefaultAllocator)
		b.AppendValues([]int64{int64(i), int64(-i)}, nil)
		cols[i] = b.NewArray()
	}
	writeParquet(t, filepath.Join(dir, "wide.parquet"), arrowio.WriteOptions{}, array.NewRecordBatch(sc, cols, 2))
	ds, err := Open(context.Background(), nil, []string{dir}, Options{Columns: []string{"a_rather_long_column_name_1999"}})
	if err != nil {
		t.Fatal(err)
	}
	fi := ds.Files()[0].FileInfo
	m, err := loadMeta(context.Background(), Local, nil, fi, nil, &arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.tail) <= footer.TailReadSize || m.tailOff+int64(len(m.tail)) != fi.Size {
		t.Fatalf("tail of %d bytes at %d; file of %d", len(m.tail), m.tailOff, fi.Size)
	}
	rr, _ := ds.RecordReader(context.Background())
	if rows := readRows(t, rr); !slices.Equal(rows, []string{"a_rather_long_column_name_1999=-1999;", "a_rather_long_column_name_1999=1999;"}) {
		t.Errorf("rows %q", rows)
	}
}

// Encrypted files read through the footer cache: those with a plaintext
// footer are opened with the metadata it parsed, those whose footer is
// encrypted (whose metadata arrowio refuses) read their footer again. A
// filter on the encrypted column prunes by its decrypted statistics and
// filters its rows.
func TestEncryptedFiles(t *testing.T) {
	key := []byte("0123456789abcdef")
	for _, plaintext := range []bool{false, true} {
		t.Run(fmt.Sprintf("plaintext-footer=%v", plaintext), func(t *testing.T) {
			dir := t.TempDir()
			enc := &encrypt.EncryptionConfig{Algorithm: encrypt.AesGcmV1, FooterKey: key, PlaintextFooter: plaintext}
			makePartitioned(t, dir, 4, 50, arrowio.WriteOptions{Encryption: enc, MaxRowGroupRows: 10})
			pred, err := pageindex.Parse("x >= 95 AND x < 105")
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{Filter: pred, Columns: []string{"x"}, Read: arrowio.ReadOptions{Decryption: &encrypt.DecryptionConfig{FooterKey: key}}}
			ds, err := Open(context.Background(), nil, []string{dir}, opts)
			if err != nil {
				t.Fatal(err)
			}
			rr, err := ds.RecordReader(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			rows := readRows(t, rr)
			slices.Sort(rows)
			var want []string
			for x := 95; x < 105; x++ {
				want = append(want, fmt.Sprintf("x=%d;", x))
			}
			slices.Sort(want)
			if !slices.Equal(rows, want) {
				t.Errorf("rows %q, want %q", rows, want)
			}
			if n, err := ds.CountRows(context.Background()); err != nil || n != int64(len(want)) {
				t.Errorf("CountRows = %d, %v; want %d", n, err, len(want))
			}
			opts.Read.Decryption = nil
			if ds, err := Open(context.Background(), nil, []string{dir}, opts); err == nil {
				rr, err := ds.RecordReader(context.Background())
				if err == nil {
					for rr.Next() {
					}
					err = rr.Err()
					rr.Release()
				}
				if !errors.Is(err, encrypt.ErrMissingKey) {
					t.Errorf("without keys: %v, want an error wrapping ErrMissingKey", err)
				}
			} else if !errors.Is(err, encrypt.ErrMissingKey) {
				t.Errorf("without keys: %v, want an error wrapping ErrMissingKey", err)
			}
		})
	}
}
