package schema

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/geoarrow"
)

// GEOMETRY and GEOGRAPHY columns read as geoarrow.WKBType, with the CRS
// and edges in the GeoArrow extension metadata, as Arrow C++ maps them:
//
//	(no crs, the Parquet default)  -> "crs": "OGC:CRS84", "crs_type": "authority_code"
//	"srid:5070"                    -> "crs": "5070", "crs_type": "srid"
//	"projjson:KEY" (KEY in the file's key-value metadata)
//	                               -> "crs": <that value>, "crs_type": "projjson"
//	a JSON object (inline PROJJSON) -> "crs": <the object>
//	any other string               -> "crs": "<the string>"
//
// GeoArrow reads an omitted crs as unknown, so the Parquet default is
// spelled out. A "projjson:KEY" whose key is missing passes on as the
// string. (Bytes of a CRS that are not UTF-8 become U+FFFD: JSON strings
// hold nothing else.) GEOGRAPHY adds "edges": its algorithm in lower case
// ("spherical" when the file names none); a GEOGRAPHY whose algorithm
// this package does not know reads as plain binary with the annotation
// in the PARQUET:logical_type field metadata.
//
// Writing maps back: no crs, a null one, "OGC:CRS84" and "EPSG:4326" (as
// strings or as the "id" of a PROJJSON object) become the Parquet default;
// crs_type "srid" becomes "srid:<crs>"; other strings are written as they
// are and objects as compact JSON. "edges" absent or "planar" is GEOMETRY,
// one of the five algorithms GEOGRAPHY; any other edges value is an error
// wrapping ErrUnsupported (plain binary would lose the type: a stored
// geoarrow.wkb is restored only onto GEOMETRY and GEOGRAPHY columns).

// geoLeafType returns the geoarrow.wkb type over storage of leaf n, a
// GEOMETRY or GEOGRAPHY BYTE_ARRAY, with kv the file's key-value metadata;
// nil when the annotation has no GeoArrow form.
func geoLeafType(lt footer.LogicalType, storage arrow.DataType, kv []footer.KeyValue) arrow.DataType {
	var crs footer.Optional[string]
	var md geoarrow.Metadata
	switch lt.Kind {
	case footer.LogicalGeometry:
		crs = lt.Geometry.CRS
	case footer.LogicalGeography:
		crs = lt.Geography.CRS
		alg := lt.Geography.Algorithm.Or(footer.EdgeSpherical)
		if alg < footer.EdgeSpherical || alg > footer.EdgeKarney {
			return nil
		}
		md.Edges = strings.ToLower(alg.String())
	default:
		return nil
	}
	md.CRS, md.CRSType = geoArrowCRS(crs.Or(""), kv)
	t, err := geoarrow.NewWKBType(storage, md)
	if err != nil { // cannot happen: the CRS is marshalled JSON and storage binary
		return nil
	}
	return t
}

// geoArrowCRS returns the GeoArrow crs and crs_type of Parquet CRS crs.
func geoArrowCRS(crs string, kv []footer.KeyValue) (json.RawMessage, string) {
	switch {
	case crs == "":
		return jsonString("OGC:CRS84"), "authority_code"
	case strings.HasPrefix(crs, "srid:"):
		return jsonString(strings.TrimPrefix(crs, "srid:")), "srid"
	case strings.HasPrefix(crs, "projjson:"):
		if v, ok := keyValue(kv, strings.TrimPrefix(crs, "projjson:")); ok {
			if isJSONObject(v) {
				return json.RawMessage(v), "projjson"
			}
			return jsonString(v), "projjson"
		}
	}
	if isJSONObject(crs) {
		return json.RawMessage(crs), ""
	}
	return jsonString(crs), ""
}

// jsonString returns s as a JSON string.
func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s) // a string always marshals
	return b
}

