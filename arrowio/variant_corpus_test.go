package arrowio_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/variant"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"
	"github.com/quiverio/quiver/internal/corpus"
)

// variantCase is one entry of parquet-testing's shredded_variant/cases.json
// (generated from Iceberg's TestVariantReaders): a file, and either the
// expected variant of each row (a .variant.bin file: metadata bytes then
// value bytes; a null entry is a null row) or the error a reader must give.
type variantCase struct {
	Number       int       `json:"case_number"`
	Test         string    `json:"test"`
	File         string    `json:"parquet_file"`
	VariantFile  string    `json:"variant_file"`
	VariantFiles []*string `json:"variant_files"`
	Error        string    `json:"error_message"`
	Notes        string    `json:"notes"`
}

// rows returns the expected .variant.bin file of each row ("" for a null
// row).
func (c variantCase) rows() []string {
	if c.VariantFile != "" {
		return []string{c.VariantFile}
	}
	out := make([]string, len(c.VariantFiles))
	for i, f := range c.VariantFiles {
		if f != nil {
			out[i] = *f
		}
	}
	return out
}

// invalid reports whether the case is one the file calls spec-invalid,
// where "implementations can choose to error, or read the shredded value".
func (c variantCase) invalid() bool { return strings.Contains(c.File, "INVALID") }

// variantCases loads cases.json, skipping t when the corpus is absent.
func variantCases(t *testing.T) (string, []variantCase) {
	t.Helper()
	dir := filepath.Join(corpus.Dir(t), "shredded_variant")
	raw, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		t.Skipf("parquet-testing has no shredded_variant/cases.json: %v", err)
	}
	var cases []variantCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatalf("cases.json: %v", err)
	}
	return dir, cases
}

// readVariantBin reads a .variant.bin file: Variant metadata followed by a
// Variant value (VariantEncoding.md), split where the metadata ends.
func readVariantBin(t *testing.T, path string) variant.Value {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := variant.NewMetadata(raw)
	if err != nil {
		t.Fatalf("%s: metadata: %v", path, err)
	}
	n := m.SizeBytes()
	v, err := variant.New(raw[:n], raw[n:])
	if err != nil {
		t.Fatalf("%s: value: %v", path, err)
	}
	return v
}

// readVariantColumn reads the file at path with Quiver (in batches of
// batch rows, 0 for the default) and returns column name as one variant
// array, or the error of opening or reading.
func readVariantColumn(path, name string, batch int) (*extensions.VariantArray, error) {
	rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{BatchSize: batch})
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	tbl, err := arrowiotest.ReadBatches(rd)
	if err != nil {
		return nil, err
	}
	defer tbl.Release()
	idx := tbl.Schema().FieldIndices(name)
	if len(idx) != 1 {
		return nil, fmt.Errorf("no column %q in %s", name, tbl.Schema())
	}
	col := tbl.Column(idx[0]).Data()
	arr, err := array.Concatenate(col.Chunks(), memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	va, ok := arr.(*extensions.VariantArray)
	if !ok {
		arr.Release()
		return nil, fmt.Errorf("column %q is %s, not the variant extension type", name, col.DataType())
	}
	return va, nil
}

