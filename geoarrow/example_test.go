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

// ExampleSphericalBounds bounds a GEOGRAPHY line that crosses the
// antimeridian along a great circle: its box wraps (Xmin > Xmax) and its
// edge bulges past the vertices' latitude.
func ExampleSphericalBounds() {
	wkb := []byte{1}                               // little endian
	wkb = binary.LittleEndian.AppendUint32(wkb, 2) // LINESTRING
	wkb = binary.LittleEndian.AppendUint32(wkb, 2) // two points
	for _, c := range []float64{170, 40, -170, 40} {
		wkb = binary.LittleEndian.AppendUint64(wkb, math.Float64bits(c))
	}
	s := geoarrow.NewSphericalBounds()
	if _, err := s.Add(wkb); err != nil {
		panic(err)
	}
	b := s.Box()
	fmt.Printf("x %v..%v y %v..%.3f\n", b.Xmin, b.Xmax, b.Ymin, b.Ymax)
	fmt.Println(s.IntersectsBox(179, 40, 181, 41), s.IntersectsBox(0, 40, 10, 41), geoarrow.RangesMeet(b.Xmin, b.Xmax, 0, 10))
	// Output:
	// x 170..-170 y 40..40.432
	// true false false
}
