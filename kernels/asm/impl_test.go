package asm

import (
	"math/rand/v2"
	"testing"
)

// impl is one assembly routine under test: its name, the function, and
// whether this CPU has every feature it needs. The per-arch impls_*_test.go
// files register them; with the purego tag, or on other architectures, the
// lists stay empty and each test says so by skipping.
type impl[F any] struct {
	name string
	fn   F
	ok   bool
}

// forEach runs body once per registered implementation usable on this CPU.
func forEach[F any](t *testing.T, impls []impl[F], body func(t *testing.T, fn F)) {
	t.Helper()
	if len(impls) == 0 {
		t.Skip("no assembly implementation in this build (purego or unsupported GOARCH)")
	}
	for _, im := range impls {
		t.Run(im.name, func(t *testing.T) {
			if !im.ok {
				t.Skipf("CPU lacks the features %s needs", im.name)
			}
			body(t, im.fn)
		})
	}
}

// testLengths returns the value counts the tests try: every count up to 80,
// then counts around the 8-, 16- and 32-value block sizes, and a few large
// ones. Under -short (the qemu run) the dense range is cut.
func testLengths() []int {
	dense := 80
	if testing.Short() {
		dense = 40
	}
	var ns []int
	for n := 0; n <= dense; n++ {
		ns = append(ns, n)
	}
	for _, c := range []int{95, 96, 97, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1000} {
		if c > dense {
			ns = append(ns, c)
		}
	}
	return ns
}

// newRand returns a deterministic generator so failures reproduce.
func newRand() *rand.Rand { return rand.New(rand.NewPCG(0x5157, 0x1e4)) }

// fillRandom writes random bytes into b.
func fillRandom(r *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}
