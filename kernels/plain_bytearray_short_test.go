package kernels

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestAppendPlainByteArrayShort encodes values of 0 to 20 bytes, at odd
// counts, from data that ends with the last value and from offsets that
// start past 0, after a prefix in dst: the output is each value's length
// and bytes, nothing past it, and the prefix stays.
func TestAppendPlainByteArrayShort(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 7))
	for _, n := range []int{1, 2, 3, 7, 17, 33, 101} {
		start := r.IntN(5)
		data := make([]byte, start)
		offsets := []int32{int32(start)}
		for range n {
			for range r.IntN(21) {
				data = append(data, byte(r.Uint32()))
			}
			offsets = append(offsets, int32(len(data)))
		}
		want := []byte{9, 9}
		for i := 1; i < len(offsets); i++ {
			v := data[offsets[i-1]:offsets[i]]
			want = binary.LittleEndian.AppendUint32(want, uint32(len(v)))
			want = append(want, v...)
		}
		got, err := AppendPlainByteArray([]byte{9, 9}, offsets, data)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%d values: %v\n got %x\nwant %x", n, err, got, want)
		}
	}
}
