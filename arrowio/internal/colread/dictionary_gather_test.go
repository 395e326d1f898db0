package colread

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/quiverio/quiver/internal/arrowmem"
	"github.com/quiverio/quiver/kernels"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/footer"
)

// TestDictionaryGather gathers string dictionary values in batches of
// random sizes, through the one-pass gather (data with room from the
// start) and the sized one (no room), and runs of consecutive indices
// (copyRun), and checks the values and that the data buffer always keeps
// the slack the gather may overwrite.
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
				d, err := newDictionary(new(dictionary), &tg, footer.EncodingPlain, len(vals), page, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer d.release()
				r := rand.New(rand.NewPCG(11, uint64(hint)))
				const n = 3000
				out := newColOut(mem, &tg, n, n, false, hint)
				var want []string
				for at := 0; at < n; {
					idx := testDictIndices(r, min(n-at, 1+r.IntN(300)), len(vals))
					for _, ix := range idx {
						want = append(want, vals[ix])
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

// testDictIndices returns up to n indices into a dictionary of dictLen
// values: random ones, or, one time in three, a run counting up by one
// from a random start.
func testDictIndices(r *rand.Rand, n, dictLen int) []uint32 {
	if r.IntN(3) == 0 {
		from := r.IntN(dictLen)
		idx := make([]uint32, min(n, dictLen-from))
		for i := range idx {
			idx[i] = uint32(from + i)
		}
		return idx
	}
	idx := make([]uint32, n)
	for i := range idx {
		idx[i] = uint32(r.IntN(dictLen))
	}
	return idx
}

// TestDictionaryGatherFixed gathers int64 dictionary values, random
// indices and runs, from a dictionary that keeps the pooled buffer its
// page was decompressed into, and checks the values; an index past the
// dictionary, in a run or not, is an error.
func TestDictionaryGatherFixed(t *testing.T) {
	const dictLen, n = 500, 5000
	buf := arrowmem.GetBytes(8*dictLen + 100)
	page := buf[:8*dictLen]
	for i := range dictLen {
		binary.LittleEndian.PutUint64(page[8*i:], uint64(i)*3+1)
	}
	tg := target{kind: fixedTarget, typ: arrow.PrimitiveTypes.Int64, width: 8, physWidth: 8}
	pooled := buf
	d, err := newDictionary(new(dictionary), &tg, footer.EncodingPlain, dictLen, page, &pooled)
	if err != nil {
		t.Fatal(err)
	}
	defer d.release()
	if pooled != nil || &d.values[0] != &buf[0] || len(d.values) != 8*dictLen {
		t.Fatalf("the dictionary did not take the page's buffer")
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	out := newColOut(mem, &tg, n, n, false, 0)
	r := rand.New(rand.NewPCG(12, 13))
	var want []int64
	for at := 0; at < n; {
		idx := testDictIndices(r, min(n-at, 1+r.IntN(300)), dictLen)
		for _, ix := range idx {
			want = append(want, int64(ix)*3+1)
		}
		if err := d.gather(out, at, idx); err != nil {
			t.Fatal(err)
		}
		at += len(idx)
	}
	arr := out.finish()
	defer arr.Release()
	if got := arr.(*array.Int64).Int64Values(); !slices.Equal(got, want) {
		t.Fatalf("gathered values differ")
	}
	bad := newColOut(mem, &tg, 2, 2, false, 0)
	defer bad.release()
	for _, idx := range [][]uint32{{dictLen - 1, dictLen}, {3, dictLen + 7}} {
		if err := d.gather(bad, 0, idx); !errors.Is(err, kernels.ErrOutOfRange) {
			t.Errorf("indices %v: %v", idx, err)
		}
	}
}