// TestVariantCorpusCases checks every case of shredded_variant/cases.json:
// Quiver reads the file's var column as arrow-go's variant type, and the
// value arrow-go's VariantArray reconstructs for each row equals the
// expected .variant.bin under VariantEncoding.md's equivalence classes
// (arrow-go writes an int32 12345 as int16, a decimal4 as decimal16: the
// same value); a case cases.json marks as an error fails to open, read or
// reconstruct. The spec-invalid cases may do either.
func TestVariantCorpusCases(t *testing.T) {
	dir, cases := variantCases(t)
	var checked, equal, rowsEqual, errorsConfirmed, invalidRead, invalidErr int
	for _, c := range cases {
		if c.File == "" {
			continue // case 3 is an empty placeholder
		}
		checked++
		for _, batch := range []int{0, 1} {
			name := fmt.Sprintf("%03d-%s/batch%d", c.Number, c.Test, batch)
			t.Run(name, func(t *testing.T) {
				va, err := readVariantColumn(filepath.Join(dir, c.File), "var", batch)
				var values []variant.Value
				if err == nil {
					defer va.Release()
					values, err = reconstruct(va)
				}
				switch {
				case c.Error != "":
					if err == nil {
						t.Fatalf("read and reconstructed %v; cases.json expects the error %q", values, c.Error)
					}
					t.Logf("error as expected (%q): %v", c.Error, err)
					if batch == 0 {
						errorsConfirmed++
					}
					return
				case err != nil && c.invalid():
					t.Logf("spec-invalid file (%s): error: %v", c.Notes, err)
					if batch == 0 {
						invalidErr++
					}
					return
				case err != nil:
					t.Fatal(err)
				}
				want := c.rows()
				if len(values) != len(want) {
					t.Fatalf("%d rows, want %d", len(values), len(want))
				}
				for i, w := range want {
					if w == "" {
						if !va.Storage().IsNull(i) {
							t.Errorf("row %d: %v, want a null row", i, values[i])
						}
						continue
					}
					if va.Storage().IsNull(i) {
						t.Fatalf("row %d: null, want %s", i, w)
					}
					if err := sameVariant(values[i], readVariantBin(t, filepath.Join(dir, w))); err != nil {
						t.Errorf("row %d: %v", i, err)
					} else if batch == 0 && !c.invalid() {
						rowsEqual++
					}
				}
				if !t.Failed() && batch == 0 {
					if c.invalid() {
						invalidRead++
					} else {
						equal++
					}
				}
			})
		}
	}
	t.Logf("%d cases checked: %d equal to their .variant.bin (%d rows), %d error cases confirmed, spec-invalid: %d read equal, %d errors",
		checked, equal, rowsEqual, errorsConfirmed, invalidRead, invalidErr)
	if checked > 0 && equal+errorsConfirmed+invalidRead+invalidErr != checked {
		t.Errorf("%d of %d cases neither equal nor a confirmed error", checked-equal-errorsConfirmed-invalidRead-invalidErr, checked)
	}
}

// variantPqarrowFile reads the file at path with arrow-go's pqarrow.
func variantPqarrowFile(path string) (arrow.Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return pqarrow.ReadTable(context.Background(), f, parquet.NewReaderProperties(memory.DefaultAllocator),
		pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
}

// reconstruct returns the Variant value of every row of va (the Variant
// null for a null row), or the first error.
func reconstruct(va *extensions.VariantArray) ([]variant.Value, error) {
	out := make([]variant.Value, va.Len())
	for i := range va.Len() {
		if va.Storage().IsNull(i) {
			out[i] = variant.NullValue
			continue
		}
		v, err := va.Value(i)
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
		out[i] = v
	}
	return out, nil
}

// sameVariant returns nil when got and want are the same Variant value:
// the same type, or types of one equivalence class of VariantEncoding.md
// holding the same value (int8..int64 and decimal4..decimal16 as exact
// numbers; short and long strings; timestamps of either unit), with
// objects compared by key and arrays element by element.
func sameVariant(got, want variant.Value) error {
	return sameVariantAt("$", got, want)
}

func sameVariantAt(path string, got, want variant.Value) error {
	gt, wt := variantTypeName(got.Type()), variantTypeName(want.Type())
	if g, ok := exactNumeric(got); ok {
		if w, ok := exactNumeric(want); ok && g.Cmp(w) == 0 {
			return nil
		}
		return fmt.Errorf("%s: %s %s, want %s %s", path, gt, got, wt, want)
	}
	if g, gc, ok := instant(got); ok {
		if w, wc, ok := instant(want); ok && gc == wc && g.Cmp(w) == 0 {
			return nil
		}
		return fmt.Errorf("%s: %s %s, want %s %s", path, gt, got, wt, want)
	}
	if got.Type() != want.Type() {
		return fmt.Errorf("%s: type %s (%s), want %s (%s)", path, gt, got, wt, want)
	}
	switch got.Type() {
	case variant.Object:
		g, w := got.Value().(variant.ObjectValue), want.Value().(variant.ObjectValue)
		var gk, wk []string
		for k := range g.Values() {
			gk = append(gk, k)
		}
		for k := range w.Values() {
			wk = append(wk, k)
		}
		slices.Sort(gk)
		slices.Sort(wk)
		if !slices.Equal(gk, wk) {
			return fmt.Errorf("%s: keys %q, want %q", path, gk, wk)
		}
		for _, k := range gk {
			gf, err := g.ValueByKey(k)
			if err != nil {
				return fmt.Errorf("%s.%s: %w", path, k, err)
			}
			wf, err := w.ValueByKey(k)
			if err != nil {
				return fmt.Errorf("%s.%s: %w", path, k, err)
			}
			if err := sameVariantAt(path+"."+k, gf.Value, wf.Value); err != nil {
				return err
			}
		}
		return nil
	case variant.Array:
		g, w := got.Value().(variant.ArrayValue), want.Value().(variant.ArrayValue)
		if g.Len() != w.Len() {
			return fmt.Errorf("%s: %d elements, want %d", path, g.Len(), w.Len())
		}
		for i := range g.Len() {
			ge, err := g.Value(i)
			if err != nil {
				return err
			}
			we, err := w.Value(i)
			if err != nil {
				return err
			}
			if err := sameVariantAt(fmt.Sprintf("%s[%d]", path, i), ge, we); err != nil {
				return err
			}
		}
		return nil
	case variant.String:
		if got.Value().(string) != want.Value().(string) {
			return fmt.Errorf("%s: %q, want %q", path, got.Value(), want.Value())
		}
		return nil
	}
	// Every other primitive has one encoding: compare the bytes (floats by
	// their bits, so -0.0 differs from 0.0).
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		return fmt.Errorf("%s: %s %s (% x), want %s (% x)", path, gt, got, got.Bytes(), want, want.Bytes())
	}
	return nil
}

