package pqcli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/internal/corpus"
)

// indexedFile writes 100 rows (x = 0..99, s = "s<x mod 7>") in pages of
// 25 rows with a bloom filter on s, and returns its path.
func indexedFile(t *testing.T) string {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range 100 {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append("s" + string(rune('0'+i%7)))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	return writeTestFile(t, "indexed.parquet", rec, arrowio.WriteOptions{DataPageRows: 25,
		Columns: map[string]arrowio.ColumnOptions{"s": {BloomFilter: &arrowio.BloomFilterOptions{}}}})
}

// writeTestFile writes rec with opts to a file name in a temporary
// directory and returns its path.
func writeTestFile(t *testing.T, name string, rec arrow.RecordBatch, opts arrowio.WriteOptions) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := arrowio.NewWriter(f, rec.Schema(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestPageIndexCommand(t *testing.T) {
	path := indexedFile(t)
	out := string(runPQ(t, "pageindex", "--column", "x", path))
	for _, want := range []string{"row group 0, column x:", "boundary order ASCENDING", "first row", "  3 ", " 75 ", " 99"} {
		if !strings.Contains(out, want) {
			t.Errorf("pq pageindex output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "column s") {
		t.Errorf("--column x printed column s:\n%s", out)
	}
	runPQ(t, "pageindex", fixture) // every column, of a file written before page indexes
	if err := run([]string{"pageindex", "--column", "nope", path}, &strings.Builder{}); !errors.Is(err, errUsage) {
		t.Errorf("unknown column: %v", err)
	}
}

func TestBloomCommand(t *testing.T) {
	path := indexedFile(t)
	if out := string(runPQ(t, "bloom", "--column", "s", "--value", "s3", path)); !strings.HasPrefix(out, "row group 0: maybe present") {
		t.Errorf("present value: %s", out)
	}
	if out := string(runPQ(t, "bloom", "--column", "s", "--value", "s9", path)); !strings.HasPrefix(out, "row group 0: absent") {
		t.Errorf("absent value: %s", out)
	}
	if out := string(runPQ(t, "bloom", "--column", "x", "--value", "3", path)); out != "row group 0: no bloom filter\n" {
		t.Errorf("column without a filter: %s", out)
	}
	for _, args := range [][]string{{"bloom", path}, {"bloom", "--column", "x", "--value", "three", path}} {
		if err := run(args, &strings.Builder{}); !errors.Is(err, errUsage) {
			t.Errorf("pq %v: %v", args, err)
		}
	}
}

func TestCatWhere(t *testing.T) {
	path := indexedFile(t)
	out := string(runPQ(t, "cat", "--where", `x >= 40 and x < 60 and s = "s3"`, path))
	if out != "{\"x\":45,\"s\":\"s3\"}\n{\"x\":52,\"s\":\"s3\"}\n{\"x\":59,\"s\":\"s3\"}\n" {
		t.Errorf("pq cat --where:\n%s", out)
	}
	if err := run([]string{"cat", "--where", "x >", path}, &strings.Builder{}); !errors.Is(err, errUsage) {
		t.Errorf("bad --where: %v", err)
	}
}

// TestEncryptedIndexCommands runs pageindex and bloom on parquet-mr's
// encrypted file with its keys: the decrypted filter holds a stored value.
func TestEncryptedIndexCommands(t *testing.T) {
	in := filepath.Join(corpus.Dir(t), "data", "encrypt_columns_and_footer_bloom_filter.parquet.encrypted")
	keys := []string{"--footer-key", "0123456789012345", "--column-key", "double_field:1234567890123450", "--column-key", "float_field:1234567890123451"}
	out := string(runPQ(t, append(append([]string{"bloom", "--column", "double_field", "--value", "0.5"}, keys...), in)...))
	if !strings.Contains(out, "row group 0: maybe present") {
		t.Errorf("bloom: %s", out)
	}
	out = string(runPQ(t, append(append([]string{"pageindex", "--column", "double_field"}, keys...), in)...))
	if !strings.Contains(out, "boundary order") || !strings.Contains(out, "0.5") {
		t.Errorf("pageindex: %s", out)
	}
	if err := run([]string{"bloom", "--column", "double_field", "--value", "0.5", in}, &bytes.Buffer{}); err == nil {
		t.Error("bloom read an encrypted file without its keys")
	}
}
