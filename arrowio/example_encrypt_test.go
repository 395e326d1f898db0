package arrowio_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/encrypt"
)

// Encrypt the "ssn" column with its own key and sign a plaintext footer
// (WriteOptions.Encryption), then read the file back with and without the
// column key (ReadOptions.Decryption).
func ExampleNewWriter_encryption() {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "ssn", Type: arrow.BinaryTypes.String},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"Ada", "Alan"}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"123-45-6789", "987-65-4321"}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()

	footerKey := []byte("0123456789012345")                    // AES-128
	ssnKey := []byte("abcdefghijklmnopqrstuvwxyz012345")       // AES-256
	keys := encrypt.KeyMap{"footer": footerKey, "ssn": ssnKey} // a KeyRetriever
	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, schema, arrowio.WriteOptions{Encryption: &encrypt.EncryptionConfig{
		FooterKey:         footerKey,
		FooterKeyMetadata: []byte("footer"),
		PlaintextFooter:   true,
		ColumnKeys:        map[string]encrypt.ColumnKey{"ssn": {Key: ssnKey, KeyMetadata: []byte("ssn")}},
	}})
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	read := func(cfg *encrypt.DecryptionConfig, columns ...string) {
		r, err := arrowio.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()), arrowio.ReadOptions{Decryption: cfg, Columns: columns})
		if err != nil {
			log.Fatal(err)
		}
		defer r.Close()
		tbl, err := r.ReadTable(context.Background())
		if errors.Is(err, encrypt.ErrMissingKey) {
			fmt.Println(columns, "needs a key")
			return
		}
		if err != nil {
			log.Fatal(err)
		}
		defer tbl.Release()
		for i := range int(tbl.NumCols()) {
			fmt.Println(tbl.Schema().Field(i).Name, tbl.Column(i).Data().Chunk(0))
		}
	}
	read(&encrypt.DecryptionConfig{KeyRetriever: keys})
	read(nil, "name") // the plaintext column of a plaintext footer needs no key
	read(nil, "ssn")
	// Output:
	// name ["Ada" "Alan"]
	// ssn ["123-45-6789" "987-65-4321"]
	// name ["Ada" "Alan"]
	// [ssn] needs a key
}
