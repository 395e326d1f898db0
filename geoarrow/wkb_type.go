package geoarrow

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// ExtensionName is the registered name of WKBType.
const ExtensionName = "geoarrow.wkb"

// Metadata is the JSON the extension type serializes: the GeoArrow
// extension metadata keys this package knows. A zero Metadata serializes
// as "{}".
type Metadata struct {
	// CRS is the coordinate reference system, as GeoArrow allows: a JSON
	// string ("OGC:CRS84", "EPSG:4326", "srid:4326") or a PROJJSON object,
	// kept as raw JSON. Empty means unset (GeoArrow and Parquet default to
	// OGC:CRS84).
	CRS json.RawMessage `json:"crs,omitempty"`
	// CRSType says how to read CRS when it is a string: "projjson",
	// "wkt2:2019", "authority_code" or "srid"; empty when unknown.
	CRSType string `json:"crs_type,omitempty"`
	// Edges is "spherical" (or another interpolation: "vincenty",
	// "thomas", "andoyer", "karney") for geographies, whose edges follow the
	// ellipsoid; empty for planar geometries.
	Edges string `json:"edges,omitempty"`
}

// WKBType is the geoarrow.wkb extension type over binary, large_binary or
// binary_view storage.
type WKBType struct {
	arrow.ExtensionBase
	meta Metadata
}

// NewWKBType returns the geoarrow.wkb type over storage (binary,
// large_binary or binary_view) with metadata md.
func NewWKBType(storage arrow.DataType, md Metadata) (*WKBType, error) {
	switch storage.ID() {
	case arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW:
	default:
		return nil, fmt.Errorf("geoarrow: %s storage must be binary, large_binary or binary_view, not %s", ExtensionName, storage)
	}
	if len(md.CRS) > 0 && !json.Valid(md.CRS) {
		return nil, fmt.Errorf("geoarrow: crs %q is not JSON", md.CRS)
	}
	return &WKBType{ExtensionBase: arrow.ExtensionBase{Storage: storage}, meta: md}, nil
}

// Metadata returns the type's metadata.
func (t *WKBType) Metadata() Metadata { return t.meta }

// ExtensionName returns "geoarrow.wkb".
func (*WKBType) ExtensionName() string { return ExtensionName }

// String renders the type with its metadata.
func (t *WKBType) String() string {
	return fmt.Sprintf("extension<%s[%s]%s>", ExtensionName, t.Storage, t.Serialize())
}

// Serialize returns the metadata as GeoArrow's JSON object.
func (t *WKBType) Serialize() string {
	b, err := json.Marshal(t.meta)
	if err != nil { // cannot happen: CRS is checked JSON
		return "{}"
	}
	return string(b)
}

// Deserialize builds the type from storage and the JSON metadata data
// (empty data means no metadata). Keys it does not know are ignored, as
// GeoArrow asks.
func (*WKBType) Deserialize(storage arrow.DataType, data string) (arrow.ExtensionType, error) {
	var md Metadata
	if s := bytes.TrimSpace([]byte(data)); len(s) > 0 {
		if err := json.Unmarshal(s, &md); err != nil {
			return nil, fmt.Errorf("geoarrow: %s metadata: %w", ExtensionName, err)
		}
	}
	return NewWKBType(storage, md)
}

// ExtensionEquals reports whether other is geoarrow.wkb with the same
// storage and metadata.
func (t *WKBType) ExtensionEquals(other arrow.ExtensionType) bool {
	o, ok := other.(*WKBType)
	return ok && arrow.TypeEqual(t.Storage, o.Storage) && t.Serialize() == o.Serialize()
}

// ArrayType returns the array type of WKB columns.
func (*WKBType) ArrayType() reflect.Type { return reflect.TypeOf(WKBArray{}) }

// WKBArray is an array of WKB values.
type WKBArray struct {
	array.ExtensionArrayBase
}

// Value returns the WKB bytes of row i (nil for a null), aliasing the
// array's memory.
func (a *WKBArray) Value(i int) []byte {
	switch s := a.Storage().(type) {
	case *array.Binary:
		return s.Value(i)
	case *array.LargeBinary:
		return s.Value(i)
	case *array.BinaryView:
		return s.Value(i)
	}
	return nil
}

func init() {
	t, _ := NewWKBType(arrow.BinaryTypes.Binary, Metadata{})
	// Another package may have registered the name first; its type then
	// reads the metadata instead, which is the caller's choice to make.
	_ = arrow.RegisterExtensionType(t)
}
