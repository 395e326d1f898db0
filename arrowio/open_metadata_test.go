package arrowio_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// openCounted opens file through a CountingReaderAt with opts and returns
// the reader, the counter and the reads Open made.
func openCounted(t *testing.T, file []byte, opts arrowio.ReadOptions) (*arrowio.Reader, *arrowiotest.CountingReaderAt, int) {
	t.Helper()
	c := &arrowiotest.CountingReaderAt{R: bytes.NewReader(file)}
	rd, err := arrowio.Open(c, int64(len(file)), opts)
	if err != nil {
		t.Fatal(err)
	}
	return rd, c, len(c.Reads)
}

// readCounted reads rd whole, closes it and returns the table and the
// reads c saw in all (Open's included).
func readCounted(t *testing.T, rd *arrowio.Reader, c *arrowiotest.CountingReaderAt) (arrow.Table, int) {
	t.Helper()
	defer rd.Close()
	tbl, err := rd.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tbl, len(c.Reads)
}

// marshalled returns fm serialized, to tell whether a read changed it.
func marshalled(fm *footer.FileMetaData) []byte { return footer.Marshal(nil, fm) }

// TestOpenWithMetadata opens files with the metadata an earlier Reader
// parsed: Open makes no request, the reads that follow make fewer or as
// many, the values are those of a plain Open, filtered or not, and the
// metadata is not changed by any number of Readers using it at once.
func TestOpenWithMetadata(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	trips, err := os.ReadFile(tripsFixture)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := pageindex.Parse("passengers >= 3")
	if err != nil {
		t.Fatal(err)
	}
	none, err := pageindex.Parse("trip_id < 0")
	if err != nil {
		t.Fatal(err)
	}
	// A file larger than the footer's first read, in row groups of 10,000
	// rows.
	rec := encRecord(t, mem, 50_000, 4)
	defer rec.Release()
	large := arrowiotest.WriteFile(t, encSchema, arrowio.WriteOptions{MaxRowGroupRows: 10_000}, rec)
	if len(large) <= arrowio.DefaultFooterReadSize {
		t.Fatalf("the large file has %d bytes", len(large))
	}
	largePred, err := pageindex.Parse("a >= 0")
	if err != nil {
		t.Fatal(err)
	}
	// saved is the requests the metadata saves: the footer's, unless
	// something is wanted from the bytes its first read got (all of a
	// small file, the page indexes before the footer of a large one),
	// which are then read in one request.
	cases := []struct {
		name  string
		file  []byte
		opts  arrowio.ReadOptions
		saved int
	}{
		{"whole", trips, arrowio.ReadOptions{}, 0},
		{"all-pruned", trips, arrowio.ReadOptions{Filter: none}, 1},
		{"large", large, arrowio.ReadOptions{}, 1},
		{"large/columns", large, arrowio.ReadOptions{Columns: []string{"c"}, RowGroups: []int{2}}, 1},
		{"large/filter", large, arrowio.ReadOptions{Filter: largePred, Columns: []string{"a", "b"}}, 0},
		{"columns", trips, arrowio.ReadOptions{Columns: []string{"fare", "vendor"}, RowGroups: []int{1}}, 0},
		{"filter", trips, arrowio.ReadOptions{Filter: pred}, 0},
		// Two footer reads: the first, of 1 KiB, holds part of it.
		{"small-footer-read", trips, arrowio.ReadOptions{IO: arrowio.IOOptions{FooterReadSize: 1 << 10}}, 2},
		{"small-footer-read/filter", trips, arrowio.ReadOptions{Filter: pred, IO: arrowio.IOOptions{FooterReadSize: 1 << 10}}, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Allocator = mem
			rd, c, footerReads := openCounted(t, tc.file, tc.opts)
			if footerReads == 0 {
				t.Fatal("Open without metadata made no request")
			}
			meta := rd.Metadata()
			want, wantReads := readCounted(t, rd, c)
			defer want.Release()
			before := marshalled(meta)

			withMeta := tc.opts
			withMeta.Metadata = meta
			rd, c, opened := openCounted(t, tc.file, withMeta)
			if opened != 0 || rd.IOStats().Requests != 0 {
				t.Fatalf("Open with metadata made %d reads (IOStats %+v), want none", opened, rd.IOStats())
			}
			if rd.Metadata() != meta || rd.NumRows() != meta.NumRows || !rd.Schema().Equal(want.Schema()) {
				t.Fatalf("reader with metadata: %d rows, schema %s", rd.NumRows(), rd.Schema())
			}
			got, gotReads := readCounted(t, rd, c)
			defer got.Release()
			if !array.TableEqual(got, want) {
				t.Fatal("the table read with metadata differs from the one read without")
			}
			if wantReads-gotReads != tc.saved {
				t.Errorf("%d reads without metadata (%d at Open), %d with it; want %d fewer", wantReads, footerReads, gotReads, tc.saved)
			}
			t.Logf("%d reads without metadata (%d at Open), %d with it (none at Open)", wantReads, footerReads, gotReads)

			// Readers sharing the metadata at once (run with -race).
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(func() {
					tbl, err := readAllBytes(tc.file, withMeta)
					if err != nil {
						t.Error(err)
						return
					}
					defer tbl.Release()
					if !array.TableEqual(tbl, want) {
						t.Error("a concurrent read with metadata differs")
					}
				})
			}
			wg.Wait()
			if !bytes.Equal(marshalled(meta), before) {
				t.Fatal("reading with the metadata changed it")
			}
		})
	}
}

