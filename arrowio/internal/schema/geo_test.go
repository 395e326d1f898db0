package schema

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/geoarrow"
)

// geoRoundTrip maps a GEOMETRY of Parquet CRS crs (with key-value entry
// kv) to geoarrow.wkb and back, returning the metadata and the CRS
// written back.
func geoRoundTrip(t *testing.T, crs footer.Optional[string], kv []footer.KeyValue) (geoarrow.Metadata, footer.Optional[string]) {
	lt := footer.LogicalType{Kind: footer.LogicalGeometry, Geometry: footer.GeometryType{CRS: crs}}
	dt := geoLeafType(lt, arrow.BinaryTypes.Binary, kv)
	wt, ok := dt.(*geoarrow.WKBType)
	if !ok {
		t.Fatalf("crs %q maps to %v", crs.Value, dt)
	}
	back, ok := geoLeaf(wt)
	if !ok || back.Kind != footer.LogicalGeometry {
		t.Fatalf("crs %q: %s maps back to %v", crs.Value, wt, back)
	}
	return wt.Metadata(), back.Geometry.CRS
}

func TestGeoCRSForms(t *testing.T) {
	kv := []footer.KeyValue{{Key: "p", Value: footer.Some(`{"id": {"authority": "EPSG", "code": 5070}}`)}, {Key: "q", Value: footer.Some("not json")}}
	for _, c := range []struct {
		crs           footer.Optional[string]
		meta, written string
	}{
		{footer.Optional[string]{}, `{"crs":"OGC:CRS84","crs_type":"authority_code"}`, ""},
		{footer.Some("OGC:CRS84"), `{"crs":"OGC:CRS84"}`, ""},
		{footer.Some("EPSG:4326"), `{"crs":"EPSG:4326"}`, ""},
		{footer.Some("srid:5070"), `{"crs":"5070","crs_type":"srid"}`, "srid:5070"},
		{footer.Some("projjson:p"), `{"crs":{"id":{"authority":"EPSG","code":5070}},"crs_type":"projjson"}`, `{"id":{"authority":"EPSG","code":5070}}`},
		{footer.Some("projjson:q"), `{"crs":"not json","crs_type":"projjson"}`, "not json"},
		{footer.Some("projjson:missing"), `{"crs":"projjson:missing"}`, "projjson:missing"},
		{footer.Some(`{"id":{"authority":"OGC","code":"CRS84"}}`), `{"crs":{"id":{"authority":"OGC","code":"CRS84"}}}`, ""},
		{footer.Some("EPSG:5070"), `{"crs":"EPSG:5070"}`, "EPSG:5070"},
		{footer.Some(`PROJCRS["x"]`), `{"crs":"PROJCRS[\"x\"]"}`, `PROJCRS["x"]`},
	} {
		md, back := geoRoundTrip(t, c.crs, kv)
		typ, _ := geoarrow.NewWKBType(arrow.BinaryTypes.Binary, md)
		if typ.Serialize() != c.meta || back.Or("") != c.written {
			t.Errorf("crs %q: metadata %s written back %q, want %s and %q", c.crs.Value, typ.Serialize(), back.Or(""), c.meta, c.written)
		}
	}
	for _, edges := range []string{"", "planar", "spherical", "vincenty", "thomas", "andoyer", "karney"} {
		typ, _ := geoarrow.NewWKBType(arrow.BinaryTypes.Binary, geoarrow.Metadata{Edges: edges})
		lt, ok := geoLeaf(typ)
		want := "GEOGRAPHY(" + strings.ToUpper(edges) + ")"
		if edges == "" || edges == "planar" {
			want = "GEOMETRY"
		}
		if !ok || lt.String() != want {
			t.Errorf("edges %q: %s, want %s", edges, lt, want)
		}
	}
	typ, _ := geoarrow.NewWKBType(arrow.BinaryTypes.Binary, geoarrow.Metadata{Edges: "loxodrome"})
	if _, ok := geoLeaf(typ); ok {
		t.Error("edges Parquet does not name mapped to an annotation")
	}
	if _, err := FromArrow(arrow.NewSchema([]arrow.Field{{Name: "g", Type: typ}}, nil)); !errors.Is(err, errs.ErrUnsupported) {
		t.Errorf("FromArrow with edges Parquet does not name: %v, want ErrUnsupported", err)
	}
}

// FuzzGeoCRS maps arbitrary Parquet CRS strings (and a key-value entry
// that "projjson:k" points to) to geoarrow.wkb metadata: it must never
// panic and always give a valid type, and a valid UTF-8 CRS that is not
// one of the forms the mapping rewrites must be written back unchanged
// (JSON strings hold no invalid UTF-8: it becomes U+FFFD).
func FuzzGeoCRS(f *testing.F) {
	for _, s := range []string{"", "srid:4326", "projjson:k", `{"id":{"authority":"EPSG","code":4326}}`, "EPSG:5070", `{"a":`, "OGC:CRS84"} {
		f.Add(s, `{"type":"ProjectedCRS"}`)
	}
	f.Fuzz(func(t *testing.T, crs, value string) {
		md, back := geoRoundTrip(t, footer.Some(crs), []footer.KeyValue{{Key: "k", Value: footer.Some(value)}})
		if _, err := geoarrow.NewWKBType(arrow.BinaryTypes.Binary, md); err != nil {
			t.Fatalf("crs %q: metadata %+v: %v", crs, md, err)
		}
		plain := utf8.ValidString(crs) && crs != "" && crs != "OGC:CRS84" && crs != "EPSG:4326" && !strings.HasPrefix(crs, "projjson:") && !isJSONObject(crs)
		if plain && back.Or("") != crs {
			t.Errorf("crs %q written back as %q", crs, back.Or(""))
		}
	})
}
