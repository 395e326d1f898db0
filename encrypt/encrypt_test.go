package encrypt

import (
	"bytes"
	"errors"
	"testing"

	"github.com/quiverio/quiver/footer"
)

// testElements are the elements of a two-leaf schema: "a" and "s.b".
var testElements = []footer.SchemaElement{
	{Name: "root", NumChildren: footer.Some(int32(2))},
	{Name: "a", Type: footer.Some(footer.TypeInt32), RepetitionType: footer.Some(footer.RepetitionRequired)},
	{Name: "s", NumChildren: footer.Some(int32(1)), RepetitionType: footer.Some(footer.RepetitionRequired)},
	{Name: "b", Type: footer.Some(footer.TypeInt32), RepetitionType: footer.Some(footer.RepetitionRequired)},
}

// testSchema is the schema tree of testElements.
func testSchema(t *testing.T) *footer.Schema {
	t.Helper()
	s, err := footer.NewSchema(testElements, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNewFileEncryptorErrors(t *testing.T) {
	s := testSchema(t)
	key := bytes.Repeat([]byte{1}, 16)
	for name, cfg := range map[string]*EncryptionConfig{
		"no footer key":     {},
		"short footer key":  {FooterKey: key[:15]},
		"unknown algorithm": {FooterKey: key, Algorithm: 2},
		"unknown column":    {FooterKey: key, ColumnKeys: map[string]ColumnKey{"s": {}}},
		"bad column key":    {FooterKey: key, ColumnKeys: map[string]ColumnKey{"s.b": {Key: key[:8]}}},
	} {
		if _, err := NewFileEncryptor(cfg, s); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: err = %v, want ErrConfig", name, err)
		}
	}
}

// TestFileEncryptorFooters writes the footer of an empty file in both
// modes and opens it again; the footer decrypts or verifies only with the
// footer key and the AAD prefix.
func TestFileEncryptorFooters(t *testing.T) {
	s := testSchema(t)
	key := bytes.Repeat([]byte{1}, 32)
	for _, plain := range []bool{false, true} {
		cfg := &EncryptionConfig{FooterKey: key, PlaintextFooter: plain, AADPrefix: []byte("p"), DisableAADPrefixStorage: true,
			ColumnKeys: map[string]ColumnKey{"a": {Key: bytes.Repeat([]byte{2}, 24), KeyMetadata: []byte("ka")}}}
		fe, err := NewFileEncryptor(cfg, s)
		if err != nil {
			t.Fatal(err)
		}
		md := &footer.ColumnMetaData{Type: footer.TypeInt32, PathInSchema: []string{"a"}, DataPageOffset: 4,
			Statistics: &footer.Statistics{NullCount: footer.Some(int64(0))}}
		rg := footer.RowGroup{Columns: []footer.ColumnChunk{{MetaData: md}, {MetaData: &footer.ColumnMetaData{Type: footer.TypeInt32, PathInSchema: []string{"s", "b"}, DataPageOffset: 4}}}}
		for j := range rg.Columns {
			if err := fe.FinishChunk(&rg.Columns[j], 0, j); err != nil {
				t.Fatal(err)
			}
		}
		fm := &footer.FileMetaData{Version: 2, Schema: testElements, RowGroups: []footer.RowGroup{rg}}
		meta := fe.AppendFooter(nil, fm)
		tail := func() *footer.Tail {
			return &footer.Tail{Magic: fe.Magic(), Meta: bytes.Clone(meta), Size: int64(len(meta)) + 12, MetaOffset: 4}
		}
		keys := KeyMap{"ka": bytes.Repeat([]byte{2}, 24)}
		ft, fd, err := OpenFooter(tail(), &DecryptionConfig{FooterKey: key, KeyRetriever: keys, AADPrefix: []byte("p")})
		if err != nil {
			t.Fatalf("plaintext footer %v: %v", plain, err)
		}
		if c := ft.Meta.RowGroups[0].Columns[0]; c.MetaData == nil || c.MetaData.Statistics == nil {
			t.Errorf("plaintext footer %v: column a's metadata %+v", plain, c.MetaData)
		}
		if c, err := fd.Chunk(0, 1); c != nil || err != nil {
			t.Errorf("plaintext column: %v, %v", c, err)
		}
		for name, cfg := range map[string]*DecryptionConfig{
			"no prefix":  {FooterKey: key, KeyRetriever: keys},
			"wrong key":  {FooterKey: bytes.Repeat([]byte{3}, 32), AADPrefix: []byte("p")},
			"bad prefix": {FooterKey: key, AADPrefix: []byte("q")},
		} {
			_, fd, err := OpenFooter(tail(), cfg)
			if plain && name == "no prefix" {
				// The plaintext footer opens; only the encrypted column
				// cannot be read.
				if err != nil {
					t.Fatalf("plaintext footer without the AAD prefix: %v", err)
				}
				if _, err = fd.Chunk(0, 0); !errors.Is(err, ErrMissingKey) {
					t.Errorf("encrypted column without the AAD prefix: err = %v, want ErrMissingKey", err)
				}
				if c, err := fd.Chunk(0, 1); c != nil || err != nil {
					t.Errorf("plaintext column without the AAD prefix: %v, %v", c, err)
				}
			}
			if !errors.Is(err, ErrAuthentication) {
				t.Errorf("plaintext footer %v, %s: err = %v, want ErrAuthentication", plain, name, err)
			}
		}
	}
}
