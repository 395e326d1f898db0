package arrowmem

import "testing"

// TestMakeNoZero checks lengths and that slices do not overlap.
func TestMakeNoZero(t *testing.T) {
	var live [][]byte
	for _, n := range []int{0, 1, 8, 100, 4096, 1 << 20} {
		b := makeNoZero(n)
		if len(b) != n || cap(b) != n {
			t.Fatalf("makeNoZero(%d): len %d cap %d", n, len(b), cap(b))
		}
		for i := range b {
			b[i] = byte(n + i)
		}
		live = append(live, b)
	}
	for _, b := range live {
		for i := range b {
			if b[i] != byte(len(b)+i) {
				t.Fatalf("slice of %d bytes changed at byte %d", len(b), i)
			}
		}
	}
}
