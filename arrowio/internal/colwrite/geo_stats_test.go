package colwrite

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/geoarrow"
)

// geoLeaf returns a leaf annotated lt.
func geoLeaf(t testing.TB, lt footer.LogicalType) *footer.Node {
	s, err := footer.NewSchema([]footer.SchemaElement{
		{Name: "root", NumChildren: footer.Some(int32(1))},
		{Name: "g", Type: footer.Some(footer.TypeByteArray), RepetitionType: footer.Some(footer.RepetitionOptional), LogicalType: lt},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s.Leaves[0]
}

// randomLines returns n WKB linestrings of 2 to 9 random vertices.
func randomLines(n int) [][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	out := make([][]byte, n)
	for i := range out {
		k := 2 + rng.IntN(8)
		b := binary.LittleEndian.AppendUint32([]byte{1}, 2)
		b = binary.LittleEndian.AppendUint32(b, uint32(k))
		lon, lat := rng.Float64()*340-170, rng.Float64()*160-80
		for range k {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(lon+rng.Float64()*10-5))
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(lat+rng.Float64()*10-5))
		}
		out[i] = b
	}
	return out
}

func TestGeoStatsDictionaryAndErrors(t *testing.T) {
	g := newGeoStats(geoLeaf(t, footer.LogicalType{Kind: footer.LogicalGeometry}))
	g.reset()
	vals := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	defer vals.Release()
	vals.Append(binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint32([]byte{1}, 1), math.Float64bits(3)), math.Float64bits(4)))
	vals.Append([]byte{9})
	dict := vals.NewArray()
	defer dict.Release()
	idx := array.NewInt32Builder(memory.DefaultAllocator)
	defer idx.Release()
	idx.AppendValues([]int32{0, 0, 1}, []bool{true, true, true})
	ind := idx.NewArray()
	defer ind.Release()
	d := array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.Binary}, ind, dict)
	defer d.Release()
	if err := g.addArray(d, 0, 2, "row"); err != nil {
		t.Fatal(err)
	}
	if st := g.statistics(); st.Bbox == nil || st.Bbox.Xmin != 3 || len(st.GeospatialTypes) != 1 || st.GeospatialTypes[0] != 1 {
		t.Errorf("statistics over a dictionary: %+v", st)
	}
	if err := g.addArray(d, 0, 3, "row"); !errors.Is(err, geoarrow.ErrInvalid) || err.Error()[:6] != "row 2:" {
		t.Errorf("invalid WKB in a dictionary: %v", err)
	}
	g.reset()
	if st := g.statistics(); st.Bbox != nil || st.GeospatialTypes == nil || len(st.GeospatialTypes) != 0 {
		t.Errorf("statistics of no value: %+v, want an empty type list and no box", st)
	}
}

// BenchmarkGeoStats times the statistics of WKB linestrings: the planar
// scan of GEOMETRY and the arc bounds of spherical GEOGRAPHY.
func BenchmarkGeoStats(b *testing.B) {
	lines := randomLines(4096)
	size := 0
	for _, l := range lines {
		size += len(l)
	}
	for _, c := range []struct {
		name string
		lt   footer.LogicalType
	}{
		{"geometry", footer.LogicalType{Kind: footer.LogicalGeometry}},
		{"geography", footer.LogicalType{Kind: footer.LogicalGeography}},
	} {
		b.Run(c.name, func(b *testing.B) {
			g := newGeoStats(geoLeaf(b, c.lt))
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				g.reset()
				for _, l := range lines {
					if err := g.add(l); err != nil {
						b.Fatal(err)
					}
				}
				_ = g.statistics()
			}
			b.ReportMetric(float64(b.N*len(lines))/b.Elapsed().Seconds(), "values/s")
		})
	}
}
