//go:build duckdb_arrow

package duckdb

import (
	"context"
	"database/sql"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/internal/corpus"
)

// A variant is one way of reading a file with Quiver; every file DuckDB
// reads is compared in each.
type variant struct {
	name string
	// set adjusts the options for a file whose default schema is s; false
	// means the variant does not apply to the file.
	set func(o *arrowio.ReadOptions, s *arrow.Schema) bool
}

// variants: the default read, then each string layout with batches of 100
// rows, so that most files reach DuckDB as several batches of the stream.
var variants = []variant{
	{"default", func(*arrowio.ReadOptions, *arrow.Schema) bool { return true }},
	{"large", func(o *arrowio.ReadOptions, _ *arrow.Schema) bool {
		o.Mapping.Strings, o.BatchSize = arrowio.StringsLarge, 100
		return true
	}},
	{"view", func(o *arrowio.ReadOptions, _ *arrow.Schema) bool {
		o.Mapping.Strings, o.BatchSize = arrowio.StringsView, 100
		return true
	}},
	// Every top-level string and binary column as an Arrow dictionary,
	// except extension types (a geoarrow.wkb column restored from
	// ARROW:schema), whose storage is not a dictionary.
	{"dict", func(o *arrowio.ReadOptions, s *arrow.Schema) bool {
		o.BatchSize = 100
		for _, f := range s.Fields() {
			if _, ext := f.Metadata.GetValue("ARROW:extension:name"); ext {
				continue
			}
			if id := f.Type.ID(); id == arrow.STRING || id == arrow.BINARY {
				o.Dictionary = append(o.Dictionary, f.Name)
			}
		}
		return len(o.Dictionary) > 0
	}},
}

// kind says how a listed file or column departs from a plain comparison.
type kind uint8

const (
	// duckdbRefuses: DuckDB's read_parquet fails on the file, so there is
	// nothing to compare with.
	duckdbRefuses kind = iota
	// quiverRefuses: Quiver's stream fails in the variant (at open or
	// while DuckDB pulls batches) with an error holding errText.
	quiverRefuses
	// arrowScanRefuses: DuckDB's Arrow scan takes no column of this Arrow
	// type; Quiver reads the file without it and the rest is compared.
	arrowScanRefuses
	// typeDiffers: DuckDB types Quiver's Arrow column differently from its
	// own read of the Parquet column; the values are compared after
	// casting Quiver's column to DuckDB's type.
	typeDiffers
	// countOnly: the two types hold the values in unrelated forms; only
	// the non-null counts are compared.
	countOnly
	// readAs: Quiver's default mapping differs from DuckDB's on purpose;
	// the file is read with adjust applied and then compared as usual.
	readAs
	// differs: the column's counts or values differ on purpose; the test
	// checks that they do differ and compares nothing else of it.
	differs
)

func (k kind) String() string {
	return [...]string{"duckdb refuses", "quiver refuses", "arrow scan refuses", "type differs", "count only", "read as", "differs"}[k]
}

// listed is a file or column that differs on purpose, with the reason.
type listed struct {
	file    string // below the corpus root; a path.Match pattern
	column  string // top-level column; "" for the whole file
	variant string // "" for every variant
	kind    kind
	reason  string
	errText string                     // quiverRefuses: part of Quiver's error
	adjust  func(*arrowio.ReadOptions) // readAs: the options the comparison uses
	noCast  bool                       // typeDiffers: no cast between the types exists; hashes compared as they are
}

func int96Micros(o *arrowio.ReadOptions) {
	o.Mapping.Int96 = &arrow.TimestampType{Unit: arrow.Microsecond}
}

