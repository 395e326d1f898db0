package pqfiles

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/bench/datasets"
)

// TestEnsureRoundTrip writes every dataset in every configuration into a
// fresh cache, reads each file back with pqarrow and compares it with the
// generated batches, and checks the row-group count and the encodings and
// codec each configuration promises.
func TestEnsureRoundTrip(t *testing.T) {
	t.Setenv(CacheEnv, t.TempDir())
	for _, d := range datasets.All() {
		t.Run(d.Name, func(t *testing.T) {
			set, err := Ensure(datasets.Small, d)
			if err != nil {
				t.Fatal(err)
			}
			recs := d.Generate(memory.DefaultAllocator, datasets.Small)
			defer func() {
				for _, r := range recs {
					r.Release()
				}
			}()
			if want := MetaOf(recs); set.Meta.Rows != want.Rows || set.Meta.ArrowBytes != want.ArrowBytes {
				t.Fatalf("meta %+v, want %+v", set.Meta, want)
			}
			want := array.NewTableFromRecords(d.Schema, recs)
			defer want.Release()
			for _, c := range Configs(d) {
				got, rdr := readBack(t, set.Path(c))
				tablesEqual(t, c.Name, got, want)
				got.Release()
				if n := rdr.NumRowGroups(); n != d.RowGroups {
					t.Errorf("%s: %d row groups, want %d", c.Name, n, d.RowGroups)
				}
				checkLayout(t, c, d, rdr)
				rdr.Close()
			}
		})
	}
}

// TestWriteQuiver writes every dataset in every configuration with quiver,
// reads each file back with pqarrow, and checks values, row groups and the
// layout the configuration promises, as for pqarrow's files. Quiver may
// report the nested table unsupported until it writes nested columns.
func TestWriteQuiver(t *testing.T) {
	dir := t.TempDir()
	for _, d := range datasets.All() {
		recs := d.Generate(memory.DefaultAllocator, datasets.Small)
		want := array.NewTableFromRecords(d.Schema, recs)
		for _, c := range Configs(d) {
			path := filepath.Join(dir, d.Name+"-"+c.Name+".parquet")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			err = c.WriteQuiver(f, d, datasets.Small, recs, 0)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if d == datasets.Nested && errors.Is(err, arrowio.ErrUnsupported) {
				t.Logf("%s/%s: %v", d.Name, c.Name, err)
				continue
			}
			if err != nil {
				t.Fatalf("%s/%s: %v", d.Name, c.Name, err)
			}
			got, rdr := readBack(t, path)
			tablesEqual(t, d.Name+"/"+c.Name, got, want)
			got.Release()
			if n := rdr.NumRowGroups(); n != d.RowGroups {
				t.Errorf("%s/%s: %d row groups, want %d", d.Name, c.Name, n, d.RowGroups)
			}
			checkLayout(t, c, d, rdr)
			rdr.Close()
		}
		want.Release()
		for _, r := range recs {
			r.Release()
		}
	}
}

// tablesEqual compares got with want column by column: names, types,
// nullability and values (field metadata such as PARQUET:field_id aside).
func tablesEqual(t *testing.T, what string, got, want arrow.Table) {
	t.Helper()
	if got.NumCols() != want.NumCols() || got.NumRows() != want.NumRows() {
		t.Fatalf("%s: %d columns x %d rows, want %d x %d", what, got.NumCols(), got.NumRows(), want.NumCols(), want.NumRows())
	}
	for i := range int(want.NumCols()) {
		g, w := got.Schema().Field(i), want.Schema().Field(i)
		if g.Name != w.Name || g.Nullable != w.Nullable || !arrow.TypeEqual(g.Type, w.Type) {
			t.Errorf("%s: column %d is %s, want %s", what, i, g, w)
			continue
		}
		if !array.ChunkedEqual(got.Column(i).Data(), want.Column(i).Data()) {
			t.Errorf("%s: column %s differs from the generated one", what, w.Name)
		}
	}
}

func readBack(t *testing.T, path string) (arrow.Table, *file.Reader) {
	t.Helper()
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 65536}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tbl, rdr
}

// checkLayout checks the first row group's column chunks against what c
// documents.
func checkLayout(t *testing.T, c *Config, d *datasets.Dataset, rdr *file.Reader) {
	t.Helper()
	rg := rdr.MetaData().RowGroup(0)
	for i := range rg.NumColumns() {
		cc, err := rg.ColumnChunk(i)
		if err != nil {
			t.Fatal(err)
		}
		encs := cc.Encodings()
		path := cc.PathInSchema().String()
		typ := cc.Type()
		var wantCodec compress.Compression
		var wantEnc parquet.Encoding = -1
		switch c {
		case DictSnappy:
			wantCodec = compress.Codecs.Snappy
		case Plain:
			wantCodec, wantEnc = compress.Codecs.Uncompressed, parquet.Encodings.Plain
		case ZstdV2:
			wantCodec = compress.Codecs.Zstd
		case Delta:
			wantCodec = compress.Codecs.Uncompressed
			switch typ {
			case parquet.Types.Int32, parquet.Types.Int64:
				wantEnc = parquet.Encodings.DeltaBinaryPacked
			case parquet.Types.ByteArray:
				wantEnc = parquet.Encodings.DeltaLengthByteArray
				if slices.Contains(d.PrefixStrings, path) {
					wantEnc = parquet.Encodings.DeltaByteArray
				}
			}
		case BSSZstd:
			wantCodec = compress.Codecs.Zstd
			if typ == parquet.Types.Float || typ == parquet.Types.Double {
				wantEnc = parquet.Encodings.ByteStreamSplit
			}
		}
		if cc.Compression() != wantCodec {
			t.Errorf("%s %s: codec %v, want %v", c.Name, path, cc.Compression(), wantCodec)
		}
		if wantEnc >= 0 && !slices.Contains(encs, wantEnc) {
			t.Errorf("%s %s: encodings %v lack %v", c.Name, path, encs, wantEnc)
		}
		if (c == Plain || c == Delta || c == BSSZstd) && cc.HasDictionaryPage() {
			t.Errorf("%s %s: has a dictionary page with dictionaries off", c.Name, path)
		}
	}
}

// TestEnsureReuses checks that a second Ensure keeps the files it finds and
// that a directory of another version is removed.
func TestEnsureReuses(t *testing.T) {
	root := t.TempDir()
	t.Setenv(CacheEnv, root)
	stale := filepath.Join(root, string(datasets.Small), "v0.0")
	if err := os.MkdirAll(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	set, err := Ensure(datasets.Small, datasets.Wide)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale cache directory %s still there (%v)", stale, err)
	}
	before, err := os.Stat(set.Path(DictSnappy))
	if err != nil {
		t.Fatal(err)
	}
	again, err := Ensure(datasets.Small, datasets.Wide)
	if err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(again.Path(DictSnappy))
	if err != nil {
		t.Fatal(err)
	}
	if !after.ModTime().Equal(before.ModTime()) || again.Meta.Rows != set.Meta.Rows {
		t.Errorf("second Ensure rewrote the file or changed the meta: %v -> %v, %+v -> %+v",
			before.ModTime(), after.ModTime(), set.Meta, again.Meta)
	}
	if err := os.Remove(set.Path(DictSnappy)); err != nil {
		t.Fatal(err)
	}
	if _, err := Ensure(datasets.Small, datasets.Wide); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(set.Path(DictSnappy)); err != nil {
		t.Errorf("a removed file was not rebuilt: %v", err)
	}
}
