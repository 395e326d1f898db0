package footer

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/quiverio/quiver/internal/corpus"
)

// arrowGoFacts is what both readers must agree on for one file.
type arrowGoFacts struct {
	numRows   int64
	rowGroups int
	leaves    []string // path, max def, max rep, physical type
	chunks    []string // per row group and column: offsets, sizes, codec, encodings
}

func arrowGoRead(path string) (facts arrowGoFacts, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("arrow-go panicked: %v", r)
		}
	}()
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return facts, err
	}
	defer rdr.Close()
	md := rdr.MetaData()
	facts.numRows = md.NumRows
	facts.rowGroups = md.NumRowGroups()
	for i := 0; i < md.Schema.NumColumns(); i++ {
		c := md.Schema.Column(i)
		facts.leaves = append(facts.leaves, fmt.Sprintf("%s def=%d rep=%d %s",
			strings.Join(c.ColumnPath(), "."), c.MaxDefinitionLevel(), c.MaxRepetitionLevel(), strings.ToUpper(c.PhysicalType().String())))
	}
	for r := 0; r < md.NumRowGroups(); r++ {
		rg := md.RowGroup(r)
		for c := 0; c < rg.NumColumns(); c++ {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				return facts, err
			}
			var encs []string
			for _, e := range cc.Encodings() {
				encs = append(encs, e.String())
			}
			dict := int64(-1)
			if cc.HasDictionaryPage() {
				dict = cc.DictionaryPageOffset()
			}
			facts.chunks = append(facts.chunks, fmt.Sprintf("rg%d col%d file_offset=%d data=%d dict=%d comp=%d uncomp=%d values=%d codec=%s enc=%s",
				r, c, cc.FileOffset(), cc.DataPageOffset(), dict, cc.TotalCompressedSize(), cc.TotalUncompressedSize(),
				cc.NumValues(), strings.ToUpper(cc.Compression().String()), strings.Join(encs, ",")))
		}
	}
	return facts, nil
}

func quiverRead(path string) (facts arrowGoFacts, err error) {
	f, err := os.Open(path)
	if err != nil {
		return facts, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return facts, err
	}
	ft, err := ReadFooter(f, st.Size())
	if err != nil {
		return facts, err
	}
	facts.numRows = ft.Meta.NumRows
	facts.rowGroups = len(ft.Meta.RowGroups)
	for _, l := range ft.Schema.Leaves {
		facts.leaves = append(facts.leaves, fmt.Sprintf("%s def=%d rep=%d %s", l.DottedPath(), l.MaxDef, l.MaxRep, l.Physical))
	}
	for r, rg := range ft.Meta.RowGroups {
		for c, cc := range rg.Columns {
			md := cc.MetaData
			if md == nil {
				return facts, fmt.Errorf("row group %d column %d: no metadata", r, c)
			}
			var encs []string
			for _, e := range md.Encodings {
				encs = append(encs, e.String())
			}
			codec := md.Codec.String()
			facts.chunks = append(facts.chunks, fmt.Sprintf("rg%d col%d file_offset=%d data=%d dict=%d comp=%d uncomp=%d values=%d codec=%s enc=%s",
				r, c, cc.FileOffset, md.DataPageOffset, md.DictionaryPageOffset.Or(-1), md.TotalCompressedSize, md.TotalUncompressedSize,
				md.NumValues, codec, strings.Join(encs, ",")))
		}
	}
	return facts, nil
}

// TestFootersMatchArrowGo reads every corpus file with quiver and with
// arrow-go's low-level reader and compares rows, row groups, leaf paths,
// levels and physical types, and every column chunk's offsets, sizes, codec
// and encodings. Files arrow-go cannot open are only logged (ReadFooter's
// own checks still ran on them without panicking); files in bad_data/ may
// be rejected by quiver where arrow-go's footer parse lets them through.
func TestFootersMatchArrowGo(t *testing.T) {
	root := corpus.Dir(t)
	var compared, arrowGoFailed int
	for _, rel := range corpus.Files(t) {
		path := filepath.Join(root, rel)
		t.Run(rel, func(t *testing.T) {
			want, aerr := arrowGoRead(path)
			got, qerr := quiverRead(path)
			switch {
			case aerr != nil:
				arrowGoFailed++
				t.Logf("arrow-go cannot read it (%v); quiver: %v", aerr, qerr)
				return
			case qerr != nil:
				if strings.Contains(qerr.Error(), "encrypted footer") {
					t.Logf("encrypted footer, not compared: %v", qerr)
					return
				}
				if strings.HasPrefix(rel, "bad_data"+string(filepath.Separator)) {
					// Known-corrupt files: arrow-go's footer parse is laxer
					// than quiver's; quiver's error is the expected outcome.
					t.Logf("quiver rejects it (arrow-go parsed the footer): %v", qerr)
					return
				}
				t.Fatalf("arrow-go reads it, quiver fails: %v", qerr)
			}
			compared++
			if got.numRows != want.numRows || got.rowGroups != want.rowGroups {
				t.Errorf("rows %d in %d groups, arrow-go %d in %d", got.numRows, got.rowGroups, want.numRows, want.rowGroups)
			}
			if !slices.Equal(got.leaves, want.leaves) {
				t.Errorf("leaves differ:\nquiver   %q\narrow-go %q", got.leaves, want.leaves)
			}
			if !slices.Equal(got.chunks, want.chunks) {
				for i := range min(len(got.chunks), len(want.chunks)) {
					if got.chunks[i] != want.chunks[i] {
						t.Errorf("chunk differs:\nquiver   %s\narrow-go %s", got.chunks[i], want.chunks[i])
						break
					}
				}
				if len(got.chunks) != len(want.chunks) {
					t.Errorf("%d chunks, arrow-go %d", len(got.chunks), len(want.chunks))
				}
			}
		})
	}
	t.Logf("compared %d files with arrow-go; arrow-go could not read %d", compared, arrowGoFailed)
	if compared == 0 {
		t.Error("no corpus file was compared")
	}
}