// variantTypeName names a Variant type for messages.
func variantTypeName(t variant.Type) string {
	names := []string{"object", "array", "null", "boolean", "int8", "int16", "int32", "int64", "string", "double",
		"decimal4", "decimal8", "decimal16", "date", "timestamp", "timestamp_ntz", "float", "binary", "time",
		"timestamp_nanos", "timestamp_ntz_nanos", "uuid"}
	if int(t) >= 0 && int(t) < len(names) {
		return names[t]
	}
	return fmt.Sprintf("Type(%d)", int(t))
}

// exactNumeric returns the value of an int8..int64 or decimal4..decimal16
// Variant, read from its bytes (little-endian two's complement, after the
// decimal's scale byte).
func exactNumeric(v variant.Value) (*big.Rat, bool) {
	b := v.Bytes()
	scale := 0
	switch v.Type() {
	case variant.Int8, variant.Int16, variant.Int32, variant.Int64:
		b = b[1:]
	case variant.Decimal4, variant.Decimal8, variant.Decimal16:
		scale = int(b[1])
		b = b[2:]
	default:
		return nil, false
	}
	be := make([]byte, len(b))
	for i := range b {
		be[len(b)-1-i] = b[i]
	}
	n := new(big.Int).SetBytes(be)
	if len(be) > 0 && be[0]&0x80 != 0 {
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(be))))
	}
	r := new(big.Rat).SetInt(n)
	return r.Quo(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))), true
}

// instant returns a timestamp Variant in nanoseconds and its class
// (with or without time zone).
func instant(v variant.Value) (*big.Int, string, bool) {
	var unit int64
	class := "tz"
	switch v.Type() {
	case variant.TimestampMicros:
		unit = 1000
	case variant.TimestampNanos:
		unit = 1
	case variant.TimestampMicrosNTZ:
		unit, class = 1000, "ntz"
	case variant.TimestampNanosNTZ:
		unit, class = 1, "ntz"
	default:
		return nil, "", false
	}
	n := int64(binary.LittleEndian.Uint64(v.Bytes()[1:]))
	return new(big.Int).Mul(big.NewInt(n), big.NewInt(unit)), class, true
}