const (
	whyInt96   = "INT96 reads as timestamp[ns, UTC] by default, as in pqarrow; DuckDB reads TIMESTAMP (µs, no zone), so the comparison uses Mapping.Int96 = timestamp[us]"
	whyGeo     = "Quiver reads GEOMETRY as geoarrow.wkb with the Parquet default CRS spelled out (GeoArrow reads an omitted crs as unknown), which DuckDB types GEOMETRY('OGC:CRS84'); read_parquet gives GEOMETRY without a CRS. Same WKB bytes, so the hashes agree; no cast between the two"
	whyGeoPJ   = "Quiver resolves the CRS \"projjson:KEY\" to the PROJJSON in the file's key-value entry KEY, as Arrow C++ does, which DuckDB types GEOMETRY('<PROJJSON>'); read_parquet gives GEOMETRY without a CRS. Same WKB bytes, so the hashes agree; no cast between the two"
	whyGeog    = "Quiver reads GEOGRAPHY as geoarrow.wkb with edges, which DuckDB's Arrow scan refuses, so RegisterView hands the column over as its WKB storage (BLOB); read_parquet reads GEOMETRY, which keeps the WKB bytes (so the hashes agree) and has no cast from or to BLOB"
	whyVar     = "Quiver reads VARIANT as arrow-go's VariantType, which RegisterView hands DuckDB as its storage struct (metadata, value, typed_value); DuckDB decodes it into its VARIANT type"
	whyDuckVar = "DuckDB fails on this shredded VARIANT with an internal error (one that invalidates the database): "
	whyVarNull = "the row holds the Variant null (type NULL), which DuckDB reads as SQL NULL; Quiver's storage struct is not null, so the non-null counts differ"
	whyF16     = "DuckDB's Arrow scan has no float16 (format \"e\"): registering the stream fails"
)

