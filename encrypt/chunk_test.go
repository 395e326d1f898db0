package encrypt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"
)

var allModules = []ModuleType{ModuleColumnMetaData, ModuleDataPage, ModuleDictionaryPage, ModuleDataPageHeader,
	ModuleDictionaryPageHeader, ModuleColumnIndex, ModuleOffsetIndex, ModuleBloomFilterHeader, ModuleBloomFilterBitset}

func testCipher(t testing.TB, alg Algorithm, keyLen, rg, col int) *ChunkCipher {
	k, err := newKey(bytes.Repeat([]byte{7}, keyLen))
	if err != nil {
		t.Fatal(err)
	}
	c, err := newChunkCipher(k, alg, []byte("file-aad"), rg, col)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestChunkCipherRoundTrip(t *testing.T) {
	for _, alg := range []Algorithm{AesGcmV1, AesGcmCtrV1} {
		for _, kl := range []int{16, 24, 32} {
			c := testCipher(t, alg, kl, 3, 4)
			for _, mt := range allModules {
				for _, n := range []int{0, 1, 15, 16, 17, 1000} {
					t.Run(fmt.Sprintf("%v/%d/%v/%d", alg, kl, mt, n), func(t *testing.T) {
						plain := bytes.Repeat([]byte{0xa5}, n)
						mod, err := c.Seal([]byte("head"), plain, mt, 5)
						if err != nil {
							t.Fatal(err)
						}
						mod = append(mod, "next"...)
						if got := len(mod) - 8 - n; got != c.Overhead(mt) {
							t.Errorf("overhead %d, Overhead says %d", got, c.Overhead(mt))
						}
						got, used, err := c.Open(mod[4:], mt, 5)
						if err != nil {
							t.Fatal(err)
						}
						if !bytes.Equal(got, plain) || string(mod[4+used:]) != "next" {
							t.Errorf("got %x, rest %q", got, mod[4+used:])
						}
					})
				}
			}
		}
	}
}

// TestChunkCipherAuthentication checks that every change to a GCM module
// (a byte of it, its position, its key) fails authentication, while a CTR
// page only decrypts to other bytes.
func TestChunkCipherAuthentication(t *testing.T) {
	for _, alg := range []Algorithm{AesGcmV1, AesGcmCtrV1} {
		c := testCipher(t, alg, 16, 1, 2)
		for _, mt := range allModules {
			mod, err := c.Seal(nil, []byte("some plaintext of a module"), mt, 3)
			if err != nil {
				t.Fatal(err)
			}
			ctr := c.isCTR(mt)
			for i := LengthSize; i < len(mod); i++ {
				b := bytes.Clone(mod)
				b[i] ^= 0x10
				_, _, err := c.Open(b, mt, 3)
				if !ctr && !errors.Is(err, ErrAuthentication) {
					t.Errorf("%v %v: byte %d flipped: err = %v, want ErrAuthentication", alg, mt, i, err)
				}
			}
			moved := []struct {
				c    *ChunkCipher
				page int
			}{{testCipher(t, alg, 16, 2, 2), 3}, {testCipher(t, alg, 16, 1, 3), 3}, {testCipher(t, alg, 24, 1, 2), 3}}
			if mt.hasPageOrdinal() {
				moved = append(moved, struct {
					c    *ChunkCipher
					page int
				}{c, 4})
			}
			for _, m := range moved {
				_, _, err := m.c.Open(bytes.Clone(mod), mt, m.page)
				if !ctr && !errors.Is(err, ErrAuthentication) {
					t.Errorf("%v %v: opened at another place: err = %v", alg, mt, err)
				}
			}
		}
	}
}

func TestChunkCipherFraming(t *testing.T) {
	c := testCipher(t, AesGcmV1, 16, 0, 0)
	le := func(n uint32, rest int) []byte {
		return append(binary.LittleEndian.AppendUint32(nil, n), make([]byte, rest)...)
	}
	for _, b := range [][]byte{nil, {1, 2, 3}, le(27, 27), le(29, 28), le(0xffffffff, 40)} {
		if _, _, err := c.Open(b, ModuleDataPage, 0); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%x: err = %v, want ErrCorrupt", b, err)
		}
	}
	if _, _, err := c.Open(le(28, 28), ModuleDataPage, 32768); !errors.Is(err, ErrConfig) {
		t.Errorf("page 32768: err = %v, want ErrConfig", err)
	}
	if _, err := c.Seal(nil, nil, ModuleDataPageHeader, -1); !errors.Is(err, ErrConfig) {
		t.Errorf("seal page -1: err = %v, want ErrConfig", err)
	}
	if _, err := newKey(make([]byte, 17)); !errors.Is(err, ErrConfig) {
		t.Errorf("17-byte key: err = %v", err)
	}
}

func TestOpenAllocations(t *testing.T) {
	c := testCipher(t, AesGcmV1, 16, 0, 0)
	mod, _ := c.Seal(nil, make([]byte, 4096), ModuleDataPage, 1)
	buf := make([]byte, len(mod))
	if n := testing.AllocsPerRun(50, func() {
		copy(buf, mod)
		if _, _, err := c.Open(buf, ModuleDataPage, 1); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("GCM page Open allocates %v times", n)
	}
}

func BenchmarkOpenPage(b *testing.B) {
	for _, alg := range []Algorithm{AesGcmV1, AesGcmCtrV1} {
		b.Run(alg.String(), func(b *testing.B) {
			c := testCipher(b, alg, 16, 0, 0)
			mod, _ := c.Seal(nil, make([]byte, 1<<20), ModuleDataPage, 1)
			buf := make([]byte, len(mod))
			b.SetBytes(1 << 20)
			b.ReportAllocs()
			for b.Loop() {
				copy(buf, mod)
				if _, _, err := c.Open(buf, ModuleDataPage, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