// TestSameVariantEquivalence checks the comparison the corpus test relies
// on: equal across an equivalence class, unequal across classes and
// values.
func TestSameVariantEquivalence(t *testing.T) {
	enc := func(v any, opts ...variant.AppendOpt) variant.Value {
		var b variant.Builder
		if err := b.Append(v, opts...); err != nil {
			t.Fatal(err)
		}
		out, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	raw := func(b ...byte) variant.Value {
		v, err := variant.New([]byte{1, 0, 0}, b)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	int32of12345 := raw(5<<2, 0x39, 0x30, 0, 0)
	int16of12345 := raw(4<<2, 0x39, 0x30)
	dec4 := raw(8<<2, 2, 0x39, 0x30, 0, 0)                                       // 123.45
	dec16 := raw(append([]byte{10 << 2, 2, 0x39, 0x30}, make([]byte, 14)...)...) // 123.45
	negZero := raw(7<<2, 0, 0, 0, 0, 0, 0, 0, 0x80)
	zero := raw(7<<2, 0, 0, 0, 0, 0, 0, 0, 0)
	for _, eq := range [][2]variant.Value{
		{int32of12345, int16of12345}, {dec4, dec16}, {raw(3<<2, 5), raw(8<<2, 0, 5, 0, 0, 0)},
		{enc("short"), raw(16<<2, 5, 0, 0, 0, 's', 'h', 'o', 'r', 't')},
	} {
		if err := sameVariant(eq[0], eq[1]); err != nil {
			t.Errorf("want equal: %v", err)
		}
	}
	for _, ne := range [][2]variant.Value{
		{int32of12345, dec4}, {negZero, zero}, {enc("a"), enc([]byte("a"))}, {enc(int8(1)), enc(true)},
		{enc(map[string]any{"a": 1}), enc(map[string]any{"a": 2})}, {enc([]any{1, 2}), enc([]any{1})},
	} {
		if err := sameVariant(ne[0], ne[1]); err == nil {
			t.Errorf("%s and %s: want unequal", ne[0], ne[1])
		}
	}
	if err := sameVariant(enc(math.Pi), enc(math.Pi)); err != nil {
		t.Error(err)
	}
}

// pqarrowVariantDifferences lists the shredded_variant files whose var
// column Quiver and pqarrow (arrow-go as pinned in go.mod) do not both
// read, and why.
var pqarrowVariantDifferences = map[string]string{
	"case-084-INVALID.parquet": "pqarrow refuses the optional object field groups at open; Quiver reads a null group as a missing field (ArrowSchema)",
	"case-040.parquet":         "Quiver's read fails: an array element with both value and typed_value (cases.json: an error)",
	"case-042.parquet":         "Quiver's read fails: value and typed_value both set (cases.json: an error)",
	"case-043-INVALID.parquet": "Quiver's read fails: a shredded field is also in value (spec-invalid; pqarrow's reconstruction returns neither value)",
	"case-087.parquet":         "Quiver's read fails: a non-object value beside shredded fields (cases.json: an error)",
	"case-125-INVALID.parquet": "Quiver's read fails: a shredded field is also in value (spec-invalid; pqarrow's reconstruction returns neither value)",
	"case-127.parquet":         "Quiver's open fails: an INT(32,unsigned) typed_value (cases.json: an error)",
	"case-128.parquet":         "Quiver's read fails: a non-object value beside shredded fields (cases.json: an error)",
	"case-137.parquet":         "Quiver's open fails: a FIXED_LEN_BYTE_ARRAY(4) typed_value (cases.json: an error)",
}

// TestVariantCorpusMatchesPqarrow reads every shredded_variant file with
// Quiver and pqarrow: the var column's type must be the same variant type
// over the same storage, the storage must hold the same values, and the
// reconstructed values must be the same (not byte for byte: arrow-go
// lays out a reconstructed object's fields in map order). The files one of them
// cannot read are listed in pqarrowVariantDifferences, and a listed file
// both read fails the test.
func TestVariantCorpusMatchesPqarrow(t *testing.T) {
	dir, _ := variantCases(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.parquet"))
	if err != nil || len(files) == 0 {
		t.Skipf("no shredded_variant files in %s", dir)
	}
	var same, differ int
	for _, path := range files {
		base := filepath.Base(path)
		t.Run(base, func(t *testing.T) {
			want, werr := variantPqarrowFile(path)
			if werr == nil {
				defer want.Release()
			}
			got, gerr := readVariantColumn(path, "var", 0)
			if gerr == nil {
				defer got.Release()
			}
			why, listed := pqarrowVariantDifferences[base]
			if werr != nil || gerr != nil {
				if !listed {
					t.Fatalf("not listed, and quiver: %v; pqarrow: %v", gerr, werr)
				}
				t.Logf("%s (quiver: %v; pqarrow: %v)", why, gerr, werr)
				differ++
				return
			}
			if listed {
				t.Fatalf("listed (%s), but both read it", why)
			}
			w, err := array.Concatenate(want.Column(want.Schema().FieldIndices("var")[0]).Data().Chunks(), memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Release()
			wv, ok := w.(*extensions.VariantArray)
			if !ok {
				t.Fatalf("pqarrow's var is %s", w.DataType())
			}
			if !arrow.TypeEqual(got.DataType(), wv.DataType()) || !arrow.TypeEqual(got.Storage().DataType(), wv.Storage().DataType()) {
				t.Fatalf("type %s, pqarrow %s", got.Storage().DataType(), wv.Storage().DataType())
			}
			if !array.ApproxEqual(got.Storage(), wv.Storage(), array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
				t.Fatalf("storage differs\nquiver:  %v\npqarrow: %v", got.Storage(), wv.Storage())
			}
			for i := range got.Len() {
				if got.Storage().IsNull(i) {
					continue
				}
				g, gerr := got.Value(i)
				w, werr := wv.Value(i)
				if (gerr != nil) != (werr != nil) {
					t.Errorf("row %d: %v (%v), pqarrow %v (%v)", i, g, gerr, w, werr)
				} else if gerr == nil {
					if err := sameVariant(g, w); err != nil {
						t.Errorf("row %d: %v", i, err)
					}
				}
			}
			same++
		})
	}
	t.Logf("%d files read the same as pqarrow, %d listed differences", same, differ)
}

// TestVariantCorpusStorageOption reads every shredded_variant file with
// arrowio.SchemaOptions.VariantStorage: var is the storage struct, with the
// annotation in its metadata, and no check fails the read.
func TestVariantCorpusStorageOption(t *testing.T) {
	dir, _ := variantCases(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.parquet"))
	for _, path := range files {
		rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{Mapping: arrowio.SchemaOptions{VariantStorage: true}})
		if err != nil {
			t.Errorf("%s: open: %v", filepath.Base(path), err)
			continue
		}
		f := rd.Schema().Field(rd.Schema().FieldIndices("var")[0])
		if v, _ := f.Metadata.GetValue("PARQUET:logical_type"); f.Type.ID() != arrow.STRUCT || v != "VARIANT(1)" {
			t.Errorf("%s: var is %s %v, want the storage struct with PARQUET:logical_type=VARIANT(1)", filepath.Base(path), f.Type, f.Metadata)
		}
		tbl, err := rd.ReadTable(context.Background())
		if err != nil {
			t.Errorf("%s: read: %v", filepath.Base(path), err)
		} else {
			tbl.Release()
		}
		rd.Close()
	}
}

// TestVariantCorpusErrorKinds checks the error each failing case gives:
// unsupported shredded types at open (arrowio.ErrUnsupported), contradicting
// values at read (arrowio.ErrCorrupt).
func TestVariantCorpusErrorKinds(t *testing.T) {
	dir, _ := variantCases(t)
	for file, want := range map[string]error{
		"case-127.parquet": arrowio.ErrUnsupported, "case-137.parquet": arrowio.ErrUnsupported,
		"case-040.parquet": arrowio.ErrCorrupt, "case-042.parquet": arrowio.ErrCorrupt, "case-087.parquet": arrowio.ErrCorrupt, "case-128.parquet": arrowio.ErrCorrupt,
		"case-043-INVALID.parquet": arrowio.ErrCorrupt, "case-125-INVALID.parquet": arrowio.ErrCorrupt,
	} {
		path := filepath.Join(dir, file)
		if _, err := os.Stat(path); err != nil {
			t.Skipf("%s: %v", file, err)
		}
		va, err := readVariantColumn(path, "var", 0)
		if err == nil {
			va.Release()
		}
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want an error wrapping %v", file, err, want)
		}
		// The other column reads.
		rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{Columns: []string{"id"}})
		if err != nil {
			t.Errorf("%s: open with Columns [id]: %v", file, err)
			continue
		}
		if tbl, err := rd.ReadTable(context.Background()); err != nil {
			t.Errorf("%s: reading id: %v", file, err)
		} else {
			tbl.Release()
		}
		rd.Close()
	}
}
