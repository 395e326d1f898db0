package colread

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
)

// TestDictionaryGather gathers string dictionary values in batches of
// random sizes, through the one-pass gather (data with room from the
// start) and the sized one (no room), and checks the values and that the
// data buffer always keeps the slack the gather may overwrite.
func TestDictionaryGather(t *testing.T) {
	vals := []string{"", "a", strings.Repeat("x", 40), "short", "sixteen bytes!!!", "thirty-two bytes long string...."}
	var page []byte
	for _, v := range vals {
		page = binary.LittleEndian.AppendUint32(page, uint32(len(v)))
		page = append(page, v...)
	}
	for _, dt := range []arrow.DataType{arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString} {
		for _, hint := range []int{0, 1 << 20} {
			t.Run(fmt.Sprintf("%s/hint=%d", dt, hint), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				tg := target{kind: binaryTarget, large: dt.ID() == arrow.LARGE_STRING, typ: dt}
				d, err := newDictionary(new(dictionary), &tg, footer.EncodingPlain, len(vals), page)
				if err != nil {
					t.Fatal(err)
				}
				defer d.release()
				r := rand.New(rand.NewPCG(11, uint64(hint)))
				const n = 3000
				out := newColOut(mem, &tg, n, n, false, hint)
				var want []string
				for at := 0; at < n; {
					idx := make([]uint32, min(n-at, 1+r.IntN(300)))
					for i := range idx {
						idx[i] = uint32(r.IntN(len(vals)))
						want = append(want, vals[idx[i]])
					}
					if err := d.gather(out, at, idx); err != nil {
						t.Fatal(err)
					}
					at += len(idx)
					if out.data.Len() < out.dataLen+dataSlack {
						t.Fatalf("after %d values: %d data bytes for %d used and %d of slack", at, out.data.Len(), out.dataLen, dataSlack)
					}
				}
				arr := out.finish()
				defer arr.Release()
				for i, w := range want {
					var got string
					if a, ok := arr.(*array.String); ok {
						got = a.Value(i)
					} else {
						got = arr.(*array.LargeString).Value(i)
					}
					if got != w {
						t.Fatalf("value %d: %q, want %q", i, got, w)
					}
				}
			})
		}
	}
}
