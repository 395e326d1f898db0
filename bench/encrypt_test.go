package bench

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/bench/datasets"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
)

// encFiles are the lineitem files BenchmarkReadEncrypted reads, held in
// memory so that only decoding and decryption are timed.
type encFiles struct {
	rows, arrowBytes int64
	files            map[string][]byte // by encryption mode
}

// encModes are the encryption modes of BenchmarkReadEncrypted: none, every
// column and the footer under AES_GCM_V1, and the same under
// AES_GCM_CTR_V1.
var encModes = []struct {
	name string
	cfg  *encrypt.EncryptionConfig
}{
	{"plain", nil},
	{"gcm", &encrypt.EncryptionConfig{FooterKey: benchKey}},
	{"ctr", &encrypt.EncryptionConfig{Algorithm: encrypt.AesGcmCtrV1, FooterKey: benchKey}},
}

var benchKey = []byte("0123456789abcdef")

var (
	encMu   sync.Mutex
	encSets = map[datasets.Size]*encFiles{}
)

// encFilesAt returns the files of BenchmarkReadEncrypted at size s,
// writing them on first use.
func encFilesAt(s datasets.Size) (*encFiles, error) {
	encMu.Lock()
	defer encMu.Unlock()
	if set, ok := encSets[s]; ok {
		return set, nil
	}
	set, err := writeEncFiles(s)
	if err == nil {
		encSets[s] = set
	}
	return set, err
}

// writeEncFiles writes lineitem at size s in every mode of encModes.
func writeEncFiles(s datasets.Size) (*encFiles, error) {
	recs := datasets.Lineitem.Generate(memory.DefaultAllocator, s)
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	if s == datasets.Full {
		recs = recs[:2] // about 1 M rows
	}
	out := &encFiles{files: map[string][]byte{}, arrowBytes: datasets.ArrowBytes(recs)}
	for _, r := range recs {
		out.rows += r.NumRows()
	}
	for _, m := range encModes {
		var buf bytes.Buffer
		w, err := arrowio.NewWriter(&buf, datasets.Lineitem.Schema, arrowio.WriteOptions{Compression: footer.CodecSnappy, Encryption: m.cfg})
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			if err := w.Write(r); err != nil {
				return nil, err
			}
		}
		if err := w.Close(); err != nil {
			return nil, err
		}
		out.files[m.name] = buf.Bytes()
	}
	return out, nil
}

// BenchmarkReadEncrypted reads lineitem (about 1 M rows; snappy,
// dictionary) written by quiver in plaintext and encrypted with each
// algorithm, on one goroutine: `benchstat -col /enc` gives the cost of
// decryption.
func BenchmarkReadEncrypted(b *testing.B) {
	set, err := encFilesAt(size(b))
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range encModes {
		file := set.files[m.name]
		b.Run(fmt.Sprintf("dataset=lineitem/enc=%s/impl=quiver", m.name), func(b *testing.B) {
			opts := arrowio.ReadOptions{Parallelism: 1, Decryption: &encrypt.DecryptionConfig{FooterKey: benchKey}}
			measure(b, set.arrowBytes, set.rows, "rows/s", func() error {
				tbl, err := readTable(file, opts)
				if err == nil {
					tbl.Release()
				}
				return err
			})
		})
	}
}

// readTable reads every row of the in-memory file with opts.
func readTable(file []byte, opts arrowio.ReadOptions) (arrow.Table, error) {
	rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), opts)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return rd.ReadTable(context.Background())
}

// TestReadEncrypted checks that the encrypted benchmark files read back
// to the same table as the plaintext one.
func TestReadEncrypted(t *testing.T) {
	set, err := encFilesAt(datasets.Small)
	if err != nil {
		t.Fatal(err)
	}
	read := func(file []byte) arrow.Table {
		tbl, err := readTable(file, arrowio.ReadOptions{Decryption: &encrypt.DecryptionConfig{FooterKey: benchKey}})
		if err != nil {
			t.Fatal(err)
		}
		return tbl
	}
	want := read(set.files["plain"])
	defer want.Release()
	for _, m := range encModes[1:] {
		got := read(set.files[m.name])
		if got.NumRows() != set.rows || got.NumCols() != want.NumCols() {
			t.Fatalf("%s: %d rows of %d columns, want %d of %d", m.name, got.NumRows(), got.NumCols(), set.rows, want.NumCols())
		}
		for i := range int(want.NumCols()) {
			if !array.ChunkedEqual(got.Column(i).Data(), want.Column(i).Data()) {
				t.Errorf("%s: column %d reads differently from the plaintext file's", m.name, i)
			}
		}
		got.Release()
	}
}
