package arrowio_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/encrypt"
)

// TestAADPrefixMismatchSaysWhat checks that an AAD prefix supplied for a
// file encrypted without one, none supplied for a file that needs one, a
// wrong one, and one that differs from the stored prefix each fail with an
// error that says which, not as a bare authentication failure.
func TestAADPrefixMismatchSaysWhat(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 16)
	write := func(t *testing.T, alg encrypt.Algorithm, plaintextFooter bool, prefix []byte, store bool) []byte {
		t.Helper()
		schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
		b := array.NewInt64Builder(memory.DefaultAllocator)
		b.AppendValues([]int64{1, 2, 3}, nil)
		col := b.NewArray()
		defer col.Release()
		rec := array.NewRecordBatch(schema, []arrow.Array{col}, 3)
		defer rec.Release()
		var buf bytes.Buffer
		w, err := arrowio.NewWriter(&buf, schema, arrowio.WriteOptions{Encryption: &encrypt.EncryptionConfig{
			Algorithm: alg, FooterKey: key, PlaintextFooter: plaintextFooter,
			AADPrefix: prefix, DisableAADPrefixStorage: !store,
		}})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	read := func(file, prefix []byte) error {
		rd, err := arrowio.Open(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{
			Decryption: &encrypt.DecryptionConfig{FooterKey: key, AADPrefix: prefix}})
		if err != nil {
			return err
		}
		defer rd.Close()
		tbl, err := rd.ReadTable(t.Context())
		if err == nil {
			tbl.Release()
		}
		return err
	}
	for _, alg := range []encrypt.Algorithm{encrypt.AesGcmV1, encrypt.AesGcmCtrV1} {
		for _, plain := range []bool{false, true} {
			none := write(t, alg, plain, nil, false)
			if err := read(none, nil); err != nil {
				t.Fatalf("%v plaintext footer %v: no prefix: %v", alg, plain, err)
			}
			err := read(none, []byte("tester"))
			if !errors.Is(err, encrypt.ErrConfig) || !strings.Contains(err.Error(), "does not use one") {
				t.Errorf("%v plaintext footer %v: prefix for a file without one: %v", alg, plain, err)
			}
			hidden := write(t, alg, plain, []byte("tester"), false)
			if err := read(hidden, []byte("tester")); err != nil {
				t.Fatalf("%v plaintext footer %v: right supplied prefix: %v", alg, plain, err)
			}
			err = read(hidden, nil)
			if !errors.Is(err, encrypt.ErrMissingKey) || !strings.Contains(err.Error(), "AAD prefix") {
				t.Errorf("%v plaintext footer %v: no prefix for a file that needs one: %v", alg, plain, err)
			}
			err = read(hidden, []byte("wrong!"))
			if !errors.Is(err, encrypt.ErrAuthentication) || !strings.Contains(err.Error(), "wrong AAD prefix") {
				t.Errorf("%v plaintext footer %v: wrong supplied prefix: %v", alg, plain, err)
			}
			stored := write(t, alg, plain, []byte("tester"), true)
			err = read(stored, []byte("other"))
			if !errors.Is(err, encrypt.ErrAuthentication) || !strings.Contains(err.Error(), "differs from the one the file stores") {
				t.Errorf("%v plaintext footer %v: prefix differing from the stored one: %v", alg, plain, err)
			}
		}
	}
}