// TestOpenFileWithMetadata opens a local file, mapped and not, with its
// metadata.
func TestOpenFileWithMetadata(t *testing.T) {
	rd, err := arrowio.OpenFile(tripsFixture, arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	meta := rd.Metadata()
	want, err := rd.ReadTable(context.Background())
	rd.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()
	for _, mmap := range []bool{false, true} {
		rd, err := arrowio.OpenFile(tripsFixture, arrowio.ReadOptions{Metadata: meta, MemoryMap: mmap})
		if err != nil {
			t.Fatal(err)
		}
		got, err := rd.ReadTable(context.Background())
		rd.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !array.TableEqual(got, want) {
			t.Errorf("MemoryMap %v: the table read with metadata differs", mmap)
		}
		got.Release()
	}
}

// TestOpenWithBadMetadata gives Open metadata that does not fit the file:
// each is an error, at Open or at the first read, never a panic.
func TestOpenWithBadMetadata(t *testing.T) {
	trips, err := os.ReadFile(tripsFixture)
	if err != nil {
		t.Fatal(err)
	}
	good := metadataOf(t, trips)
	// A larger file of another schema, whose chunks lie past the end of
	// trips.
	mem := memory.NewGoAllocator()
	rec := encRecord(t, mem, 20_000, 3)
	defer rec.Release()
	other := metadataOf(t, arrowiotest.WriteFile(t, encSchema, arrowio.WriteOptions{}, rec))

	edit := func(f func(fm *footer.FileMetaData)) *footer.FileMetaData {
		var fm footer.FileMetaData
		if _, err := footer.Unmarshal(marshalled(good), &fm); err != nil {
			t.Fatal(err)
		}
		f(&fm)
		return &fm
	}
	cases := []struct {
		name    string
		meta    *footer.FileMetaData
		size    int64
		atOpen  bool
		corrupt bool // the error wraps ErrCorrupt
	}{
		{"empty", &footer.FileMetaData{}, int64(len(trips)), true, true},
		{"too-small-file", good, 11, true, true},
		{"negative-rows", edit(func(fm *footer.FileMetaData) { fm.RowGroups[1].NumRows = -1 }), int64(len(trips)), true, true},
		{"missing-chunk", edit(func(fm *footer.FileMetaData) { fm.RowGroups[0].Columns = fm.RowGroups[0].Columns[1:] }), int64(len(trips)), true, true},
		{"no-schema", edit(func(fm *footer.FileMetaData) { fm.Schema = nil }), int64(len(trips)), true, true},
		{"chunk-past-end", edit(func(fm *footer.FileMetaData) {
			fm.RowGroups[1].Columns[2].MetaData.DataPageOffset = int64(len(trips)) - 8
			fm.RowGroups[1].Columns[2].MetaData.DictionaryPageOffset = footer.Optional[int64]{}
		}), int64(len(trips)), false, true},
		{"chunk-into-trailer", edit(func(fm *footer.FileMetaData) {
			fm.RowGroups[0].Columns[0].MetaData.DataPageOffset = int64(len(trips)) - 100
			fm.RowGroups[0].Columns[0].MetaData.DictionaryPageOffset = footer.Optional[int64]{}
			fm.RowGroups[0].Columns[0].MetaData.TotalCompressedSize = 95
		}), int64(len(trips)), false, true},
		{"chunk-metadata-missing", edit(func(fm *footer.FileMetaData) { fm.RowGroups[0].Columns[1].MetaData = nil }), int64(len(trips)), false, true},
		{"shorter-file", good, int64(len(trips)) / 2, false, true},
		{"another-file", other, int64(len(trips)), false, true},
		{"encrypted-chunk-no-algorithm", edit(func(fm *footer.FileMetaData) {
			fm.RowGroups[0].Columns[0].CryptoMetadata = &footer.ColumnCryptoMetaData{EncryptionWithFooterKey: &footer.EncryptionWithFooterKey{}}
		}), int64(len(trips)), true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rd, err := arrowio.Open(bytes.NewReader(trips), tc.size, arrowio.ReadOptions{Metadata: tc.meta, Allocator: mem})
			if err == nil {
				if tc.atOpen {
					rd.Close()
					t.Fatal("Open accepted the metadata")
				}
				var tbl arrow.Table
				tbl, err = rd.ReadTable(context.Background())
				rd.Close()
				if err == nil {
					tbl.Release()
					t.Fatal("the file read with the metadata")
				}
			} else if !tc.atOpen {
				t.Logf("refused at Open: %v", err)
			}
			if tc.corrupt && !errors.Is(err, arrowio.ErrCorrupt) && !errors.Is(err, footer.ErrCorrupt) {
				t.Errorf("%v does not wrap ErrCorrupt", err)
			}
			t.Log(err)
		})
	}
}

