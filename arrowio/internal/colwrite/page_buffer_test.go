package colwrite

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestPageBuffer appends pages of random sizes (some past the room asked
// for, as a page header with statistics can be) to a PageBuffer over
// several chunks, with reservations between them, and checks that its
// segments hold exactly the pages in order and that Len counts them.
func TestPageBuffer(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var b PageBuffer
	for chunk := range 20 {
		b.reset()
		var want []byte
		for range r.IntN(30) {
			if r.IntN(5) == 0 {
				b.reserve(r.IntN(1 << 16))
			}
			page := make([]byte, r.IntN(1<<14))
			for i := range page {
				page[i] = byte(r.Uint32())
			}
			room := len(page)
			if r.IntN(4) == 0 {
				room /= 2
			}
			b.close(append(b.open(room), page...))
			want = append(want, page...)
		}
		if got := bytes.Join(b.Segments(), nil); !bytes.Equal(got, want) || b.Len() != len(want) {
			t.Fatalf("chunk %d: %d bytes held (Len %d), want %d", chunk, len(got), b.Len(), len(want))
		}
	}
}
