package footer

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// checkArrowReadsOurs checks that arrow-go reads Marshal's encoding of our
// decoding of meta exactly as it reads meta itself.
func checkArrowReadsOurs(t *testing.T, meta []byte) *FileMetaData {
	t.Helper()
	var fm FileMetaData
	if _, err := Unmarshal(meta, &fm); err != nil {
		t.Fatal(err)
	}
	want, err := arrowMetadata(meta)
	if err != nil {
		t.Skipf("arrow-go cannot read the original footer: %v", err)
	}
	got, err := arrowMetadata(Marshal(nil, &fm))
	if err != nil {
		t.Fatalf("arrow-go cannot read our encoding: %v", err)
	}
	if !got.Equals(want) {
		t.Fatalf("arrow-go reads our encoding differently:\n got %v\nwant %v", got.FileMetaData, want.FileMetaData)
	}
	return &fm
}

// arrowMetadata decodes meta with arrow-go, turning its panics (it panics
// on logical types it does not know) into errors.
func arrowMetadata(meta []byte) (m *metadata.FileMetaData, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("arrow-go panicked: %v", r)
		}
	}()
	return metadata.NewFileMetaData(meta, nil)
}

// TestArrowInterop decodes the footer of a file arrow-go wrote, compares the
// values with arrow-go's reading of it, and checks that arrow-go reads our
// re-encoding identically.
func TestArrowInterop(t *testing.T) {
	_, meta := arrowFile(t, 12, 3)
	fm := checkArrowReadsOurs(t, meta)
	am, err := metadata.NewFileMetaData(meta, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fm.NumRows != am.NumRows || fm.NumRows != 3 {
		t.Errorf("num_rows %d, arrow-go %d, want 3", fm.NumRows, am.NumRows)
	}
	if fm.CreatedBy.Value != am.GetCreatedBy() || fm.CreatedBy.Value != "quiver-footer-test" {
		t.Errorf("created_by %q, arrow-go %q", fm.CreatedBy.Value, am.GetCreatedBy())
	}
	if len(fm.Schema) != am.NumSchemaElements() {
		t.Fatalf("%d schema elements, arrow-go %d", len(fm.Schema), am.NumSchemaElements())
	}
	for i, se := range fm.Schema {
		ae := am.FileMetaData.Schema[i]
		if se.Name != ae.Name || se.Type.Set != ae.IsSetType() || int32(se.Type.Value) != int32(ae.GetType()) ||
			se.NumChildren.Value != ae.GetNumChildren() || int32(se.RepetitionType.Value) != int32(ae.GetRepetitionType()) {
			t.Errorf("schema element %d: %+v, arrow-go %v", i, se, ae)
		}
	}
	if len(fm.RowGroups) != am.NumRowGroups() || len(fm.RowGroups) != 3 {
		t.Fatalf("%d row groups, arrow-go %d, want 3", len(fm.RowGroups), am.NumRowGroups())
	}
	kv := am.KeyValueMetadata()
	if len(fm.KeyValueMetadata) != kv.Len() {
		t.Errorf("%d key-value entries, arrow-go %d", len(fm.KeyValueMetadata), kv.Len())
	}
	for i, rg := range fm.RowGroups {
		arg := am.RowGroup(i)
		if rg.NumRows != arg.NumRows() || rg.TotalByteSize != arg.TotalByteSize() || len(rg.Columns) != arg.NumColumns() {
			t.Errorf("row group %d: %d rows, %d bytes, %d columns; arrow-go %d, %d, %d", i,
				rg.NumRows, rg.TotalByteSize, len(rg.Columns), arg.NumRows(), arg.TotalByteSize(), arg.NumColumns())
		}
		for j, cc := range rg.Columns {
			acc, err := arg.ColumnChunk(j)
			if err != nil {
				t.Fatal(err)
			}
			md := cc.MetaData
			if md.NumValues != acc.NumValues() || md.TotalCompressedSize != acc.TotalCompressedSize() ||
				md.DataPageOffset != acc.DataPageOffset() || int32(md.Type) != int32(acc.Type()) ||
				!reflect.DeepEqual(md.PathInSchema, []string(acc.PathInSchema())) || md.Statistics == nil {
				t.Errorf("row group %d column %d: %+v differs from arrow-go's view", i, j, md)
			}
		}
	}
}

// TestCorpusArrowInterop checks that arrow-go reads our re-encoding of every
// readable plaintext corpus footer exactly as it reads the original.
func TestCorpusArrowInterop(t *testing.T) {
	for _, f := range codecCorpusFooters(t) {
		if f.bad || f.meta == nil || f.magic != "PAR1" {
			continue
		}
		t.Run(f.name, func(t *testing.T) { checkArrowReadsOurs(t, f.meta) })
	}
}