// metadataOf returns the parsed footer of file.
func metadataOf(t *testing.T, file []byte) *footer.FileMetaData {
	t.Helper()
	rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	return rd.Metadata()
}

// TestOpenWithMetadataEncrypted opens encrypted files with the metadata a
// Reader with the keys parsed: files with a plaintext footer read the
// same with the keys, make no request at Open, leave the metadata as it
// was, and without the keys refuse their encrypted columns; files whose
// footer is encrypted refuse the metadata.
func TestOpenWithMetadataEncrypted(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := encRecord(t, mem, 3000, 2)
	defer rec.Release()
	for _, m := range encModes(encrypt.AesGcmV1, 16) {
		t.Run(m.name, func(t *testing.T) {
			file := arrowiotest.WriteFile(t, encSchema, arrowio.WriteOptions{Encryption: &m.enc, MaxRowGroupRows: 1100}, rec)
			opts := arrowio.ReadOptions{Decryption: &m.dec, Allocator: mem, Mapping: int96Millis}
			rd, c, _ := openCounted(t, file, opts)
			meta := rd.Metadata()
			want, _ := readCounted(t, rd, c)
			defer want.Release()
			before := marshalled(meta)
			opts.Metadata = meta
			if !m.enc.PlaintextFooter {
				_, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), opts)
				if !errors.Is(err, footer.ErrEncryptedFooter) {
					t.Fatalf("metadata of an encrypted footer: %v, want an error wrapping ErrEncryptedFooter", err)
				}
				return
			}
			rd, c, opened := openCounted(t, file, opts)
			if opened != 0 {
				t.Fatalf("Open with metadata made %d reads", opened)
			}
			got, _ := readCounted(t, rd, c)
			defer got.Release()
			if !array.TableEqual(got, want) {
				t.Fatal("the table read with metadata differs")
			}
			// Without the keys, the encrypted column b is refused.
			opts.Decryption = nil
			opts.Columns = []string{"b"}
			if tbl, err := readAllBytes(file, opts); !errors.Is(err, encrypt.ErrMissingKey) {
				if err == nil {
					tbl.Release()
				}
				t.Fatalf("column b without keys: %v, want an error wrapping ErrMissingKey", err)
			}
			if !bytes.Equal(marshalled(meta), before) {
				t.Fatal("reading with the metadata changed it")
			}
		})
	}
}

// FuzzOpenMetadata opens the shipped fixture with arbitrary metadata and
// reads it: any bytes that parse as a FileMetaData (seeded with the
// fixture's own and those of the other fixtures), with one number of one
// column chunk (its offsets, sizes, value count, type or codec, or its
// row group's row count) set to v. The result is rows or an error, never
// a panic, and every buffer is freed.
func FuzzOpenMetadata(f *testing.F) {
	trips, err := os.ReadFile(tripsFixture)
	if err != nil {
		f.Fatal(err)
	}
	files, _ := filepath.Glob("../testdata/*.parquet")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			if ft, err := footer.ReadFooter(bytes.NewReader(b), int64(len(b))); err == nil {
				f.Add(marshalled(ft.Meta), uint8(0), uint8(0), uint8(0), int64(0))
				f.Add(marshalled(ft.Meta), uint8(1), uint8(2), uint8(1), int64(len(trips)-20))
			}
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte, rg, col, field uint8, v int64) {
		var fm footer.FileMetaData
		if _, err := footer.Unmarshal(raw, &fm); err != nil {
			return
		}
		if len(fm.RowGroups) > 0 && len(fm.RowGroups[int(rg)%len(fm.RowGroups)].Columns) > 0 {
			g := &fm.RowGroups[int(rg)%len(fm.RowGroups)]
			if md := g.Columns[int(col)%len(g.Columns)].MetaData; md != nil {
				switch field % 8 {
				case 0:
					md.DataPageOffset = v
				case 1:
					md.DictionaryPageOffset = footer.Some(v)
				case 2:
					md.TotalCompressedSize = v
				case 3:
					md.NumValues = v
				case 4:
					g.NumRows = v
				case 5:
					md.Type = footer.Type(v % 10)
				case 6:
					md.Codec = footer.CompressionCodec(v % 10)
				case 7:
					md.TotalUncompressedSize = v
				}
			}
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		for _, par := range []int{1, 2} {
			tbl, err := readAllBytes(trips, arrowio.ReadOptions{Metadata: &fm, Allocator: mem, Parallelism: par})
			if err == nil {
				tbl.Release()
			}
		}
	})
}
