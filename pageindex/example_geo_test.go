package pageindex_test

import (
	"fmt"
	"log"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// Select the rows whose geometry's bounding box meets a box that wraps
// the antimeridian, and prune a row group by its geospatial statistics.
func ExampleIntersects() {
	p, err := pageindex.Parse("intersects(geom, 170, -10, -170, 10)")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.String() == pageindex.Intersects("geom", 170, -10, -170, 10).String())

	schema, err := footer.NewSchema([]footer.SchemaElement{
		{Name: "root", NumChildren: footer.Some(int32(1))},
		{Name: "geom", Type: footer.Some(footer.TypeByteArray), RepetitionType: footer.Some(footer.RepetitionOptional),
			LogicalType: footer.LogicalType{Kind: footer.LogicalGeometry}},
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	b, err := pageindex.Bind(p, schema)
	if err != nil {
		log.Fatal(err)
	}
	for _, box := range []footer.BoundingBox{{Xmin: 0, Xmax: 20, Ymin: -5, Ymax: 5}, {Xmin: 175, Xmax: 179, Ymin: 0, Ymax: 1}} {
		st := pageindex.Stats{Geo: &box}
		src := func(int) (pageindex.Pages, bool) {
			return pageindex.Pages{FirstRows: []int64{0}, Stats: []pageindex.Stats{st}}, true
		}
		fmt.Println(b.Match(src, 100) == pageindex.MatchNone)
	}
	// Output:
	// true
	// true
	// false
}
