package arrowmem

import "testing"

// TestViews checks that each view sees the same memory with the lengths
// and capacities its doc gives.
func TestViews(t *testing.T) {
	b := make([]byte, 12, 20)
	for i := range b {
		b[i] = byte(i + 1)
	}
	v := View[uint32](b)
	if len(v) != 3 || cap(v) != 3 || v[1] != 0x08070605 {
		t.Fatalf("View: len %d cap %d v[1] %#x", len(v), cap(v), v[1])
	}
	vc := ViewCap[uint32](b)
	if len(vc) != 3 || cap(vc) != 5 {
		t.Fatalf("ViewCap: len %d cap %d", len(vc), cap(vc))
	}
	if bb := Bytes(v); len(bb) != 12 || cap(bb) != 12 || &bb[0] != &b[0] {
		t.Fatalf("Bytes: len %d cap %d", len(bb), cap(bb))
	}
	if bc := BytesCap(vc); len(bc) != 12 || cap(bc) != 20 || &bc[0] != &b[0] {
		t.Fatalf("BytesCap: len %d cap %d", len(bc), cap(bc))
	}
	c := Cast[int32](v)
	c[0] = -1
	if len(c) != 3 || cap(c) != 3 || b[0] != 0xff || b[3] != 0xff {
		t.Fatalf("Cast: len %d cap %d bytes %v", len(c), cap(c), b[:4])
	}
	// An append to a view never writes past the viewed values.
	_ = append(View[byte](b[:4]), 9)
	if b[4] != 5 {
		t.Fatalf("append to a View wrote past it: %v", b[:5])
	}
}