// isJSONObject reports whether s is one valid JSON object, with nothing
// around it but JSON's own whitespace (space, tab, CR, LF): s is passed
// on as it is, so other Unicode spaces (a vertical tab) would leave
// metadata GeoArrow cannot parse.
func isJSONObject(s string) bool {
	t := strings.TrimLeft(s, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && json.Valid([]byte(s))
}

// geoLeaf returns the Parquet annotation of geoarrow.wkb type t, and false
// when it has none (edges Parquet does not name).
func geoLeaf(t arrow.ExtensionType) (footer.LogicalType, bool) {
	wt, ok := t.(*geoarrow.WKBType)
	if !ok { // another type registered under the name: go by its metadata
		d, err := (&geoarrow.WKBType{}).Deserialize(t.StorageType(), t.Serialize())
		if err != nil {
			return footer.LogicalType{}, false
		}
		wt = d.(*geoarrow.WKBType)
	}
	md := wt.Metadata()
	crs := parquetCRS(md)
	if md.Edges == "" || md.Edges == "planar" {
		lt := footer.LogicalType{Kind: footer.LogicalGeometry}
		lt.Geometry.CRS = crs
		return lt, true
	}
	for alg := footer.EdgeSpherical; alg <= footer.EdgeKarney; alg++ {
		if strings.EqualFold(md.Edges, alg.String()) {
			lt := footer.LogicalType{Kind: footer.LogicalGeography}
			lt.Geography.CRS = crs
			lt.Geography.Algorithm = footer.Some(alg)
			return lt, true
		}
	}
	return footer.LogicalType{}, false
}

// parquetCRS returns the Parquet CRS of GeoArrow metadata md, unset for
// the Parquet default (longitude/latitude on WGS84).
func parquetCRS(md geoarrow.Metadata) footer.Optional[string] {
	var none footer.Optional[string]
	raw := bytes.TrimSpace(md.CRS)
	if len(raw) == 0 || string(raw) == "null" {
		return none
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		switch {
		case s == "OGC:CRS84" || s == "EPSG:4326":
			return none
		case md.CRSType == "srid":
			return footer.Some("srid:" + s)
		}
		return footer.Some(s)
	}
	var obj struct {
		ID *struct {
			Authority string          `json:"authority"`
			Code      json.RawMessage `json:"code"`
		} `json:"id"`
	}
	if json.Unmarshal(raw, &obj) == nil && obj.ID != nil {
		code := strings.Trim(string(obj.ID.Code), `"`)
		if obj.ID.Authority == "OGC" && code == "CRS84" || obj.ID.Authority == "EPSG" && code == "4326" {
			return none
		}
	}
	var compact bytes.Buffer
	if json.Compact(&compact, raw) != nil {
		return footer.Some(string(raw))
	}
	return footer.Some(compact.String())
}

// restoreGeo returns the type of a GEOMETRY or GEOGRAPHY leaf the file
// maps to inferred, given the type stored in ARROW:schema: its binary
// layout where restoreLeaf would restore it, and its geoarrow.wkb
// metadata when that maps to the same Parquet annotation (so a CRS the
// writer spelled "EPSG:4326" comes back so spelled), else the file's.
func restoreGeo(inferred *geoarrow.WKBType, stored arrow.DataType) arrow.DataType {
	md := inferred.Metadata()
	if ext, ok := stored.(arrow.ExtensionType); ok && ext.ExtensionName() == geoarrow.ExtensionName {
		slt, sok := geoLeaf(ext)
		ilt, iok := geoLeaf(inferred)
		if sok && iok && slt.String() == ilt.String() {
			if d, err := (&geoarrow.WKBType{}).Deserialize(ext.StorageType(), ext.Serialize()); err == nil {
				md = d.(*geoarrow.WKBType).Metadata()
			}
		}
	}
	t, err := geoarrow.NewWKBType(restoreLeaf(inferred.StorageType(), storageOf(stored)), md)
	if err != nil { // a stored layout geoarrow.wkb cannot have (a dictionary)
		t, _ = geoarrow.NewWKBType(inferred.StorageType(), md)
	}
	return t
}
