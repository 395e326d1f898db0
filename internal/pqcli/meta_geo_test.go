package pqcli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

// TestMetaGeospatial prints the geospatial statistics of a corpus file
// (Arrow C++ wrote them) as text and JSON, and filters its rows by
// intersects.
func TestMetaGeospatial(t *testing.T) {
	file := filepath.Join(corpus.Dir(t), "data", "geospatial", "geospatial-with-nan.parquet")
	text := string(runPQ(t, "meta", file))
	if want := "    geospatial: x 10..130, y 20..140, z 30..150, m 40..160, types 3001 3002\n"; !strings.Contains(text, want) {
		t.Errorf("pq meta does not print %q:\n%s", want, text)
	}
	var v struct {
		RowGroups []struct {
			Columns []struct {
				Geo *geospatialView `json:"geospatial_statistics"`
			} `json:"columns"`
		} `json:"row_groups"`
	}
	if err := json.Unmarshal(runPQ(t, "meta", "--json", file), &v); err != nil {
		t.Fatal(err)
	}
	g := v.RowGroups[0].Columns[2].Geo
	if g == nil || g.Bbox == nil || g.Bbox.Mmax == nil || *g.Bbox.Mmax != 160 || len(g.Types) != 2 || v.RowGroups[0].Columns[1].Geo != nil {
		t.Errorf("JSON geospatial statistics %+v", g)
	}
	rows := runPQ(t, "cat", "--columns", "wkt", "--where", "intersects(geometry, 45, 55, 55, 65)", file)
	if want := `{"wkt":"POINT ZM (50 60 70 80)"}` + "\n"; string(rows) != want {
		t.Errorf("pq cat --where intersects: %s, want %s", rows, want)
	}
}

func TestGeospatialText(t *testing.T) {
	for _, c := range []struct {
		g    footer.GeospatialStatistics
		want string
	}{
		{footer.GeospatialStatistics{Bbox: &footer.BoundingBox{Xmin: 170, Xmax: -170, Ymin: -5, Ymax: 5}, GeospatialTypes: []int32{3}},
			"x 170..-170 (wraps the antimeridian), y -5..5, types 3"},
		{footer.GeospatialStatistics{}, "no bbox, types unknown"},
	} {
		if got := newGeospatialView(&c.g).text(); got != c.want {
			t.Errorf("%s, want %s", got, c.want)
		}
	}
	var out bytes.Buffer
	if err := json.NewEncoder(&out).Encode(newGeospatialView(&footer.GeospatialStatistics{})); err != nil || out.String() != `{"geospatial_types":[]}`+"\n" {
		t.Errorf("JSON of empty statistics: %s (%v)", out.String(), err)
	}
}
