package arrowio_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

// encryptedCorpus lists the corpus files the README's keys open, as paths
// relative to the corpus root.
func encryptedCorpus(tb testing.TB) (root string, rels []string) {
	root = corpus.Dir(tb)
	rels, err := corpus.ListEncrypted(root)
	if err != nil {
		tb.Fatal(err)
	}
	if len(rels) == 0 {
		tb.Skip("no encrypted files in the corpus")
	}
	return root, rels
}

// corpusDecryption returns the README's decryption configuration of the
// corpus file rel.
func corpusDecryption(rel string) *encrypt.DecryptionConfig {
	return &encrypt.DecryptionConfig{KeyRetriever: encrypt.KeyMap(corpus.EncryptionKeys(rel)), AADPrefix: corpus.AADPrefix(rel)}
}

// pqarrowKeys adapts a KeyMap to arrow-go's key retriever.
type pqarrowKeys encrypt.KeyMap

func (k pqarrowKeys) GetKey(md []byte) string { return string(k[string(md)]) }

// pqarrowDecryptedColumns reads each top-level field of the file at path
// with arrow-go configured with cfg's keys, one field at a time (arrow-go
// fails some fields of the corpus); a field it fails is missing from the
// result.
func pqarrowDecryptedColumns(t *testing.T, path string, keys encrypt.KeyMap, prefix []byte) map[string]*arrow.Chunked {
	props := parquet.NewReaderProperties(memory.DefaultAllocator)
	opts := []parquet.FileDecryptionOption{parquet.WithKeyRetriever(pqarrowKeys(keys))}
	if prefix != nil {
		opts = append(opts, parquet.WithDecryptAadPrefix(string(prefix)))
	}
	props.FileDecryptProps = parquet.NewFileDecryptionProperties(opts...)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rdr, err := file.NewParquetReader(f, file.WithReadProps(props))
	if err != nil {
		t.Fatalf("arrow-go cannot open %s: %v", path, err)
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 1 << 16}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*arrow.Chunked{}
	groups := make([]int, rdr.NumRowGroups())
	for i := range groups {
		groups[i] = i
	}
	sc := rdr.MetaData().Schema
	for i := 0; i < sc.Root().NumFields(); i++ {
		name := sc.Root().Field(i).Name()
		var leaves []int
		for j := 0; j < sc.NumColumns(); j++ {
			if sc.Column(j).ColumnPath()[0] == name {
				leaves = append(leaves, j)
			}
		}
		tbl, err := func() (tbl arrow.Table, err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			return fr.ReadRowGroups(context.Background(), leaves, groups)
		}()
		if err != nil {
			t.Logf("arrow-go cannot read %s: %v", name, err)
			continue
		}
		c := tbl.Column(0).Data()
		c.Retain()
		out[name] = c
		tbl.Release()
	}
	return out
}

// readEncrypted reads the whole file at path with quiver and cfg.
func readEncrypted(t *testing.T, path string, cfg *encrypt.DecryptionConfig, mem memory.Allocator) arrow.Table {
	t.Helper()
	img, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return readDecrypted(t, img, cfg, mem)
}

// TestEncryptedCorpusMatchesPqarrow reads every encrypted corpus file with
// its keys and compares every field with arrow-go's decrypted read of it.
func TestEncryptedCorpusMatchesPqarrow(t *testing.T) {
	root, rels := encryptedCorpus(t)
	for _, rel := range rels {
		t.Run(rel, func(t *testing.T) {
			path := filepath.Join(root, rel)
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			got := readEncrypted(t, path, corpusDecryption(rel), mem)
			defer got.Release()
			cfg := corpusDecryption(rel)
			want := pqarrowDecryptedColumns(t, path, cfg.KeyRetriever.(encrypt.KeyMap), cfg.AADPrefix)
			compared := 0
			for i := 0; i < int(got.NumCols()); i++ {
				name := got.Schema().Field(i).Name
				w, ok := want[name]
				if !ok {
					continue
				}
				defer w.Release()
				if !sameChunked(got.Column(i).Data(), w) {
					t.Errorf("column %s: values differ from arrow-go", name)
				}
				compared++
			}
			t.Logf("%d rows; %d of %d fields compared with arrow-go", got.NumRows(), compared, got.NumCols())
		})
	}
}

// sameChunked reports whether g and w hold equal values. Types that differ
// only in a list element's name and nullability (quiver names a bare
// repeated field's element after it, arrow-go calls it "item") compare by
// their values' text.
func sameChunked(g, w *arrow.Chunked) bool {
	if arrow.TypeEqual(g.DataType(), w.DataType()) {
		return array.ChunkedApproxEqual(g, w, array.WithNaNsEqual(true), array.WithAbsTolerance(0))
	}
	gl, gok := g.DataType().(*arrow.ListType)
	wl, wok := w.DataType().(*arrow.ListType)
	if !gok || !wok || !arrow.TypeEqual(gl.Elem(), wl.Elem()) {
		return false
	}
	return fmt.Sprint(g.Chunks()) == fmt.Sprint(w.Chunks())
}