// differences lists every departure from a plain comparison the corpus
// holds; each entry must be reached.
var differences = []listed{
	// DuckDB 1.5.6 cannot read these.
	{file: "bad_data/ARROW-GH-41317.parquet", kind: duckdbRefuses, reason: "DuckDB: Geoparquet column 'geometry' does not have geometry types"},
	{file: "bad_data/ARROW-GH-41321.parquet", kind: duckdbRefuses, reason: "DuckDB: Geoparquet column 'geometry' does not have geometry types"},
	{file: "bad_data/PARQUET-1481.parquet", kind: duckdbRefuses, reason: "corrupt Thrift schema (physical type -7); DuckDB: TProtocolException"},
	{file: "bad_data/ARROW-GH-47662.parquet", kind: duckdbRefuses, reason: "a page holds fewer FIXED_LEN_BYTE_ARRAY values than it declares; DuckDB: Out of buffer (Quiver: PLAIN values needs 400 bytes, the page has 364 left)"},
	{file: "bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet", kind: duckdbRefuses, reason: "the dictionary page offset points outside the chunk; DuckDB: TProtocolException (Quiver: column chunk lies outside the pages)"},
	{file: "data/byte_stream_split_extended.gzip.parquet", kind: duckdbRefuses, reason: "DuckDB: BYTE_STREAM_SPLIT encoding is only supported for FLOAT or DOUBLE data (the file has it for INT32, INT64, FLBA and FLOAT16 too)"},
	{file: "shredded_variant/case-041.parquet", kind: duckdbRefuses, reason: whyDuckVar + "The Variant column must have 'metadata' and 'value' as the first two columns (the file has no value column)"},
	{file: "shredded_variant/case-088.parquet", kind: duckdbRefuses, reason: whyDuckVar + "Calling StructStats::GetChildStats but there are no stats for this index"},
	{file: "shredded_variant/case-131.parquet", kind: duckdbRefuses, reason: whyDuckVar + "The Variant column must have 'metadata' and 'value' as the first two columns (the file has no value column)"},
	{file: "shredded_variant/case-132.parquet", kind: duckdbRefuses, reason: whyDuckVar + "Calling StructStats::GetChildStats but there are no stats for this index"},
	{file: "shredded_variant/case-138.parquet", kind: duckdbRefuses, reason: whyDuckVar + "The Variant column must have 'metadata' and 'value' as the first two columns (the file has no value column)"},
	{file: "shredded_variant/case-087.parquet", kind: duckdbRefuses, reason: "DuckDB: Partially shredded objects have to encode Object Variants in the 'value'"},
	{file: "shredded_variant/case-128.parquet", kind: duckdbRefuses, reason: "DuckDB: Partially shredded objects have to encode Object Variants in the 'value'"},
	{file: "shredded_variant/case-127.parquet", kind: duckdbRefuses, reason: "DuckDB: Variant shredding on type: 'UINTEGER' is not implemented"},
	{file: "data/map_no_value.parquet", kind: duckdbRefuses, reason: "DuckDB: MAP_KEY_VALUE requires two children"},
	{file: "data/hadoop_lz4_compressed.parquet", kind: duckdbRefuses, reason: "DuckDB reads LZ4_RAW but not the deprecated LZ4 codec"},
	{file: "data/hadoop_lz4_compressed_larger.parquet", kind: duckdbRefuses, reason: "DuckDB reads LZ4_RAW but not the deprecated LZ4 codec"},
	{file: "data/non_hadoop_lz4_compressed.parquet", kind: duckdbRefuses, reason: "DuckDB reads LZ4_RAW but not the deprecated LZ4 codec"},

	// Corrupt files DuckDB reads without complaint and Quiver refuses.
	{file: "bad_data/ARROW-GH-45185.parquet", column: "x", kind: quiverRefuses, errText: "starts with repetition level 1, not a row", reason: "the list column's chunk starts inside a row: corrupt"},
	{file: "bad_data/ARROW-RS-GH-6229-LEVELS.parquet", column: "outer", kind: quiverRefuses, errText: "RLE stream ends at byte 2", reason: "the page's level stream holds fewer levels than the page declares: corrupt"},

	// Quiver's limits.
	{file: "data/int96_from_spark.parquet", column: "a", kind: quiverRefuses, errText: "lies outside what timestamp[us] holds",
		reason: "row 5 stores Julian day 4189105064 (the year 11 million), which int64 microseconds cannot hold: Quiver refuses it (ErrOutOfRange; milliseconds read it), DuckDB returns it wrapped around (226414 BC)"},

	// Types DuckDB's Arrow scan does not take.
	{file: "data/float16_nonzeros_and_nans.parquet", column: "x", kind: arrowScanRefuses, reason: whyF16},
	{file: "data/float16_zeros_and_nans.parquet", column: "x", kind: arrowScanRefuses, reason: whyF16},
	{file: "data/floating_orders_nan_count.parquet", column: "float16_ieee754", kind: arrowScanRefuses, reason: whyF16},
	{file: "data/floating_orders_nan_count.parquet", column: "float16_typedef", kind: arrowScanRefuses, reason: whyF16},

	// Mappings that differ on purpose.
	{file: "data/alltypes_dictionary.parquet", column: "timestamp_col", kind: readAs, adjust: int96Micros, reason: whyInt96},
	{file: "data/alltypes_plain.parquet", column: "timestamp_col", kind: readAs, adjust: int96Micros, reason: whyInt96},
	{file: "data/alltypes_plain.snappy.parquet", column: "timestamp_col", kind: readAs, adjust: int96Micros, reason: whyInt96},
	{file: "data/alltypes_tiny_pages.parquet", column: "timestamp_col", kind: readAs, adjust: int96Micros, reason: whyInt96},
	{file: "data/alltypes_tiny_pages_plain.parquet", column: "timestamp_col", kind: readAs, adjust: int96Micros, reason: whyInt96},
	{file: "data/int96_from_spark.parquet", column: "a", kind: readAs, adjust: int96Micros, reason: whyInt96 + "; in nanoseconds two of its values (9999-12-31 and one far outside) do not fit, and Quiver refuses them"},
	{file: "data/nested_structs.rust.parquet", column: "ul_observation_date", kind: typeDiffers, reason: "the ConvertedType TIMESTAMP_MICROS means isAdjustedToUTC (LogicalTypes.md), so Quiver reads timestamp[us, UTC] as pqarrow does; DuckDB reads TIMESTAMP"},
	{file: "data/geospatial/crs-default.parquet", column: "geometry", kind: typeDiffers, noCast: true, reason: whyGeo},
	{file: "data/geospatial/crs-projjson.parquet", column: "geometry", kind: typeDiffers, noCast: true, reason: whyGeoPJ},
	{file: "data/geospatial/crs-geography.parquet", column: "geography", kind: typeDiffers, noCast: true, reason: whyGeog},
	{file: "data/geospatial/geography-lines.parquet", column: "geometry", kind: typeDiffers, noCast: true, reason: whyGeog},
	{file: "data/geospatial/geography-points.parquet", column: "geometry", kind: typeDiffers, noCast: true, reason: whyGeog},
	{file: "data/geospatial/geography-polygons.parquet", column: "geometry", kind: typeDiffers, noCast: true, reason: whyGeog},
	{file: "data/geospatial/geospatial.parquet", column: "geometry", kind: typeDiffers, noCast: true, reason: whyGeo},
	{file: "data/geospatial/geospatial-with-nan.parquet", column: "geometry", kind: typeDiffers, noCast: true, reason: whyGeo},
	{file: "shredded_variant/case-*.parquet", column: "var", kind: countOnly, reason: whyVar},
	{file: "shredded_variant/case-047.parquet", column: "var", kind: differs, reason: whyVarNull},
	{file: "shredded_variant/case-089.parquet", column: "var", kind: differs, reason: whyVarNull},
	{file: "shredded_variant/case-129.parquet", column: "var", kind: differs, reason: whyVarNull},
	{file: "shredded_variant/case-135.parquet", column: "var", kind: differs, reason: whyVarNull},
	{file: "shredded_variant/case-137.parquet", column: "var", kind: differs, reason: "the file is invalid (its typed_value is a FIXED_LEN_BYTE_ARRAY(4), which no Variant type shreds to; readers should refuse it); DuckDB reads SQL NULL, Quiver the storage struct as it is"},
}

