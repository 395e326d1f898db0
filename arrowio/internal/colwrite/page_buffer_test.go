package colwrite

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestPageBuffer appends pages of random sizes to a PageBuffer over
// several chunks, with reservations between them: some appended whole
// (some past the room asked for, as a page header with statistics can
// be), some built in place behind room for a header that the header
// then fills in part, fills exactly or overflows (which moves the page),
// and some outgrowing the room they asked for. It checks that the
// segments hold exactly the pages, headers first, in order, and that
// Len counts them.
func TestPageBuffer(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	var b PageBuffer
	for chunk := range 40 {
		b.reset()
		var want []byte
		for range r.IntN(30) {
			if r.IntN(5) == 0 {
				b.reserve(r.IntN(1 << 16))
			}
			page := random(r.IntN(1 << 14))
			room := len(page)
			if r.IntN(4) == 0 {
				room /= 2
			}
			if r.IntN(2) == 0 {
				b.close(append(b.open(room), page...))
				want = append(want, page...)
				continue
			}
			hdr := random([]int{0, 1, pageHeaderRoom - 1, pageHeaderRoom, pageHeaderRoom + 1, 3 * pageHeaderRoom}[r.IntN(6)])
			seg, at := b.openPage(room)
			b.closePage(append(seg, page...), at, hdr)
			want = append(append(want, hdr...), page...)
		}
		if got := bytes.Join(b.Segments(), nil); !bytes.Equal(got, want) || b.Len() != len(want) {
			t.Fatalf("chunk %d: %d bytes held (Len %d), want %d", chunk, len(got), b.Len(), len(want))
		}
	}
}
