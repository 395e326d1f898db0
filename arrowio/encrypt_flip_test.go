package arrowio_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/footer"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/encrypt"
)

// readAllBytes opens img with opts and reads every column; it returns the
// table or the first error.
func readAllBytes(img []byte, opts arrowio.ReadOptions) (arrow.Table, error) {
	rd, err := arrowio.Open(bytes.NewReader(img), int64(len(img)), opts)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return rd.ReadTable(context.Background())
}

// unauthenticated returns the byte ranges of img where a change may alter
// the data read without failing authentication: the chunks of plaintext
// columns and, under AES_GCM_CTR_V1, the chunks of encrypted columns
// (their page bodies are CTR modules, which have no tag).
func unauthenticated(t *testing.T, img []byte, cfg *encrypt.DecryptionConfig) []arrowiotest.Range {
	tail, err := footer.ReadTail(bytes.NewReader(img), int64(len(img)))
	if err != nil {
		t.Fatal(err)
	}
	ft, crypt, err := encrypt.OpenFooter(tail, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out []arrowiotest.Range
	for _, rg := range ft.Meta.RowGroups {
		for _, cc := range rg.Columns {
			if cc.CryptoMetadata != nil && crypt.Algorithm() == encrypt.AesGcmV1 {
				continue
			}
			start, end := chunkSpan(cc.MetaData)
			out = append(out, arrowiotest.Range{Start: start, End: end})
		}
	}
	return out
}

// flipBytes flips one bit in every stride-th byte of img (a copy) and
// checks each result: an error, the original data, or, for bytes outside
// the authenticated modules, anything but a panic.
func flipBytes(t *testing.T, img []byte, cfg func() *encrypt.DecryptionConfig, stride int) (errs, same, open int) {
	want, err := readAllBytes(bytes.Clone(img), arrowio.ReadOptions{Decryption: cfg(), Parallelism: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()
	free := unauthenticated(t, bytes.Clone(img), cfg())
	buf := make([]byte, len(img))
	for at := 0; at < len(img); at += stride {
		copy(buf, img)
		buf[at] ^= 0x04
		got, err := readAllBytes(buf, arrowio.ReadOptions{Decryption: cfg(), Parallelism: 1})
		if err != nil {
			errs++
			continue
		}
		equal := array.TableApproxEqual(got, want, array.WithNaNsEqual(true))
		got.Release()
		if equal {
			same++
			continue
		}
		inFree := false
		for _, r := range free {
			inFree = inFree || (int64(at) >= r.Start && int64(at) < r.End)
		}
		if !inFree {
			t.Errorf("byte %d flipped: read without error and returned other data", at)
		}
		open++
	}
	return errs, same, open
}

// TestEncryptedByteFlips flips bytes across whole encrypted corpus files:
// a flip inside an authenticated module (footer, footer signature, column
// metadata, page headers, GCM pages) must fail, never return other data
// and never panic.
func TestEncryptedByteFlips(t *testing.T) {
	root, rels := encryptedCorpus(t)
	for _, rel := range rels {
		t.Run(rel, func(t *testing.T) {
			img, err := os.ReadFile(filepath.Join(root, rel))
			if err != nil {
				t.Fatal(err)
			}
			stride := 1 + len(img)/4000 // every second or third byte of most files
			if testing.Short() {
				stride *= 11
			}
			errs, same, open := flipBytes(t, img, func() *encrypt.DecryptionConfig { return corpusDecryption(rel) }, stride)
			t.Logf("%d bytes: %d flips failed, %d read the same data, %d changed unauthenticated data", len(img), errs, same, open)
		})
	}
}
