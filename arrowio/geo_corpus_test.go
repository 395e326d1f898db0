package arrowio_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/geoarrow"
	"github.com/quiverio/quiver/internal/corpus"
	"github.com/quiverio/quiver/pageindex"
)

// geoCorpusCRS is the GeoArrow metadata each file of the corpus's
// data/geospatial reads with: crs and crs_type as Arrow C++ maps the
// Parquet CRS, and edges for GEOGRAPHY. A crs of "column" stands for the
// column's own Parquet CRS (inline PROJJSON), "kv:KEY" for the file's
// key-value entry KEY.
var geoCorpusCRS = map[string][3]string{
	"crs-arbitrary-value.parquet": {"column", "", ""},
	"crs-default.parquet":         {`"OGC:CRS84"`, "authority_code", ""},
	"crs-geography.parquet":       {`"OGC:CRS84"`, "authority_code", "spherical"},
	"crs-projjson.parquet":        {"kv:projjson_epsg_5070", "projjson", ""},
	"crs-srid.parquet":            {`"5070"`, "srid", ""},
	"geography-lines.parquet":     {`"OGC:CRS84"`, "authority_code", "spherical"},
	"geography-points.parquet":    {`"OGC:CRS84"`, "authority_code", "spherical"},
	"geography-polygons.parquet":  {`"OGC:CRS84"`, "authority_code", "spherical"},
	"geospatial-with-nan.parquet": {`"OGC:CRS84"`, "authority_code", ""},
	"geospatial.parquet":          {`"OGC:CRS84"`, "authority_code", ""},
}

// geoFiles returns the corpus's geospatial files, or skips t.
func geoFiles(t *testing.T) []string {
	t.Helper()
	dir := filepath.Join(corpus.Dir(t), "data", "geospatial")
	files, err := filepath.Glob(filepath.Join(dir, "*.parquet"))
	if err != nil || len(files) == 0 {
		t.Skipf("no geospatial files in %s (%v)", dir, err)
	}
	if len(files) != len(geoCorpusCRS) {
		t.Errorf("%d geospatial files, %d listed", len(files), len(geoCorpusCRS))
	}
	return files
}

// geoColumn returns the index of the GEOMETRY or GEOGRAPHY field of s.
func geoColumn(t *testing.T, s *arrow.Schema) int {
	t.Helper()
	for i, f := range s.Fields() {
		if f.Name == "geometry" || f.Name == "geography" {
			return i
		}
	}
	t.Fatalf("no geometry column in %s", s)
	return -1
}

// TestGeoCorpusReadsAsGeoArrow reads every geospatial corpus file and
// checks that its GEOMETRY or GEOGRAPHY column is geoarrow.wkb with the
// CRS and edges of geoCorpusCRS, over storage holding what pqarrow reads
// (pqarrow reads these columns as plain binary: see diffGeo in the schema
// package's corpus test), shared with the extension array, not copied;
// the other columns equal pqarrow's.
func TestGeoCorpusReadsAsGeoArrow(t *testing.T) {
	for _, path := range geoFiles(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			buf, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			theirs := pqRead(t, mem, buf)
			defer theirs.Release()
			ours, err := readPath(path, arrowio.ReadOptions{}, true)
			if err != nil {
				t.Fatal(err)
			}
			defer ours.Release()
			gi := geoColumn(t, ours.Schema())
			wt, ok := ours.Schema().Field(gi).Type.(*geoarrow.WKBType)
			if !ok {
				t.Fatalf("%s reads as %s", ours.Schema().Field(gi).Name, ours.Schema().Field(gi).Type)
			}
			checkGeoMetadata(t, path, wt.Metadata())
			for i := range int(ours.NumCols()) {
				a, b := columnOf(t, memory.DefaultAllocator, ours, i), columnOf(t, mem, theirs, i)
				if i == gi {
					ext := a.(*geoarrow.WKBArray)
					if !reflect.DeepEqual(ext.Data().Buffers(), ext.Storage().Data().Buffers()) {
						t.Error("the extension array does not share its storage's buffers")
					}
					a = ext.Storage()
				}
				if !array.Equal(a, b) {
					t.Errorf("column %s differs from pqarrow's", ours.Schema().Field(i).Name)
				}
				b.Release()
			}
			checkGeoLayouts(t, path, columnOf(t, mem, theirs, gi))
		})
	}
}