// entries returns the indexes of the differences entries for file rel in
// variant v.
func entries(rel, v string) []int {
	var out []int
	for i, d := range differences {
		if ok, _ := path.Match(d.file, rel); ok && (d.variant == "" || d.variant == v) {
			out = append(out, i)
		}
	}
	return out
}

// outcome tallies the comparison for the summary.
type outcome struct {
	duckRefused, compared, equal         int
	columns, columnsEqual, columnsListed int
	visited                              []string // files compared or refused
	reached                              []bool
}

// heavy files are left out unless corpus.HeavyEnv is set: on a machine
// shared with other test runs their memory got the test binary killed.
var heavy = map[string]string{
	"data/large_string_map.brotli.parquet": "two 1 GiB map keys: a minute or more and 6.6 GB of memory",
}

func TestCorpusMatchesReadParquet(t *testing.T) {
	root := corpus.Dir(t)
	files, err := corpus.List(root)
	if err != nil {
		t.Fatal(err)
	}
	out := &outcome{reached: make([]bool, len(differences))}
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			if why, ok := heavy[rel]; ok {
				corpus.SkipHeavy(t, why)
			}
			out.visited = append(out.visited, rel)
			compareFile(t, out, root, rel)
		})
	}
	if t.Failed() {
		return
	}
	// Every entry for a file that was compared must have been reached.
	for i, ok := range out.reached {
		d := differences[i]
		if !ok && slices.ContainsFunc(out.visited, func(rel string) bool { m, _ := path.Match(d.file, rel); return m }) {
			t.Errorf("listed %s (%s, column %q, variant %q) was not reached: %s", d.file, d.kind, d.column, d.variant, d.reason)
		}
	}
	t.Logf("%d files read: DuckDB refuses %d; %d compared, %d equal in every column and variant, %d with listed differences; of %d column comparisons %d equal, %d listed",
		len(out.visited), out.duckRefused, out.compared, out.equal, out.compared-out.equal, out.columns, out.columnsEqual, out.columnsListed)
}

