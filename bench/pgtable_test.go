package bench

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	parquetgo "github.com/parquet-go/parquet-go"
	"github.com/quiverio/quiver/bench/datasets"
	"github.com/quiverio/quiver/bench/pqfiles"
)

// TestParquetGoTableKeepsValues checks that readParquetGoTable, timed as
// parquet-go's whole-table read, ends holding every value of the file:
// the strings table's values, gathered from the buffers it kept, are the
// generated ones.
func TestParquetGoTableKeepsValues(t *testing.T) {
	t.Setenv(datasets.SizeEnv, string(datasets.Small))
	d := datasets.Strings
	var want []string
	for _, rec := range d.Generate(memory.DefaultAllocator, datasets.Small) {
		for _, col := range rec.Columns() {
			s := col.(*array.String)
			for i := range s.Len() {
				if s.IsValid(i) {
					want = append(want, s.Value(i))
				}
			}
		}
		rec.Release()
	}
	slices.Sort(want)
	set := files(t, d)
	for _, c := range pqfiles.Configs(d) {
		bufs := &pgBuffers{whole: true}
		if _, err := readParquetGoInto(set.Path(c), allColumns, all, bufs); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		bufs.retire()
		var got []string
		for _, k := range bufs.kept {
			switch k := k.(type) {
			case []byte:
				for len(k) > 0 {
					n := int(binary.LittleEndian.Uint32(k))
					got = append(got, string(k[4:4+n]))
					k = k[4+n:]
				}
			case []parquetgo.Value:
				for _, v := range k {
					if !v.IsNull() {
						got = append(got, string(v.ByteArray()))
					}
				}
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: kept %d values, want the %d generated ones", c.Name, len(got), len(want))
		}
	}
}
