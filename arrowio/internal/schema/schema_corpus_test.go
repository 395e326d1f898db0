package schema

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

// Reasons the mapping differs from pqarrow's on the corpus.
const (
	diffOneLevel = "an unannotated repeated field is list<name: T not null> (LogicalTypes.md: a required list of required elements; Arrow C++ names the element after the field); pqarrow makes list<item: T nullable>"
	diffRule3    = "a LIST-annotated repeated group holding one repeated field is itself the element (LogicalTypes.md rules 3 and 4), giving list<array: list<array: int32>>; pqarrow gives list<array: struct<array: list<item>>>"
	diffOptKey   = "a MAP whose key is optional reads as a map whose null keys are corrupt (lenient readers accept this Hive-era shape); pqarrow and Arrow C++ refuse the file"
	diffUnknownL = "an unrecognized LogicalType falls back to the physical type (parquet-format#599, arrow GH-41764); pqarrow panics at open"
	diffVariant2 = "VARIANT reads as arrow-go's variant type, a null optional object field group as the field missing; pqarrow's variant extension rejects this (spec-invalid) shredding at open"
	diffGeo      = "GEOMETRY and GEOGRAPHY read as geoarrow.wkb with the CRS and edges in its metadata (DESIGN.md; Arrow C++ does the same when geoarrow.wkb is registered); pqarrow reads plain binary, as no registered extension type implements its ExtensionCustomArrowReadType hook (implementing it would make the library import pqarrow)"
)

// corpusSchemaDiffs lists every top-level field of the conformance corpus
// whose Arrow field differs from the one arrow-go's pqarrow (v18.8.0)
// reads, keyed "file:field" (both path.Match patterns, the file relative
// to the corpus root; field "*" also covers a file pqarrow cannot open),
// with the reason. TestCorpusSchemasMatchPqarrow fails on a difference not
// listed here and on an entry that no longer matches any.
var corpusSchemaDiffs = map[string]string{
	"data/old_list_structure.parquet:a":                      diffRule3,
	"data/repeated_primitive_no_list.parquet:*_list":         diffOneLevel,
	"data/repeated_primitive_no_list.parquet:group_of_lists": diffOneLevel,
	"data/repeated_no_annotation.parquet:phoneNumbers":       diffOneLevel,
	"data/incorrect_map_schema.parquet:*":                    diffOptKey,
	"data/unknown-logical-type.parquet:*":                    diffUnknownL,
	"data/geospatial/*.parquet:geometry":                     diffGeo,
	"data/geospatial/*.parquet:geography":                    diffGeo,
	"shredded_variant/case-084-INVALID.parquet:*":            diffVariant2,
}

// TestCorpusSchemasMatchPqarrow maps the schema of every corpus file whose
// footer reads and compares each top-level field with pqarrow's, after
// dropping the PARQUET:field_id "-1" entries pqarrow adds to fields
// without an id (Arrow C++ adds none, nor do we).
func TestCorpusSchemasMatchPqarrow(t *testing.T) {
	root := corpus.Dir(t)
	seen := make(map[string]bool)
	for _, rel := range corpus.Files(t) {
		p := filepath.Join(root, rel)
		ours, err := corpusSchema(p)
		if err != nil {
			t.Logf("%s: footer not read (%v)", rel, err)
			continue
		}
		theirs, perr := pqarrowSchema(p)
		if perr != nil {
			key, ok := listedDiff(rel, "*")
			if !ok {
				t.Errorf("%s: pqarrow fails (%v) and the file is not listed", rel, perr)
			}
			seen[key] = true
			continue
		}
		if ours.NumFields() != theirs.NumFields() {
			t.Errorf("%s: %d fields, pqarrow %d", rel, ours.NumFields(), theirs.NumFields())
			continue
		}
		for i := range ours.NumFields() {
			of, tf := ours.Field(i), withoutUnsetIDs(theirs.Field(i))
			if of.Equal(tf) {
				continue
			}
			key, ok := listedDiff(rel, of.Name)
			if !ok {
				t.Errorf("%s: field %d differs from pqarrow and is not listed:\n ours:    %v %v\n pqarrow: %v %v", rel, i, of, of.Metadata, tf, tf.Metadata)
			}
			seen[key] = true
		}
	}
	var stale []string
	for k := range corpusSchemaDiffs {
		if !seen[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(stale)
	for _, k := range stale {
		t.Errorf("listed difference %q no longer occurs", k)
	}
}

// listedDiff returns the key of corpusSchemaDiffs that covers field of
// file rel.
func listedDiff(rel, field string) (string, bool) {
	for k := range corpusSchemaDiffs {
		i := len(k) - 1
		for i >= 0 && k[i] != ':' {
			i--
		}
		fileOK, _ := path.Match(k[:i], filepath.ToSlash(rel))
		fieldOK, _ := path.Match(k[i+1:], field)
		if fileOK && fieldOK {
			return k, true
		}
	}
	return "", false
}

// corpusSchema maps the schema of the Parquet file at p.
func corpusSchema(p string) (*arrow.Schema, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	ft, err := footer.ReadFooter(f, st.Size())
	if err != nil {
		return nil, err
	}
	return ArrowSchema(ft.Schema, ft.Meta.KeyValueMetadata, Options{}), nil
}

// pqarrowSchema returns the Arrow schema pqarrow reads for the file at p,
// turning a panic into an error.
func pqarrowSchema(p string) (s *arrow.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	rd, err := file.OpenParquetFile(p, false)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	fr, err := pqarrow.NewFileReader(rd, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	return fr.Schema()
}

// withoutUnsetIDs returns f with every PARQUET:field_id "-1" entry removed,
// at every depth.
func withoutUnsetIDs(f arrow.Field) arrow.Field {
	if i := f.Metadata.FindKey(FieldIDKey); i >= 0 && f.Metadata.Values()[i] == "-1" {
		keys := append(append([]string(nil), f.Metadata.Keys()[:i]...), f.Metadata.Keys()[i+1:]...)
		vals := append(append([]string(nil), f.Metadata.Values()[:i]...), f.Metadata.Values()[i+1:]...)
		f.Metadata = arrow.NewMetadata(keys, vals)
		if len(keys) == 0 {
			f.Metadata = arrow.Metadata{}
		}
	}
	if _, ext := f.Type.(arrow.ExtensionType); ext {
		return f
	}
	if kids := StoredChildren(f.Type); kids != nil {
		for i := range kids {
			kids[i] = withoutUnsetIDs(kids[i])
		}
		f.Type = WithChildren(f.Type, kids)
	}
	return f
}