// checkGeoLayouts reads path's geometry column under the large and view
// layouts of SchemaOptions.Strings: geoarrow.wkb over large_binary and
// binary_view holding the values pqarrow read (want, released here).
func checkGeoLayouts(t *testing.T, path string, want arrow.Array) {
	t.Helper()
	defer want.Release()
	for layout, storage := range map[arrowio.StringLayout]arrow.DataType{arrowio.StringsLarge: arrow.BinaryTypes.LargeBinary, arrowio.StringsView: arrow.BinaryTypes.BinaryView} {
		tbl, err := readPath(path, arrowio.ReadOptions{Mapping: arrowio.SchemaOptions{Strings: layout}}, true)
		if err != nil {
			t.Fatal(err)
		}
		gi := geoColumn(t, tbl.Schema())
		col := columnOf(t, memory.DefaultAllocator, tbl, gi)
		wt, ok := col.DataType().(*geoarrow.WKBType)
		if !ok || !arrow.TypeEqual(wt.StorageType(), storage) {
			t.Errorf("%s layout: %s", storage, col.DataType())
		} else {
			wa := col.(*geoarrow.WKBArray)
			for i := range want.Len() {
				if wa.IsNull(i) != want.IsNull(i) || !bytes.Equal(wa.Value(i), want.(*array.Binary).Value(i)) {
					t.Errorf("%s layout: row %d differs", storage, i)
					break
				}
			}
		}
		col.Release()
		tbl.Release()
	}
}

// checkGeoMetadata compares md with geoCorpusCRS's entry for path.
func checkGeoMetadata(t *testing.T, path string, md geoarrow.Metadata) {
	t.Helper()
	want := geoCorpusCRS[filepath.Base(path)]
	crs := want[0]
	switch {
	case crs == "column":
		crs = geoColumnCRS(t, path)
	case strings.HasPrefix(crs, "kv:"):
		rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer rd.Close()
		crs = ""
		for _, kv := range rd.Metadata().KeyValueMetadata {
			if kv.Key == strings.TrimPrefix(want[0], "kv:") {
				crs = kv.Value.Or("")
			}
		}
	}
	if !jsonEqual(t, md.CRS, []byte(crs)) || md.CRSType != want[1] || md.Edges != want[2] {
		t.Errorf("metadata crs %.60s crs_type %q edges %q, want crs %.60s crs_type %q edges %q", md.CRS, md.CRSType, md.Edges, crs, want[1], want[2])
	}
}

// geoColumnCRS returns the Parquet CRS of the geometry column of path.
func geoColumnCRS(t *testing.T, path string) string {
	t.Helper()
	rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	for _, l := range fileSchema(t, rd).Leaves {
		if lt := l.Logical(); lt.Kind == footer.LogicalGeometry {
			return lt.Geometry.CRS.Or("")
		}
	}
	t.Fatal("no GEOMETRY column")
	return ""
}

// jsonEqual reports whether a and b are the same JSON value.
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Errorf("%.60s: %v", a, err)
		return false
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Errorf("%.60s: %v", b, err)
		return false
	}
	return reflect.DeepEqual(x, y)
}

// geoText renders GeospatialStatistics for comparison.
func geoText(g *footer.GeospatialStatistics) string {
	if g == nil {
		return "none"
	}
	s := fmt.Sprintf("types %v", g.GeospatialTypes)
	if b := g.Bbox; b != nil {
		s += fmt.Sprintf(" x %v..%v y %v..%v", b.Xmin, b.Xmax, b.Ymin, b.Ymax)
		if b.Zmin.Set || b.Zmax.Set {
			s += fmt.Sprintf(" z %v..%v", b.Zmin.Value, b.Zmax.Value)
		}
		if b.Mmin.Set || b.Mmax.Set {
			s += fmt.Sprintf(" m %v..%v", b.Mmin.Value, b.Mmax.Value)
		}
	}
	return s
}

