package pageindex

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/internal/corpus"
)

// FuzzParseBloom feeds arbitrary bytes to the bloom filter parsers, which
// must return a filter or an error, never panic.
func FuzzParseBloom(f *testing.F) {
	b := NewBloom(32)
	b.Insert(HashInt64(7))
	f.Add(b.Append(nil))
	if dir, err := corpus.Lookup(); err == nil {
		for _, name := range []string{"bloom_filter.xxhash.bin", "bloom_filter.bin"} {
			if src, err := os.ReadFile(filepath.Join(dir, "data", name)); err == nil {
				f.Add(src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if got, n, err := ParseBloom(src); err == nil {
			if n > len(src) || got.NumBytes() < MinBloomBytes {
				t.Fatalf("parsed %d of %d bytes into %d", n, len(src), got.NumBytes())
			}
			got.Check(HashInt64(int64(len(src))))
		}
		if len(src) > 0 {
			if got, err := ReadBloom(bytes.NewReader(src), 0, 0, int64(len(src))); err == nil {
				got.Check(1)
			}
		}
	})
}

// FuzzParse feeds arbitrary text to the predicate parser: it returns a
// predicate or an error, and a predicate formats to text that parses to
// the same text again.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`x > 5 and s = "a"`, "not (a in (1, 2.5, 'x')) or b is not null", "`a b` prefix \"p\"", "((x<=-3e4))",
		"price >= 12.50 and d in (1e40, -.5, 99999999999999999999)", "h = 0x1p-2 or q < 1.5E-7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		text := p.String()
		q, err := Parse(text)
		if err != nil {
			t.Fatalf("%q formats as %q, which does not parse: %v", s, text, err)
		}
		if q.String() != text {
			t.Fatalf("%q formats as %q, then as %q", s, text, q.String())
		}
	})
}

// FuzzSplitPlain splits arbitrary bytes as PLAIN values of every physical
// type: each value must lie within the input, and nothing may panic.
func FuzzSplitPlain(f *testing.F) {
	f.Add([]byte{2, 0, 0, 0, 'h', 'i', 0, 0, 0, 0}, uint8(6), int32(0), 2)
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8}, uint8(7), int32(3), 2)
	f.Fuzz(func(t *testing.T, src []byte, typ uint8, width int32, count int) {
		vals, err := SplitPlain(footer.Type(typ%8), width, count, src)
		if err != nil {
			return
		}
		total := 0
		for _, v := range vals {
			total += len(v)
		}
		if len(vals) != count || total > len(src) {
			t.Fatalf("%d values of %d bytes from %d bytes", len(vals), total, len(src))
		}
	})
}