// TestEncryptedCorpusParquetJava checks the files parquet-java wrote
// (arrow-go cannot decrypt their pages): the aes256 files hold the data of
// the C++ files, which TestEncryptedCorpusMatchesPqarrow compares with
// arrow-go, and the bloom-filter file's encrypted columns follow its
// generator (double i+0.5, float i+0.25).
func TestEncryptedCorpusParquetJava(t *testing.T) {
	root, rels := encryptedCorpus(t)
	const ref = "data/uniform_encryption.parquet.encrypted"
	want := readEncrypted(t, filepath.Join(root, ref), corpusDecryption(ref), memory.DefaultAllocator)
	defer want.Release()
	for _, rel := range rels {
		if !strings.Contains(rel, "aes256") {
			continue
		}
		t.Run(rel, func(t *testing.T) {
			got := readEncrypted(t, filepath.Join(root, rel), corpusDecryption(rel), memory.DefaultAllocator)
			defer got.Release()
			if got.NumCols() != want.NumCols() || got.NumRows() != want.NumRows() {
				t.Fatalf("%d columns of %d rows, the C++ file has %d of %d", got.NumCols(), got.NumRows(), want.NumCols(), want.NumRows())
			}
			for i := 0; i < int(got.NumCols()); i++ {
				if g, w := fmt.Sprint(got.Column(i).Data().Chunks()), fmt.Sprint(want.Column(i).Data().Chunks()); g != w {
					t.Errorf("column %s differs from the C++ file's", got.Schema().Field(i).Name)
				}
			}
		})
	}
	// The same file with every key given by column path (kc1..kc8 in the
	// README's column order) instead of the KeyRetriever.
	const byPath = "data/aes256/encrypt_columns_and_footer.parquet.encrypted"
	keys := corpus.EncryptionKeys(byPath)
	cfg := &encrypt.DecryptionConfig{FooterKey: keys["kf"], ColumnKeys: map[string][]byte{}}
	for i, path := range []string{"double_field", "float_field", "boolean_field", "int32_field", "ba_field", "flba_field", "int64_field.list.element", "int96_field"} {
		cfg.ColumnKeys[path] = keys[fmt.Sprintf("kc%d", i+1)]
	}
	explicit := readEncrypted(t, filepath.Join(root, byPath), cfg, memory.DefaultAllocator)
	defer explicit.Release()
	for i := 0; i < int(explicit.NumCols()); i++ {
		if g, w := fmt.Sprint(explicit.Column(i).Data().Chunks()), fmt.Sprint(want.Column(i).Data().Chunks()); g != w {
			t.Errorf("%s with keys by path: column %s differs from the C++ file's", byPath, explicit.Schema().Field(i).Name)
		}
	}
	const bloom = "data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted"
	got := readEncrypted(t, filepath.Join(root, bloom), corpusDecryption(bloom), memory.DefaultAllocator)
	defer got.Release()
	if got.NumRows() != 2000 {
		t.Fatalf("%s: %d rows, want 2000", bloom, got.NumRows())
	}
	for _, c := range got.Column(0).Data().Chunks() {
		d := c.(*array.Float64)
		for i := range d.Len() {
			if d.Value(i) != float64(i)+0.5 {
				t.Fatalf("double_field[%d] = %v", i, d.Value(i))
			}
		}
	}
	for _, c := range got.Column(1).Data().Chunks() {
		f := c.(*array.Float32)
		for i := range f.Len() {
			if f.Value(i) != float32(i)+0.25 {
				t.Fatalf("float_field[%d] = %v", i, f.Value(i))
			}
		}
	}
}