// wktStats returns the GeospatialStatistics a row group of the WKT
// geometries wkts (nil for null) should have, as Arrow C++ writes them:
// the types of the top-level geometries, ascending, and the box of every
// coordinate when some X and Y were seen.
func wktStats(t *testing.T, wkts []*string) *footer.GeospatialStatistics {
	t.Helper()
	box := geoarrow.NewBox()
	seen := map[int32]bool{}
	for _, w := range wkts {
		if w == nil {
			continue
		}
		code, err := wktBounds(*w, &box)
		if err != nil {
			t.Fatal(err)
		}
		seen[code] = true
	}
	st := &footer.GeospatialStatistics{GeospatialTypes: []int32{}}
	for d := int32(0); d < 4; d++ {
		for k := int32(1); k <= 7; k++ {
			if seen[d*1000+k] {
				st.GeospatialTypes = append(st.GeospatialTypes, d*1000+k)
			}
		}
	}
	if box.HasXY() {
		st.Bbox = &footer.BoundingBox{Xmin: box.Xmin, Xmax: box.Xmax, Ymin: box.Ymin, Ymax: box.Ymax}
		if box.HasZ() {
			st.Bbox.Zmin, st.Bbox.Zmax = footer.Some(box.Zmin), footer.Some(box.Zmax)
		}
		if box.HasM() {
			st.Bbox.Mmin, st.Bbox.Mmax = footer.Some(box.Mmin), footer.Some(box.Mmax)
		}
	}
	return st
}

// readGeoYAML reads geospatial.yaml: its top-level keys in order, each
// with its list of WKT geometries (nil for null).
func readGeoYAML(t *testing.T, path string) (keys []string, groups map[string][]*string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	groups = map[string][]*string{}
	sc := bufio.NewScanner(f)
	var key string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "":
		case !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "-") && strings.HasSuffix(line, ":"):
			key = strings.TrimSuffix(line, ":")
			keys = append(keys, key)
		case strings.HasPrefix(line, "- "):
			v := strings.TrimPrefix(line, "- ")
			var p *string
			if v != "null" {
				p = &v
			}
			groups[key] = append(groups[key], p)
		case strings.HasPrefix(line, "  "):
			items := groups[key]
			last := items[len(items)-1]
			*last += " " + strings.TrimSpace(line)
		default:
			t.Fatalf("geospatial.yaml: line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return keys, groups
}

// rowGroupWKT returns the wkt column of every row group of path.
func rowGroupWKT(t *testing.T, path string) [][]*string {
	t.Helper()
	rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{Columns: []string{"wkt"}})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var out [][]*string
	for g := range rd.NumRowGroups() {
		rec, err := rd.ReadRowGroup(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		col := rec.Column(0).(*array.String)
		var rows []*string
		for i := range col.Len() {
			var p *string
			if col.IsValid(i) {
				v := col.Value(i)
				p = &v
			}
			rows = append(rows, p)
		}
		rec.Release()
		out = append(out, rows)
	}
	return out
}