// compareFile compares DuckDB's read_parquet of rel with Quiver's stream
// of it in every variant.
func compareFile(t *testing.T, out *outcome, root, rel string) {
	ctx := context.Background()
	p := filepath.Join(root, rel)
	rp := "read_parquet(" + sqlString(p) + ")"
	var listedHere []int
	for i, d := range differences {
		if ok, _ := path.Match(d.file, rel); ok {
			listedHere = append(listedHere, i)
		}
	}

	// A fresh database per file: some DuckDB errors (internal ones on the
	// variant files) invalidate the database they happen in.
	conn := openConn(t, 0)
	want, err := duckDigests(ctx, conn, rp)
	if err != nil {
		for _, i := range listedHere {
			if differences[i].kind == duckdbRefuses {
				out.reached[i] = true
				out.duckRefused++
				t.Logf("DuckDB refuses, as listed (%s): %v; %s", differences[i].reason, firstLine(err), quiverAlone(p))
				return
			}
		}
		t.Fatalf("DuckDB's read_parquet fails and the file is not listed: %v", err)
	}
	for _, i := range listedHere {
		if differences[i].kind == duckdbRefuses {
			t.Fatalf("listed as refused by DuckDB (%s), but read_parquet reads it", differences[i].reason)
		}
	}
	out.compared++

	// VARIANT columns are compared as their storage struct, which is what
	// DuckDB's read_parquet and its Arrow scan both see; arrowio's own
	// tests check the variant values against the corpus's .variant.bin.
	storage := strings.HasPrefix(rel, "shredded_variant/")
	// Two corpus files carry wrong page CRCs on purpose: Quiver refuses
	// them by default and DuckDB does not check CRCs, so their values are
	// compared with SkipCRC (arrowio's TestVerifyCRC checks the refusal).
	skipCRC := strings.HasSuffix(rel, "-corrupt-checksum.parquet")
	base, err := arrowio.OpenFile(p, arrowio.ReadOptions{SkipCRC: skipCRC, Mapping: arrowio.SchemaOptions{VariantStorage: storage}})
	if err != nil {
		t.Fatalf("Quiver refuses a file DuckDB reads: %v", err)
	}
	schema := base.Schema()
	base.Close()

	clean := true
	for _, v := range variants {
		opts := arrowio.ReadOptions{SkipCRC: skipCRC, Mapping: arrowio.SchemaOptions{VariantStorage: storage}}
		if !v.set(&opts, schema) {
			continue
		}
		here := entries(rel, v.name)
		if !compareVariant(t, out, conn, p, v.name, opts, schema, want, here) {
			clean = false
		}
		if len(here) > 0 {
			clean = false
		}
	}
	if clean && !t.Failed() {
		out.equal++
	}
}

// duckDigests returns DuckDB's own columns and digests of a relation.
type relation struct {
	cols    []column
	rows    string
	digests []digest
}

func duckDigests(ctx context.Context, conn *sql.Conn, from string) (*relation, error) {
	cols, err := describe(ctx, conn, from)
	if err != nil {
		return nil, err
	}
	exprs := make([]string, len(cols))
	for i, c := range cols {
		exprs[i] = quoteIdent(c.name)
	}
	rows, ds, err := digests(ctx, conn, from, exprs)
	if err != nil {
		return nil, err
	}
	return &relation{cols, rows, ds}, nil
}