// TestEncryptedCorpusKeyErrors opens and reads corpus files with keys or
// AAD prefixes missing or wrong: every case is an error of the documented
// kind, and the columns whose keys are known stay readable.
func TestEncryptedCorpusKeyErrors(t *testing.T) {
	root, _ := encryptedCorpus(t)
	keys := encrypt.KeyMap(corpus.EncryptionKeys("data"))
	wrong := func(name string) encrypt.KeyMap {
		m := encrypt.KeyMap{}
		for k, v := range keys {
			m[k] = v
		}
		m[name] = []byte("9999999999999999")
		return m
	}
	cases := []struct {
		name, file string
		cfg        *encrypt.DecryptionConfig
		columns    []string
		openErr    error // wanted from Open
		readErr    error // wanted from ReadTable when Open succeeds
	}{
		{"encrypted footer, no config", "encrypt_columns_and_footer", nil, nil, footer.ErrEncryptedFooter, nil},
		{"encrypted footer, no footer key", "encrypt_columns_and_footer", &encrypt.DecryptionConfig{ColumnKeys: map[string][]byte{"double_field": keys["kc1"]}}, nil, encrypt.ErrMissingKey, nil},
		{"encrypted footer, wrong footer key", "encrypt_columns_and_footer", &encrypt.DecryptionConfig{KeyRetriever: wrong("kf")}, nil, encrypt.ErrAuthentication, nil},
		{"wrong column key", "encrypt_columns_and_footer", &encrypt.DecryptionConfig{KeyRetriever: wrong("kc1")}, []string{"double_field"}, nil, encrypt.ErrAuthentication},
		{"missing column key", "encrypt_columns_and_footer", &encrypt.DecryptionConfig{FooterKey: keys["kf"]}, []string{"float_field"}, nil, encrypt.ErrMissingKey},
		{"missing AAD prefix", "encrypt_columns_and_footer_disable_aad_storage", &encrypt.DecryptionConfig{KeyRetriever: keys}, nil, encrypt.ErrAuthentication, nil},
		{"wrong AAD prefix", "encrypt_columns_and_footer_disable_aad_storage", &encrypt.DecryptionConfig{KeyRetriever: keys, AADPrefix: []byte("tester2")}, nil, encrypt.ErrAuthentication, nil},
		{"AAD prefix differs from the stored one", "encrypt_columns_and_footer_aad", &encrypt.DecryptionConfig{KeyRetriever: keys, AADPrefix: []byte("other")}, nil, encrypt.ErrAuthentication, nil},
		{"plaintext footer, wrong footer key", "encrypt_columns_plaintext_footer", &encrypt.DecryptionConfig{KeyRetriever: wrong("kf")}, nil, encrypt.ErrAuthentication, nil},
		{"plaintext footer, no keys, encrypted column", "encrypt_columns_plaintext_footer", nil, []string{"double_field"}, nil, encrypt.ErrMissingKey},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(root, "data", c.file+".parquet.encrypted")
			rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{Decryption: c.cfg, Columns: c.columns})
			if c.openErr != nil {
				if !errors.Is(err, c.openErr) {
					t.Fatalf("open: err = %v, want %v", err, c.openErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer rd.Close()
			tbl, err := rd.ReadTable(context.Background())
			if err == nil {
				tbl.Release()
			}
			if !errors.Is(err, c.readErr) {
				t.Fatalf("read: err = %v, want %v", err, c.readErr)
			}
			t.Log(err)
		})
	}
}

// TestEncryptedCorpusPartialKeys reads the plaintext columns of a file
// with a plaintext footer without any key, and the footer-key columns of a
// file whose column keys are missing, equal to a read with every key.
func TestEncryptedCorpusPartialKeys(t *testing.T) {
	root, _ := encryptedCorpus(t)
	cols := []string{"boolean_field", "int32_field", "int64_field", "ba_field", "flba_field"}
	for _, c := range []struct {
		file string
		cfg  *encrypt.DecryptionConfig
	}{
		{"encrypt_columns_plaintext_footer", nil},
		{"encrypt_columns_plaintext_footer", &encrypt.DecryptionConfig{FooterKey: []byte("0123456789012345")}},
		{"encrypt_columns_and_footer", &encrypt.DecryptionConfig{FooterKey: []byte("0123456789012345")}},
	} {
		rel := filepath.Join("data", c.file+".parquet.encrypted")
		path := filepath.Join(root, rel)
		rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{Decryption: c.cfg, Columns: cols})
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		got, err := rd.ReadTable(context.Background())
		rd.Close()
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		full := readEncrypted(t, path, corpusDecryption(rel), memory.DefaultAllocator)
		for i := range cols {
			w := full.Column(full.Schema().FieldIndices(cols[i])[0]).Data()
			if !array.ChunkedEqual(got.Column(i).Data(), w) {
				t.Errorf("%s: column %s differs from the read with every key", c.file, cols[i])
			}
		}
		got.Release()
		full.Release()
	}
}

// TestEncryptedCorpusExternalKeyMaterial reads the parquet-java file whose
// keys are wrapped by master keys in a sidecar key material file
// (encrypt.KeyMaterial): 100 rows of integers i and strings
// "a0", "b1", ... ('a'+i%10 followed by i).
func TestEncryptedCorpusExternalKeyMaterial(t *testing.T) {
	dir := filepath.Join(corpus.Dir(t), "data")
	side, err := os.ReadFile(filepath.Join(dir, "_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json"))
	if err != nil {
		t.Skip(err)
	}
	ext, err := encrypt.ParseKeyMaterialFile(side)
	if err != nil {
		t.Fatal(err)
	}
	km := &encrypt.KeyMaterial{MasterKeys: corpus.EncryptionKeys("data"), External: ext}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	got := readEncrypted(t, filepath.Join(dir, "external_key_material_java.parquet.encrypted"), &encrypt.DecryptionConfig{KeyRetriever: km}, mem)
	defer got.Release()
	if got.NumRows() != 100 || got.NumCols() != 2 {
		t.Fatalf("%d rows of %d columns, want 100 of 2", got.NumRows(), got.NumCols())
	}
	ints, strs := columnOf(t, mem, got, 0).(*array.Int32), columnOf(t, mem, got, 1).(*array.String)
	defer ints.Release()
	defer strs.Release()
	for i := range 100 {
		if ints.Value(i) != int32(i) || strs.Value(i) != fmt.Sprintf("%c%d", 'a'+i%10, i) {
			t.Fatalf("row %d: %d %q", i, ints.Value(i), strs.Value(i))
		}
	}
}