// TestGeoCorpusStatistics checks the GeospatialStatistics of every
// GEOMETRY file of the corpus against its WKT: geospatial.yaml for
// geospatial.parquet (each key one row group, in order), and the files'
// own wkt column otherwise. It then writes each file again with Quiver,
// row group for row group, and checks that the statistics Quiver computes
// are the ones the file holds (Arrow C++ wrote them; for the GEOGRAPHY
// files DataFusion did, see checkGeographyStats), that the values and
// the GeoArrow type come back, and that pqarrow reads the same values.
func TestGeoCorpusStatistics(t *testing.T) {
	files := geoFiles(t)
	keys, groups := readGeoYAML(t, filepath.Join(filepath.Dir(files[0]), "geospatial.yaml"))
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			orig := geoChunkStats(t, path)
			geography := geoCorpusCRS[name][2] != ""
			if !geography {
				wkts := rowGroupWKT(t, path)
				if name == "geospatial.parquet" {
					if len(keys) != len(wkts) {
						t.Fatalf("%d row groups, geospatial.yaml has %d keys", len(wkts), len(keys))
					}
					for g, k := range keys {
						if got, want := geoText(wktStats(t, groups[k])), geoText(wktStats(t, wkts[g])); got != want {
							t.Errorf("row group %d (%s): yaml gives %s, the wkt column %s", g, k, got, want)
						}
					}
				}
				for g := range wkts {
					if got, want := geoText(orig[g]), geoText(wktStats(t, wkts[g])); got != want {
						t.Errorf("row group %d: file has %s, the WKT gives %s", g, got, want)
					}
				}
			}
			written := rewriteGeo(t, path)
			ours := geoChunkStatsOf(t, bytes.NewReader(written), int64(len(written)))
			if len(ours) != len(orig) {
				t.Fatalf("%d row groups written, %d read", len(ours), len(orig))
			}
			for g := range orig {
				want := orig[g]
				if geography {
					checkGeographyStats(t, name, g, want, ours[g])
					continue
				}
				if geoText(ours[g]) != geoText(want) {
					t.Errorf("row group %d: Quiver writes %s, the file has %s", g, geoText(ours[g]), geoText(want))
				}
			}
			checkRewrittenValues(t, path, written)
		})
	}
}

// geographyBoxDiffs lists the GEOGRAPHY row groups ("file:row group")
// whose box Quiver computes narrower than the file's, with the reason;
// there the test checks that the file's box holds Quiver's.
var geographyBoxDiffs = map[string]string{
	"geography-polygons.parquet:28": "ten small counter-clockwise diamonds near the antimeridian (latitudes -44.5 to -7.2): DataFusion's box reaches the north pole and every longitude, Quiver's wraps from 148.8 to -171.7",
}

// checkGeographyStats checks the statistics Quiver writes for a GEOGRAPHY
// chunk against the file's: the same types, and a box within geoSlack of
// the file's on every side (DataFusion bounds the arcs too, with its own
// rounding) when the file has one, or inside it for geographyBoxDiffs.
func checkGeographyStats(t *testing.T, name string, g int, file, ours *footer.GeospatialStatistics) {
	t.Helper()
	if ours == nil || ours.Bbox == nil {
		t.Errorf("row group %d: Quiver writes %s, want types and a box", g, geoText(ours))
		return
	}
	if file == nil {
		return
	}
	if fmt.Sprint(ours.GeospatialTypes) != fmt.Sprint(file.GeospatialTypes) {
		t.Errorf("row group %d: types %v, the file has %v", g, ours.GeospatialTypes, file.GeospatialTypes)
	}
	if file.Bbox == nil {
		return
	}
	o, f := ours.Bbox, file.Bbox
	if _, ok := geographyBoxDiffs[fmt.Sprintf("%s:%d", name, g)]; ok {
		inside := o.Ymin >= f.Ymin && o.Ymax <= f.Ymax && (f.Xmin == -180 && f.Xmax == 180 || o.Xmin >= f.Xmin && o.Xmax <= f.Xmax)
		if !inside {
			t.Errorf("row group %d: Quiver's box %s is not inside the file's %s", g, geoText(ours), geoText(file))
		}
		return
	}
	for _, d := range [][2]float64{{o.Xmin, f.Xmin}, {o.Xmax, f.Xmax}, {o.Ymin, f.Ymin}, {o.Ymax, f.Ymax}} {
		if math.Abs(d[0]-d[1]) > geoSlack {
			t.Errorf("row group %d: Quiver's box %s, the file's %s", g, geoText(ours), geoText(file))
			return
		}
	}
}

// geoSlack is how far apart Quiver's and DataFusion's GEOGRAPHY boxes may
// lie, in degrees.
const geoSlack = 1e-6

