package bench

import (
	"encoding/binary"
	"fmt"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/quiverio/quiver/bench/datasets"
	"github.com/quiverio/quiver/bench/pqfiles"
	"github.com/quiverio/quiver/footer"
)

// footerParsers decode a serialized FileMetaData and return its row count.
var footerParsers = []struct {
	name  string
	parse func(b []byte) (int64, error)
}{
	{"quiver", func(b []byte) (int64, error) {
		var m footer.FileMetaData
		_, err := footer.Unmarshal(b, &m)
		return m.NumRows, err
	}},
	{"arrowgo", func(b []byte) (int64, error) {
		m, err := metadata.NewFileMetaData(b, nil)
		if err != nil {
			return 0, err
		}
		return m.NumRows, nil
	}},
	{"parquetgo", func(b []byte) (int64, error) {
		var m format.FileMetaData
		err := thrift.Unmarshal(new(thrift.CompactProtocol), b, &m)
		return m.NumRows, err
	}},
}

// wideFooter returns the serialized FileMetaData of the wide table's
// dictionary+snappy file: 1,000 columns x 10 row groups, with statistics
// and the stored Arrow schema.
func wideFooter(tb testing.TB) []byte {
	tb.Helper()
	b, err := os.ReadFile(files(tb, datasets.Wide).Path(pqfiles.DictSnappy))
	if err != nil {
		tb.Fatal(err)
	}
	if len(b) < 12 {
		tb.Fatalf("wide file of %d bytes", len(b))
	}
	n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	if n > len(b)-12 {
		tb.Fatalf("footer length %d in a %d-byte file", n, len(b))
	}
	return b[len(b)-8-n : len(b)-8]
}

// BenchmarkFooter parses the 1,000-column x 10-row-group footer.
func BenchmarkFooter(b *testing.B) {
	meta := wideFooter(b)
	chunks := int64(datasets.WideColumns * datasets.Wide.RowGroups)
	rows := int64(datasets.Wide.Rows(size(b)))
	for _, p := range footerParsers {
		b.Run("columns=1000/row-groups=10/impl="+p.name, func(b *testing.B) {
			measure(b, int64(len(meta)), chunks, "column-chunks/s", func() error {
				n, err := p.parse(meta)
				if err == nil && n != rows {
					err = fmt.Errorf("%s: %d rows, want %d", p.name, n, rows)
				}
				return err
			})
		})
	}
}

// TestFooterParsers checks that every parser reads the wide footer and
// finds its row count.
func TestFooterParsers(t *testing.T) {
	t.Setenv(datasets.SizeEnv, string(datasets.Small))
	meta := wideFooter(t)
	for _, p := range footerParsers {
		n, err := p.parse(meta)
		if err != nil || n != int64(datasets.Wide.Rows(datasets.Small)) {
			t.Errorf("%s: %d rows, %v; want %d", p.name, n, err, datasets.Wide.Rows(datasets.Small))
		}
	}
}
