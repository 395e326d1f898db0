package arrowio_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/internal/corpus"
)

// TestLegacyLZ4MatchesLZ4Raw reads the corpus files that use the deprecated
// LZ4 codec id (Hadoop framing, and a raw block written by old
// parquet-cpp), which arrow-go cannot read, and compares them with the
// LZ4_RAW files the corpus says hold the same data.
func TestLegacyLZ4MatchesLZ4Raw(t *testing.T) {
	root := corpus.Dir(t)
	read := func(name string) []string {
		rd, err := arrowio.OpenFile(filepath.Join(root, "data", name), arrowio.ReadOptions{VerifyCRC: true})
		if err != nil {
			t.Fatal(err)
		}
		defer rd.Close()
		tbl, err := rd.ReadTable(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		defer tbl.Release()
		var rows []string
		for c := range int(tbl.NumCols()) {
			rows = append(rows, fmt.Sprint(tbl.Schema().Field(c).Name, chunkedStrings(tbl.Column(c).Data())))
		}
		return rows
	}
	for legacy, raw := range map[string]string{
		"hadoop_lz4_compressed.parquet":        "lz4_raw_compressed.parquet",
		"non_hadoop_lz4_compressed.parquet":    "lz4_raw_compressed.parquet",
		"hadoop_lz4_compressed_larger.parquet": "lz4_raw_compressed_larger.parquet",
	} {
		got, want := read(legacy), read(raw)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s differs from %s:\n%.300v\n%.300v", legacy, raw, got, want)
		}
	}
}