// geoChunkStats returns the GeospatialStatistics of the geometry column
// of each row group of path.
func geoChunkStats(t *testing.T, path string) []*footer.GeospatialStatistics {
	t.Helper()
	buf, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return geoChunkStatsOf(t, bytes.NewReader(buf), int64(len(buf)))
}

func geoChunkStatsOf(t *testing.T, r *bytes.Reader, size int64) []*footer.GeospatialStatistics {
	t.Helper()
	rd, err := arrowio.Open(r, size, arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	gi := -1
	for i, l := range fileSchema(t, rd).Leaves {
		if k := l.Logical().Kind; k == footer.LogicalGeometry || k == footer.LogicalGeography {
			gi = i
		}
	}
	var out []*footer.GeospatialStatistics
	for _, rg := range rd.Metadata().RowGroups {
		out = append(out, rg.Columns[gi].MetaData.GeospatialStatistics)
	}
	return out
}

// rewriteGeo writes path again with Quiver, one row group per row group.
func rewriteGeo(t *testing.T, path string) []byte {
	t.Helper()
	rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var out bytes.Buffer
	w, err := arrowio.NewWriter(&out, rd.Schema(), arrowio.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for g := range rd.NumRowGroups() {
		rec, err := rd.ReadRowGroup(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		err = w.Write(rec)
		rec.Release()
		if err == nil {
			err = w.Flush() // one row group for each of the file's
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// checkRewrittenValues checks that Quiver reads back from written the
// schema and values it read from path, and pqarrow the values it read.
func checkRewrittenValues(t *testing.T, path string, written []byte) {
	t.Helper()
	before, err := readPath(path, arrowio.ReadOptions{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer before.Release()
	rd, err := arrowio.Open(bytes.NewReader(written), int64(len(written)), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	after, err := rd.ReadTable(context.Background())
	rd.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer after.Release()
	if !after.Schema().Equal(before.Schema()) {
		t.Errorf("schema %s, want %s", after.Schema(), before.Schema())
	}
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pqBefore, pqAfter := pqRead(t, memory.DefaultAllocator, orig), pqRead(t, memory.DefaultAllocator, written)
	defer pqBefore.Release()
	defer pqAfter.Release()
	for i := range int(before.NumCols()) {
		a, b := columnOf(t, memory.DefaultAllocator, before, i), columnOf(t, memory.DefaultAllocator, after, i)
		if !array.Equal(a, b) {
			t.Errorf("column %d differs after the round trip", i)
		}
		a.Release()
		b.Release()
		a, b = columnOf(t, memory.DefaultAllocator, pqBefore, i), columnOf(t, memory.DefaultAllocator, pqAfter, i)
		if !array.Equal(a, b) {
			t.Errorf("column %d: pqarrow reads other values from the written file", i)
		}
		a.Release()
		b.Release()
	}
}

// TestGeoCorpusIntersectsFilter reads the geospatial files of the corpus
// with intersects filters and checks the rows: for GEOMETRY against the
// WKT (a row is kept exactly when the box of its WKT coordinates meets
// the query box), for GEOGRAPHY against the spherical bounds of each row.
// The files' statistics must prune some row groups.
func TestGeoCorpusIntersectsFilter(t *testing.T) {
	boxes := [][4]float64{{44, 44, 46, 46}, {0, 0, 10, 10}, {-1.2e6, 2.2e6, -1.1e6, 2.3e6}, {35, 0, 5, 15}, {-200, -100, 200, 100},
		{170, -50, -170, -10}, {-40, -30, -20, -10}}
	pruned := 0
	for _, path := range geoFiles(t) {
		name := filepath.Base(path)
		if geoCorpusCRS[name][2] != "" {
			pruned += checkGeographyFilter(t, path, boxes)
			continue
		}
		var all []*string
		for _, rg := range rowGroupWKT(t, path) {
			all = append(all, rg...)
		}
		for _, q := range boxes {
			pred := pageindex.Intersects("geometry", q[0], q[1], q[2], q[3])
			var want []string
			for _, w := range all {
				if w == nil {
					continue
				}
				box := geoarrow.NewBox()
				if _, err := wktBounds(*w, &box); err != nil {
					t.Fatal(err)
				}
				x := box.Xmax >= q[0] && box.Xmin <= q[2]
				if q[0] > q[2] {
					x = box.Xmax >= q[0] || box.Xmin <= q[2]
				}
				if box.HasXY() && x && box.Ymax >= q[1] && box.Ymin <= q[3] {
					want = append(want, *w)
				}
			}
			tbl, err := readPath(path, arrowio.ReadOptions{Filter: pred, Columns: []string{"wkt"}}, true)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range tbl.Column(0).Data().Chunks() {
				for i := range c.Len() {
					got = append(got, c.(*array.String).Value(i))
				}
			}
			tbl.Release()
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s %s: %d rows, want %d:\n%q\n%q", name, pred, len(got), len(want), got, want)
			}
			pruned += prunedRowGroups(t, path, pred)
		}
	}
	if pruned == 0 {
		t.Error("the statistics pruned no row group")
	}
	t.Logf("%d row groups pruned by their geospatial statistics", pruned)
}

// checkGeographyFilter reads a GEOGRAPHY file with an intersects filter
// for each box and checks the rows against the spherical bounds of every
// row read without it; it returns the row groups the file's statistics
// (DataFusion's) pruned.
func checkGeographyFilter(t *testing.T, path string, boxes [][4]float64) int {
	t.Helper()
	all, err := readPath(path, arrowio.ReadOptions{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer all.Release()
	gi := geoColumn(t, all.Schema())
	key := all.Schema().Field(0).Name // id or wkt: names the row
	ids := columnOf(t, memory.DefaultAllocator, all, 0)
	defer ids.Release()
	geo := columnOf(t, memory.DefaultAllocator, all, gi).(*geoarrow.WKBArray)
	defer geo.Release()
	pruned := 0
	for _, q := range boxes {
		pred := pageindex.Intersects(all.Schema().Field(gi).Name, q[0], q[1], q[2], q[3])
		var want []string
		for i := range geo.Len() {
			if geo.IsNull(i) {
				continue
			}
			s := geoarrow.NewSphericalBounds()
			if _, err := s.Add(geo.Value(i)); err != nil {
				t.Fatal(err)
			}
			if s.IntersectsBox(q[0], q[1], q[2], q[3]) {
				want = append(want, ids.ValueStr(i))
			}
		}
		tbl, err := readPath(path, arrowio.ReadOptions{Filter: pred, Columns: []string{key}}, false)
		if err != nil {
			t.Fatal(err)
		}
		col := columnOf(t, memory.DefaultAllocator, tbl, 0)
		got := make([]string, col.Len())
		for i := range got {
			got[i] = col.ValueStr(i)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s %s: rows %v, want %v", filepath.Base(path), pred, got, want)
		}
		col.Release()
		tbl.Release()
		pruned += prunedRowGroups(t, path, pred)
	}
	return pruned
}

// prunedRowGroups counts the row groups of path the chunk statistics rule
// out for pred.
func prunedRowGroups(t *testing.T, path string, pred pageindex.Predicate) int {
	t.Helper()
	rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	s := fileSchema(t, rd)
	b, err := pageindex.Bind(pred, s)
	if err != nil {
		t.Fatal(err)
	}
	leaf := b.Leaves()[0]
	n := 0
	for _, rg := range rd.Metadata().RowGroups {
		md := rg.Columns[leaf.Column].MetaData
		src := func(int) (pageindex.Pages, bool) {
			return pageindex.Pages{FirstRows: []int64{0}, Stats: []pageindex.Stats{pageindex.ChunkStats(md, leaf, pageindex.Writer{})}}, true
		}
		if b.Match(src, rg.NumRows) == pageindex.MatchNone {
			n++
		}
	}
	return n
}
