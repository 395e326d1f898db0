package encrypt_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
)

// A file with a plaintext footer and an encrypted column, its footer read
// once with OpenFooter and opened again from the parsed metadata with
// OpenMetadata, which decrypts the column's metadata into a copy and
// leaves the shared FileMetaData as it was.
func ExampleOpenMetadata() {
	schema := arrow.NewSchema([]arrow.Field{{Name: "ssn", Type: arrow.BinaryTypes.String}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"123-45-6789"}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	key := []byte("0123456789012345")
	var buf bytes.Buffer
	w, err := arrowio.NewWriter(&buf, schema, arrowio.WriteOptions{Encryption: &encrypt.EncryptionConfig{
		FooterKey: key, PlaintextFooter: true,
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

	size := int64(buf.Len())
	tail, err := footer.ReadTail(bytes.NewReader(buf.Bytes()), size)
	if err != nil {
		log.Fatal(err)
	}
	cfg := &encrypt.DecryptionConfig{FooterKey: key}
	first, _, err := encrypt.OpenFooter(tail, cfg)
	if err != nil {
		log.Fatal(err)
	}
	again, _, err := encrypt.OpenMetadata(first.Meta, size, cfg)
	if err != nil {
		log.Fatal(err)
	}
	chunk := again.Meta.RowGroups[0].Columns[0]
	fmt.Println(again.Meta.NumRows, "row; column", chunk.MetaData.PathInSchema, "with", chunk.MetaData.NumValues, "value")
	// Output:
	// 1 row; column [ssn] with 1 value
}
