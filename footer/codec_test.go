package footer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// codecCorpusDir returns ../shared/parquet-testing relative to the module
// root (the directory holding go.mod, found by walking up from the test's
// working directory), skipping the test when it is absent.
func codecCorpusDir(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Skip("no go.mod above the working directory, so no parquet-testing corpus")
		}
		dir = parent
	}
	corpus := filepath.Join(dir, "..", "shared", "parquet-testing")
	if _, err := os.Stat(corpus); err != nil {
		tb.Skipf("parquet-testing corpus not found at %s: %v", corpus, err)
	}
	return corpus
}

// codecFooter is the metadata region of one corpus file.
type codecFooter struct {
	name  string // path relative to the corpus
	magic string // "PAR1" or "PARE"
	meta  []byte // FileMetaData, or FileCryptoMetaData followed by the encrypted footer
	bad   bool   // from bad_data/
}

// codecCorpusFooters reads the footer region of every .parquet and
// .parquet.encrypted file in the corpus. Files whose trailer cannot locate a footer are returned with nil
// meta.
func codecCorpusFooters(tb testing.TB) []codecFooter {
	tb.Helper()
	root := codecCorpusDir(tb)
	var out []codecFooter
	err := filepath.WalkDir(root, func(path string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() || !(strings.HasSuffix(path, ".parquet") || strings.HasSuffix(path, ".parquet.encrypted")) {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		f := codecFooter{name: rel, bad: strings.HasPrefix(rel, "bad_data")}
		if len(b) >= 12 {
			f.magic = string(b[len(b)-4:])
			n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
			if n <= len(b)-12 {
				f.meta = b[len(b)-8-n : len(b)-8]
			}
		}
		out = append(out, f)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(out) == 0 {
		tb.Skip("parquet-testing corpus holds no .parquet files")
	}
	return out
}

// roundTrip checks that v, decoded from some bytes, re-encodes to bytes
// that decode to an equal value, and returns those bytes.
func roundTrip[T any, P structPtr[T]](t *testing.T, v P) []byte {
	t.Helper()
	enc := Marshal(nil, v)
	var back T
	n, err := Unmarshal(enc, P(&back))
	if err != nil {
		t.Fatalf("re-parse of %T failed: %v", v, err)
	}
	if n != len(enc) {
		t.Fatalf("re-parse of %T consumed %d of %d bytes", v, n, len(enc))
	}
	if !reflect.DeepEqual(*v, back) && !bytes.Equal(enc, Marshal(nil, P(&back))) {
		t.Fatalf("%T changed in a round trip:\n got %+v\nwant %+v", v, back, *v)
	}
	return enc
}

func TestCorpusFooters(t *testing.T) {
	var plain, encrypted int
	for _, f := range codecCorpusFooters(t) {
		t.Run(f.name, func(t *testing.T) {
			if f.meta == nil {
				if !f.bad {
					t.Fatalf("trailer does not locate a footer")
				}
				return
			}
			switch f.magic {
			case "PAR1":
				var fm FileMetaData
				n, err := Unmarshal(f.meta, &fm)
				if err != nil {
					if !errors.Is(err, ErrCorrupt) {
						t.Fatalf("error does not wrap ErrCorrupt: %v", err)
					}
					if !f.bad {
						t.Fatal(err)
					}
					t.Logf("rejected: %v", err)
					return
				}
				want := len(f.meta)
				if fm.EncryptionAlgorithm != nil {
					want -= 28 // a signed plaintext footer ends with a nonce and a GCM tag
				}
				if n != want && !f.bad {
					t.Errorf("consumed %d of %d footer bytes", n, len(f.meta))
				}
				if len(fm.Schema) == 0 && !f.bad {
					t.Errorf("no schema")
				}
				roundTrip(t, &fm)
				plain++
			case "PARE":
				var cm FileCryptoMetaData
				n, err := Unmarshal(f.meta, &cm)
				if err != nil {
					t.Fatal(err)
				}
				if n >= len(f.meta) {
					t.Errorf("FileCryptoMetaData took all %d footer bytes; the encrypted FileMetaData should follow", n)
				}
				if cm.EncryptionAlgorithm.AesGcmV1 == nil && cm.EncryptionAlgorithm.AesGcmCtrV1 == nil {
					t.Errorf("no encryption algorithm: %+v", cm)
				}
				roundTrip(t, &cm)
				encrypted++
			default:
				if !f.bad {
					t.Fatalf("file ends with %q", f.magic)
				}
			}
		})
	}
	t.Logf("%d plaintext footers and %d encrypted footers round-tripped", plain, encrypted)
}

func TestCorpusBloomFilterHeader(t *testing.T) {
	path := filepath.Join(codecCorpusDir(t), "data", "bloom_filter.xxhash.bin")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("no bloom filter sample: %v", err)
	}
	var h BloomFilterHeader
	n, err := Unmarshal(b, &h)
	if err != nil {
		t.Fatal(err)
	}
	want := BloomFilterHeader{NumBytes: int32(len(b) - n), Algorithm: BloomAlgorithmSplitBlock,
		Hash: BloomHashXxHash, Compression: BloomCompressionUncompressed}
	if h != want || h.NumBytes != 1024 {
		t.Fatalf("got %+v after %d bytes, want %+v", h, n, want)
	}
	if enc := roundTrip(t, &h); !bytes.Equal(enc, b[:n]) {
		t.Errorf("re-encoded header %x, file has %x", enc, b[:n])
	}
}