// compareVariant reads the file with Quiver in one variant, hands the
// stream to DuckDB and compares with want, applying the listed entries
// here. It reports whether every column compared equal without an entry.
func compareVariant(t *testing.T, out *outcome, conn *sql.Conn, p, vname string, opts arrowio.ReadOptions, schema *arrow.Schema, want *relation, here []int) bool {
	t.Helper()
	ctx := context.Background()
	byCol := map[string][]int{}
	var refusal []int
	for _, i := range here {
		d := differences[i]
		byCol[d.column] = append(byCol[d.column], i)
		switch d.kind {
		case quiverRefuses:
			refusal = append(refusal, i)
		case readAs:
			d.adjust(&opts)
		}
	}

	// Columns DuckDB's Arrow scan refuses are left out of the read after
	// checking that it does refuse them.
	var dropped []string
	for _, i := range here {
		if d := differences[i]; d.kind == arrowScanRefuses {
			refused, err := scanRefuses(ctx, conn, p, opts, d.column)
			switch {
			case err != nil:
				t.Errorf("%s: column %q: %v", vname, d.column, err)
			case !refused:
				t.Errorf("%s: column %q listed as refused by DuckDB's Arrow scan (%s), but it registers", vname, d.column, d.reason)
			default:
				out.reached[i] = true
			}
			dropped = append(dropped, d.column)
		}
	}
	keep := func(name string) bool { return !slices.Contains(dropped, name) }
	if len(dropped) > 0 {
		for _, f := range schema.Fields() {
			if keep(f.Name) {
				opts.Columns = append(opts.Columns, f.Name)
			}
		}
		if len(opts.Columns) == 0 {
			t.Logf("%s: DuckDB's Arrow scan takes none of the columns, as listed: nothing more to compare", vname)
			return false
		}
	}
	// readAs entries are reached when the default read of their column
	// does differ; checked once, on the default variant.
	if vname == "default" {
		for _, i := range here {
			if differences[i].kind == readAs {
				if defaultDiffers(ctx, conn, p, differences[i].column, want) {
					out.reached[i] = true
				} else {
					t.Errorf("column %q listed as read differently (%s), but the default read compares equal", differences[i].column, differences[i].reason)
				}
			}
		}
	}

	got, err := quiverDigests(ctx, conn, p, opts, want, byCol)
	if err != nil {
		for _, i := range refusal {
			if strings.Contains(err.Error(), differences[i].errText) {
				out.reached[i] = true
				t.Logf("%s: Quiver refuses, as listed for column %q (%s): %v", vname, differences[i].column, differences[i].reason, firstLine(err))
				return false
			}
		}
		t.Errorf("%s: %v", vname, err)
		return false
	}
	for _, i := range refusal {
		t.Errorf("%s: listed as refused by Quiver (column %q: %s), but the stream reads", vname, differences[i].column, differences[i].reason)
	}

	if vname == "default" && len(dropped) == 0 {
		compareSubset(t, conn, p, opts, want, byCol)
	}

	wantCols := make([]int, 0, len(want.cols))
	for i, c := range want.cols {
		if keep(c.name) {
			wantCols = append(wantCols, i)
		}
	}
	if got.rows != want.rows {
		t.Errorf("%s: %s rows over Quiver's stream, %s from read_parquet", vname, got.rows, want.rows)
	}
	if len(got.cols) != len(wantCols) {
		t.Fatalf("%s: %d columns over Quiver's stream, %d from read_parquet: %v vs %v", vname, len(got.cols), len(wantCols), got.cols, want.cols)
	}
	equal := true
	for j, wi := range wantCols {
		g, w := got.cols[j], want.cols[wi]
		gd, wd := got.digests[j], want.digests[wi]
		out.columns++
		e, listedCol := columnEntry(byCol[w.name])
		typesDiffer := g.typ != w.typ
		if g.name != w.name {
			t.Errorf("%s: column %d is %q over Quiver's stream, %q from read_parquet", vname, j, g.name, w.name)
			continue
		}
		if !listedCol {
			switch {
			case typesDiffer:
				t.Errorf("%s: column %q is %s over Quiver's stream, %s from read_parquet", vname, w.name, g.typ, w.typ)
			case gd != wd:
				t.Errorf("%s: column %q (%s): count and hash sum %v over Quiver's stream, %v from read_parquet", vname, w.name, w.typ, gd, wd)
			default:
				out.columnsEqual++
			}
			continue
		}
		equal = false
		out.columnsListed++
		d := differences[e]
		switch d.kind {
		case differs:
			if !typesDiffer && gd == wd {
				t.Errorf("%s: column %q listed as differing (%s), but it compares equal", vname, w.name, d.reason)
				continue
			}
		case typeDiffers, countOnly:
			if !typesDiffer {
				t.Errorf("%s: column %q listed (%s: %s), but both read it as %s", vname, w.name, d.kind, d.reason, w.typ)
				continue
			}
			if d.kind == countOnly {
				gd.hashSum, wd.hashSum = "", ""
			}
			if gd != wd {
				t.Errorf("%s: column %q (%s over Quiver's stream, %s from read_parquet; listed: %s): count and hash sum %v, want %v", vname, w.name, g.typ, w.typ, d.kind, gd, wd)
				continue
			}
		}
		out.reached[e] = true
	}
	return equal
}

// columnEntry returns the entry that decides how a column with entries
// idx compares: a differs entry before a typeDiffers or countOnly one (a
// file named alone before a pattern's files).
func columnEntry(idx []int) (int, bool) {
	for _, want := range []kind{differs, typeDiffers, countOnly} {
		for _, i := range idx {
			if differences[i].kind == want {
				return i, true
			}
		}
	}
	return 0, false
}

