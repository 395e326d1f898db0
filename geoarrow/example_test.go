package geoarrow_test

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/geoarrow"
)

// ExampleNewWKBType makes the type of a GEOMETRY column in EPSG:4326.
func ExampleNewWKBType() {
	t, err := geoarrow.NewWKBType(arrow.BinaryTypes.Binary, geoarrow.Metadata{CRS: []byte(`"EPSG:4326"`), CRSType: "authority_code"})
	if err != nil {
		panic(err)
	}
	fmt.Println(t.ExtensionName(), t.Serialize())
	// Output: geoarrow.wkb {"crs":"EPSG:4326","crs_type":"authority_code"}
}

// ExampleScan computes the bounding box and type of a WKB point.
func ExampleScan() {
	wkb := []byte{1}                                  // little endian
	wkb = binary.LittleEndian.AppendUint32(wkb, 1001) // POINT Z
	for _, c := range []float64{30, 10, 40} {
		wkb = binary.LittleEndian.AppendUint64(wkb, math.Float64bits(c))
	}
	box := geoarrow.NewBox()
	code, err := geoarrow.Scan(wkb, &box)
	if err != nil {
		panic(err)
	}
	fmt.Println(code, box.Xmin, box.Ymin, box.Zmin, box.HasM())
	// Output: 1001 30 10 40 false
}
