package kernels

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAppendRLE checks that AppendRLE's streams decode to their values, as
// uint32 values and as int16 levels, for every width and the shapes the
// RLEEncoder tests use, and compares their size with the rule arrow-go's
// encoder follows.
func TestAppendRLE(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	var greedy, rule int
	for width := uint(0); width <= 32; width++ {
		for name, vals := range rleEncodeInputs(r, width) {
			u32 := make([]uint32, len(vals))
			for i, v := range vals {
				u32[i] = uint32(v)
			}
			enc, err := AppendRLE([]byte{0xAA}, u32, width)
			if err != nil || enc[0] != 0xAA {
				t.Fatalf("width %d %s: %v", width, name, err)
			}
			enc = enc[1:]
			if len(enc) > MaxRLEEncodedLen(len(vals), width) {
				t.Errorf("width %d %s: %d bytes, above the bound %d", width, name, len(enc), MaxRLEEncodedLen(len(vals), width))
			}
			var d RLEDecoder
			d.Reset(enc, width)
			got := make([]uint32, len(vals))
			if n, err := d.DecodeUint32(got); err != nil || n != len(vals) || !slices.Equal(got, u32) {
				t.Fatalf("width %d %s: decoded %d values, %v; differ: %v", width, name, n, err, !slices.Equal(got, u32))
			}
			greedy += len(enc)
			rule += len(rleRuleEncode(vals, width))
			if width > 15 {
				continue
			}
			lv := make([]int16, len(vals))
			for i, v := range vals {
				lv[i] = int16(v)
			}
			enc16, err := AppendRLE(nil, lv, width)
			if err != nil || !slices.Equal(enc16, enc) {
				t.Fatalf("width %d %s: levels encode differently from uint32 values (%v)", width, name, err)
			}
		}
	}
	t.Logf("AppendRLE: %d bytes; arrow-go's rule: %d bytes", greedy, rule)
	if float64(greedy) > 1.01*float64(rule) {
		t.Errorf("AppendRLE wrote %d bytes, more than 1%% above the rule's %d", greedy, rule)
	}
}

func TestAppendRLEErrors(t *testing.T) {
	if _, err := AppendRLE(nil, []uint32{1, 2, 8}, 3); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("wide value: %v", err)
	}
	if _, err := AppendRLE(nil, []int16{0, -1}, 3); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("negative level: %v", err)
	}
	if _, err := AppendRLE(nil, []uint32{1}, 33); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("width 33: %v", err)
	}
}