// compareSubset queries every other column of the file, last first, over
// a fresh stream and compares those that compare plainly with DuckDB's own
// read: a query naming some columns in another order must see the same
// values as one naming all in order.
func compareSubset(t *testing.T, conn *sql.Conn, p string, opts arrowio.ReadOptions, want *relation, byCol map[string][]int) {
	t.Helper()
	ctx := context.Background()
	var idx []int
	for i := len(want.cols) - 1; i >= 0; i -= 2 {
		if _, listed := columnEntry(byCol[want.cols[i].name]); !listed {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return
	}
	release, err := registerFile(ctx, conn, "subset", p, opts)
	if err != nil {
		t.Errorf("subset: %v", err)
		return
	}
	defer release()
	exprs := make([]string, len(idx))
	for j, i := range idx {
		exprs[j] = quoteIdent(want.cols[i].name)
	}
	rows, ds, err := digests(ctx, conn, "subset", exprs)
	if err != nil {
		t.Errorf("subset: %v", err)
		return
	}
	if rows != want.rows {
		t.Errorf("subset: %s rows over Quiver's stream, %s from read_parquet", rows, want.rows)
	}
	for j, i := range idx {
		if ds[j] != want.digests[i] {
			t.Errorf("subset: column %q: count and hash sum %v over Quiver's stream, %v from read_parquet", want.cols[i].name, ds[j], want.digests[i])
		}
	}
}

// quiverDigests registers Quiver's stream of p as a view and returns its
// columns and digests; a column listed as typeDiffers is cast to the type
// DuckDB's read_parquet gives it before hashing.
func quiverDigests(ctx context.Context, conn *sql.Conn, p string, opts arrowio.ReadOptions, want *relation, byCol map[string][]int) (*relation, error) {
	release, err := registerFile(ctx, conn, "quiver", p, opts)
	if err != nil {
		return nil, err
	}
	defer release()
	cols, err := describe(ctx, conn, "quiver")
	if err != nil {
		return nil, err
	}
	wantType := map[string]string{}
	for _, c := range want.cols {
		wantType[c.name] = c.typ
	}
	exprs := make([]string, len(cols))
	for i, c := range cols {
		exprs[i] = quoteIdent(c.name)
		if e, ok := columnEntry(byCol[c.name]); ok && differences[e].kind == typeDiffers && !differences[e].noCast && wantType[c.name] != "" {
			exprs[i] = fmt.Sprintf("CAST(%s AS %s)", exprs[i], wantType[c.name])
		}
	}
	rows, ds, err := digests(ctx, conn, "quiver", exprs)
	if err != nil {
		return nil, err
	}
	return &relation{cols, rows, ds}, nil
}

// scanRefuses reports whether DuckDB's Arrow scan refuses Quiver's
// stream of column col of p alone.
func scanRefuses(ctx context.Context, conn *sql.Conn, p string, opts arrowio.ReadOptions, col string) (bool, error) {
	opts.Columns = []string{col}
	r, err := arrowio.OpenFile(p, opts)
	if err != nil {
		return false, err
	}
	r.Close()
	release, err := registerFile(ctx, conn, "probe", p, opts)
	if err != nil {
		return true, nil
	}
	return false, release()
}

// defaultDiffers reports whether column col of Quiver's default read of p
// differs from DuckDB's read (in type, digest, or by failing outright).
func defaultDiffers(ctx context.Context, conn *sql.Conn, p, col string, want *relation) bool {
	release, err := registerFile(ctx, conn, "probe", p, arrowio.ReadOptions{Columns: []string{col}})
	if err != nil {
		return true
	}
	defer release()
	cols, err := describe(ctx, conn, "probe")
	if err != nil || len(cols) != 1 {
		return true
	}
	_, ds, err := digests(ctx, conn, "probe", []string{quoteIdent(col)})
	if err != nil {
		return true
	}
	for i, c := range want.cols {
		if c.name == col {
			return c.typ != cols[0].typ || want.digests[i] != ds[0]
		}
	}
	return true
}

// quiverAlone says whether Quiver reads p, for the log of a file DuckDB
// refuses.
func quiverAlone(p string) string {
	r, err := arrowio.OpenFile(p, arrowio.ReadOptions{})
	if err != nil {
		return "Quiver refuses it too: " + firstLine(err)
	}
	defer r.Close()
	tbl, err := r.ReadTable(context.Background())
	if err != nil {
		return "Quiver refuses it too: " + firstLine(err)
	}
	defer tbl.Release()
	return fmt.Sprintf("Quiver reads %d rows", tbl.NumRows())
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
