package colread

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestGrowDataKeepsData writes a batch's binary data in pieces that
// outgrow its buffer, with and without a first guess, through growData
// and growDataFor, and checks that every growth keeps the bytes decoded
// before it and leaves the slack the byte-array kernels may overwrite.
func TestGrowDataKeepsData(t *testing.T) {
	tg := target{kind: binaryTarget, typ: arrow.BinaryTypes.String}
	for _, hint := range []int{0, 100} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		out := newColOut(mem, &tg, 1000, 1000, false, hint)
		var want []byte
		for i, size := range []int{10, 50, 500, 5000, 20, 40000} {
			var data []byte
			if i%2 == 0 {
				data = out.growData(size)
			} else {
				data = out.growDataFor(size, 100*(i+1))
			}
			if len(data) < out.dataLen+size+dataSlack {
				t.Fatalf("hint %d, piece %d: %d bytes for %d decoded, %d more and %d of slack", hint, i, len(data), out.dataLen, size, dataSlack)
			}
			if !bytes.Equal(data[:out.dataLen], want) {
				t.Fatalf("hint %d, piece %d: the %d bytes decoded before were not kept", hint, i, out.dataLen)
			}
			for j := range size {
				data[out.dataLen+j] = byte(i*31 + j)
			}
			want = append(want, data[out.dataLen:out.dataLen+size]...)
			out.dataLen += size
		}
		out.release()
		mem.AssertSize(t, 0)
	}
}
