package pqcli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

// catLines runs pq cat on path and returns its rows decoded from JSON.
func catLines(t *testing.T, path string) []any {
	t.Helper()
	var rows []any
	dec := json.NewDecoder(bytes.NewReader(runPQ(t, "cat", path)))
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, v)
	}
	return rows
}

// decodeLines decodes JSON lines text.
func decodeLines(t *testing.T, text string) []any {
	t.Helper()
	var rows []any
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		var v any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, v)
	}
	return rows
}

func TestConvertCSV(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	csvText := "id,name,price,flag,note\n1,apple,1.5,true,\n2,\"pear, green\",2,false,x\n3,,3.25,,y\n4,fig,4,true,\n-5,kiwi,-0.5,false,z\n"
	if err := os.WriteFile(in, []byte(csvText), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.parquet")
	msg := runPQ(t, "convert", "--codec", "zstd", "--row-group-rows", "2", "--page-version", "2", in, out)
	if !strings.Contains(string(msg), "wrote 5 rows") {
		t.Errorf("convert said %q", msg)
	}
	ft, err := readFooter(out, &keyFlags{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ft.Meta.RowGroups); n != 3 {
		t.Errorf("%d row groups, want 3 of at most 2 rows", n)
	}
	if c := ft.Meta.RowGroups[0].Columns[0].MetaData.Codec; c != footer.CodecZstd {
		t.Errorf("codec %s, want ZSTD", c)
	}
	rd, err := arrowio.OpenFile(out, arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	wantTypes := []arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String, arrow.PrimitiveTypes.Float64,
		arrow.FixedWidthTypes.Boolean, arrow.BinaryTypes.String}
	for i, f := range rd.Schema().Fields() {
		if !arrow.TypeEqual(f.Type, wantTypes[i]) {
			t.Errorf("column %s: type %s, want %s", f.Name, f.Type, wantTypes[i])
		}
	}
	want := decodeLines(t, `{"id":1,"name":"apple","price":1.5,"flag":true,"note":null}
{"id":2,"name":"pear, green","price":2,"flag":false,"note":"x"}
{"id":3,"name":null,"price":3.25,"flag":null,"note":"y"}
{"id":4,"name":"fig","price":4,"flag":true,"note":null}
{"id":-5,"name":"kiwi","price":-0.5,"flag":false,"note":"z"}`)
	if got := catLines(t, out); !reflect.DeepEqual(got, want) {
		t.Errorf("rows:\n got %v\nwant %v", got, want)
	}
}

func TestConvertJSONLines(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	text := `{"a":1,"b":[1,2],"s":{"x":"u","y":2},"n":null}
{"a":2.5,"b":[],"s":{"x":"v"},"n":null,"late":"here"}
{"a":null,"b":null,"s":null}
{"b":[3],"s":{"y":-1.25,"x":null}}
`
	if err := os.WriteFile(in, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.parquet")
	runPQ(t, "convert", "--dictionary=false", in, out)
	rd, err := arrowio.OpenFile(out, arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := rd.Schema().String()
	rd.Close()
	for _, w := range []string{"a: type=float64", "b: type=list<element: int64, nullable>", "s: type=struct<x: utf8 nullable, y: float64 nullable>", "n: type=null", "late: type=utf8"} {
		if !strings.Contains(got, w) {
			t.Errorf("schema lacks %q:\n%s", w, got)
		}
	}
	want := decodeLines(t, `{"a":1,"b":[1,2],"s":{"x":"u","y":2},"n":null,"late":null}
{"a":2.5,"b":[],"s":{"x":"v","y":null},"n":null,"late":"here"}
{"a":null,"b":null,"s":null,"n":null,"late":null}
{"a":null,"b":[3],"s":{"x":null,"y":-1.25},"n":null,"late":null}`)
	if rows := catLines(t, out); !reflect.DeepEqual(rows, want) {
		t.Errorf("rows:\n got %v\nwant %v", rows, want)
	}
}

func TestConvertParquet(t *testing.T) {
	out := filepath.Join(t.TempDir(), "trips.gz.parquet")
	runPQ(t, "convert", "--codec", "gzip", "--dictionary=false", "--row-group-rows", "1000", fixture, out)
	ft, err := readFooter(out, &keyFlags{})
	if err != nil {
		t.Fatal(err)
	}
	for _, rg := range ft.Meta.RowGroups {
		if rg.NumRows > 1000 {
			t.Errorf("row group of %d rows, want at most 1000", rg.NumRows)
		}
		for _, c := range rg.Columns {
			if c.MetaData.Codec != footer.CodecGzip {
				t.Errorf("column %v: codec %s, want GZIP", c.MetaData.PathInSchema, c.MetaData.Codec)
			}
		}
	}
	a, b := readTable(t, fixture), readTable(t, out)
	defer a.Release()
	defer b.Release()
	if !array.TableEqual(a, b) {
		t.Error("the converted file reads differently from the original")
	}
}

// TestConvertCDC converts with content-defined chunking of small pages:
// the file reads back equal, with more data pages than without.
func TestConvertCDC(t *testing.T) {
	dir := t.TempDir()
	plain, cdc := filepath.Join(dir, "plain.parquet"), filepath.Join(dir, "cdc.parquet")
	runPQ(t, "convert", "--fast-snappy", fixture, plain)
	runPQ(t, "convert", "--cdc", "--cdc-min-size", "1024", "--cdc-max-size", "4096", "--cdc-norm-level", "-1", fixture, cdc)
	pages := func(path string) int {
		rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer rd.Close()
		n := 0
		for _, c := range rd.Metadata().RowGroups[0].Columns {
			_, oi, err := rd.PageIndex(0, strings.Join(c.MetaData.PathInSchema, "."))
			if err != nil {
				t.Fatal(err)
			}
			n += len(oi.PageLocations)
		}
		return n
	}
	if p, c := pages(plain), pages(cdc); c <= p {
		t.Errorf("%d data pages with --cdc of 1-4 KiB, %d without", c, p)
	}
	a, b := readTable(t, fixture), readTable(t, cdc)
	defer a.Release()
	defer b.Release()
	if !array.TableEqual(a, b) {
		t.Error("the converted file reads differently from the original")
	}
	err := run([]string{"convert", "--cdc", "--cdc-min-size", "4096", "--cdc-max-size", "1024", fixture, filepath.Join(dir, "bad.parquet")}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "content-defined chunking") {
		t.Errorf("--cdc-max-size below --cdc-min-size: err = %v", err)
	}
}

// readTable reads the whole file at path.
func readTable(t *testing.T, path string) arrow.Table {
	t.Helper()
	rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	tbl, err := rd.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

func TestConvertErrors(t *testing.T) {
	dir := t.TempDir()
	mixed := filepath.Join(dir, "mixed.jsonl")
	if err := os.WriteFile(mixed, []byte("{\"a\":1}\n{\"a\":\"x\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.parquet")
	for _, c := range []struct {
		args  []string
		usage bool
		want  string
	}{
		{[]string{"convert", fixture}, true, "IN and OUT"},
		{[]string{"convert", "--codec", "lzo", fixture, out}, true, "--codec"},
		{[]string{"convert", "--page-version", "3", fixture, out}, true, "--page-version"},
		{[]string{"convert", "--encoding", "bogus", fixture, out}, true, "--encoding"},
		{[]string{"convert", "--from", "xml", mixed, out}, true, "--from"},
		{[]string{"convert", "--progress", "sometimes", fixture, out}, true, "--progress"},
		{[]string{"convert", mixed, out}, false, `field "a" holds both int and string values`},
		{[]string{"convert", filepath.Join(dir, "missing.csv"), out}, false, "no such file"},
	} {
		err := run(c.args, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), c.want) || errors.Is(err, errUsage) != c.usage {
			t.Errorf("pq %v: err = %v, want one containing %q (usage error: %v)", c.args, err, c.want, c.usage)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("pq %v left %s behind", c.args, out)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	p := &progress{w: &buf, total: 200, bytes: true, start: time.Now()}
	p.read = 50
	p.update(10)
	p.read = 200
	p.update(40) // within 100 ms of the last draw: not drawn
	p.finish()
	got := buf.String()
	if !strings.Contains(got, "[#######.......................]  25%  10 rows") ||
		!strings.Contains(got, "[##############################] 100%  40 rows") || !strings.HasSuffix(got, "\n") {
		t.Errorf("progress output %q", got)
	}
	quiet := &progress{start: time.Now()}
	quiet.update(5)
	quiet.finish() // draws nothing, and does not fail without a writer
}

// TestConvertEncrypted converts an encrypted corpus file, given its footer
// key, into a plaintext file with the same rows.
func TestConvertEncrypted(t *testing.T) {
	root := corpus.Dir(t)
	in := filepath.Join(root, "data", "uniform_encryption.parquet.encrypted")
	out := filepath.Join(t.TempDir(), "plain.parquet")
	if err := run([]string{"convert", in, out}, &bytes.Buffer{}); err == nil {
		t.Fatal("converting an encrypted file without its key succeeded")
	}
	// Its INT96 column holds dates of 4713 BC, which only milliseconds
	// and seconds hold.
	runPQ(t, "convert", "--int96", "ms", "--footer-key", string(corpus.EncryptionKeys("uniform")["kf"]), in, out)
	got := catLines(t, out)
	want := decodeLines(t, string(runPQ(t, "cat", "--int96", "ms", "--footer-key", "0123456789012345", in)))
	if len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("converted rows differ from the encrypted file's (%d vs %d rows)", len(got), len(want))
	}
}

// TestCatInt96 prints int96_from_spark.parquet, Spark INT96 timestamps two
// of which lie outside the nanosecond span: by default pq refuses with an
// error naming the column and the --int96 flag's option, never printing
// a wrapped-around date; with --int96 ms it prints the year 9999.
func TestCatInt96(t *testing.T) {
	in := filepath.Join(corpus.Dir(t), "data", "int96_from_spark.parquet")
	err := run([]string{"cat", in}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), `column "a"`) || !strings.Contains(err.Error(), "9999-12-31") {
		t.Errorf("pq cat: got %v, want an error naming column a and 9999-12-31", err)
	}
	if err := run([]string{"cat", "--int96", "minutes", in}, &bytes.Buffer{}); !errors.Is(err, errUsage) {
		t.Errorf("--int96 minutes: got %v, want a usage error", err)
	}
	out := string(runPQ(t, "cat", "--int96", "ms", in))
	if !strings.Contains(out, "9999-12-31") || strings.Contains(out, "1816-") {
		t.Errorf("pq cat --int96 ms: %s", out)
	}
}
