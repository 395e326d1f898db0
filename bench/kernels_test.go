package bench

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/parquet-go/bitpack"
	"github.com/parquet-go/parquet-go/encoding/bytestreamsplit"
	"github.com/parquet-go/parquet-go/encoding/delta"
	"github.com/parquet-go/parquet-go/encoding/plain"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/quiverio/quiver/kernels"
)

// impl is one implementation of a kernel.
type impl[F any] struct {
	name string
	fn   F
}

// Sizes of the kernel inputs: one 4096-value batch for bit unpacking, a
// 64 Ki-value page for the page decoders.
const (
	unpackValues = 4096
	pageValues   = 65536
)

// asInt32 views s as []int32 (same bits), the element type parquet-go's
// decoders take.
func asInt32(s []uint32) []int32 {
	return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// checkLen reports a decoder that returned a different number of values
// than the input holds.
func checkLen(name string, got, want int) error {
	if got != want {
		return fmt.Errorf("%s decoded %d values, want %d", name, got, want)
	}
	return nil
}

var unpack32Impls = []impl[func(dst []uint32, src []byte, width uint) error]{
	{"quiver", func(dst []uint32, src []byte, width uint) error {
		_, err := kernels.Unpack32(dst, src, width)
		return err
	}},
	{"parquetgo", func(dst []uint32, src []byte, width uint) error {
		bitpack.Unpack(dst, src, width)
		return nil
	}},
}

var unpack64Impls = []impl[func(dst []uint64, src []byte, width uint) error]{
	{"quiver", func(dst []uint64, src []byte, width uint) error {
		_, err := kernels.Unpack64(dst, src, width)
		return err
	}},
	{"parquetgo", func(dst []uint64, src []byte, width uint) error {
		bitpack.Unpack(dst, src, width)
		return nil
	}},
}

// unpack64Widths are the uint64 widths timed: small, byte-aligned, odd,
// and either side of 32.
var unpack64Widths = []uint{1, 2, 3, 4, 5, 7, 8, 11, 13, 16, 17, 21, 24, 31, 32, 33, 40, 48, 56, 63, 64}

func BenchmarkUnpack32(b *testing.B) {
	widths := make([]uint, 32)
	for i := range widths {
		widths[i] = uint(i + 1)
	}
	benchUnpack(b, unpack32Impls, widths)
}

func BenchmarkUnpack64(b *testing.B) { benchUnpack(b, unpack64Impls, unpack64Widths) }

// benchUnpack times every implementation unpacking unpackValues values at
// each width.
func benchUnpack[T uint32 | uint64](b *testing.B, impls []impl[func([]T, []byte, uint) error], widths []uint) {
	for _, w := range widths {
		src := packBits(randomBits(kernelRNG(fmt.Sprint("unpack", w)), unpackValues, w), w)
		for _, im := range impls {
			b.Run(fmt.Sprintf("width=%d/impl=%s", w, im.name), func(b *testing.B) {
				dst := make([]T, unpackValues)
				measure(b, int64(unsafe.Sizeof(T(0)))*unpackValues, unpackValues, "values/s", func() error {
					return im.fn(dst, src, w)
				})
			})
		}
	}
}

// rleDictImpls decode a dictionary-indices page (bit-width byte, then the
// RLE/bit-packing hybrid) for a dictionary of dictLen entries.
var rleDictImpls = []impl[func(dst []uint32, src []byte, dictLen int) error]{
	{"quiver", func(dst []uint32, src []byte, dictLen int) error {
		var d kernels.RLEDecoder
		d.Reset(src[1:], uint(src[0]))
		_, err := d.DecodeIndices(dst, dictLen)
		return err
	}},
	{"parquetgo", func(dst []uint32, src []byte, _ int) error {
		out, err := pgRLEDict.DecodeInt32(asInt32(dst), src)
		if err != nil {
			return err
		}
		return checkLen("parquetgo", len(out), len(dst))
	}},
}

var (
	pgRLEDict    rle.DictionaryEncoding
	pgDelta      delta.BinaryPackedEncoding
	pgDeltaBytes delta.ByteArrayEncoding
	pgBSS        bytestreamsplit.Encoding
	pgPlain      plain.Encoding
)

// rleWidth and rleDictLen shape the RLE input: indices into a dictionary
// of 1,024 entries, 10 bits wide.
const (
	rleWidth   = 10
	rleDictLen = 1 << rleWidth
)

func BenchmarkRLEDictIndices(b *testing.B) {
	_, src := rleMixed(kernelRNG("rle"), pageValues, rleWidth)
	for _, im := range rleDictImpls {
		b.Run(fmt.Sprintf("width=%d/runs=mixed/impl=%s", rleWidth, im.name), func(b *testing.B) {
			dst := make([]uint32, pageValues)
			measure(b, 4*pageValues, pageValues, "values/s", func() error { return im.fn(dst, src, rleDictLen) })
		})
	}
}

var deltaInt32Impls = []impl[func(dst []int32, src []byte) error]{
	{"quiver", func(dst []int32, src []byte) error {
		_, err := kernels.DeltaBinaryPackedInt32(dst, src)
		return err
	}},
	{"parquetgo", func(dst []int32, src []byte) error {
		out, err := pgDelta.DecodeInt32(dst, src)
		if err != nil {
			return err
		}
		return checkLen("parquetgo", len(out), len(dst))
	}},
}

// deltaInt32Input returns pageValues int32s of a mostly increasing random
// walk and their DELTA_BINARY_PACKED encoding (parquet-go's encoder).
func deltaInt32Input(tb testing.TB) ([]int32, []byte) {
	rng := kernelRNG("delta")
	vals := make([]int32, pageValues)
	v := int32(rng.IntN(1 << 20))
	for i := range vals {
		v += int32(rng.IntN(2000)) - 500
		vals[i] = v
	}
	src, err := pgDelta.EncodeInt32(nil, vals)
	if err != nil {
		tb.Fatal(err)
	}
	return vals, src
}

func BenchmarkDeltaInt32(b *testing.B) {
	_, src := deltaInt32Input(b)
	for _, im := range deltaInt32Impls {
		b.Run("values=65536/impl="+im.name, func(b *testing.B) {
			dst := make([]int32, pageValues)
			measure(b, 4*pageValues, pageValues, "values/s", func() error { return im.fn(dst, src) })
		})
	}
}

var bssDoubleImpls = []impl[func(dst []float64, src []byte) error]{
	{"quiver", func(dst []float64, src []byte) error {
		return kernels.ByteStreamSplitDecode(arrow.Float64Traits.CastToBytes(dst), src, 8)
	}},
	{"parquetgo", func(dst []float64, src []byte) error {
		out, err := pgBSS.DecodeDouble(dst, src)
		if err != nil {
			return err
		}
		return checkLen("parquetgo", len(out), len(dst))
	}},
}

// bssDoubleInput returns pageValues doubles of a random walk and their
// BYTE_STREAM_SPLIT encoding (parquet-go's encoder).
func bssDoubleInput(tb testing.TB) ([]float64, []byte) {
	rng := kernelRNG("bss")
	vals := make([]float64, pageValues)
	x := 100.0
	for i := range vals {
		x += rng.NormFloat64() / 100
		vals[i] = x
	}
	src, err := pgBSS.EncodeDouble(nil, vals)
	if err != nil {
		tb.Fatal(err)
	}
	return vals, src
}

func BenchmarkBSSDouble(b *testing.B) {
	_, src := bssDoubleInput(b)
	for _, im := range bssDoubleImpls {
		b.Run("values=65536/impl="+im.name, func(b *testing.B) {
			dst := make([]float64, pageValues)
			measure(b, 8*pageValues, pageValues, "values/s", func() error { return im.fn(dst, src) })
		})
	}
}

// byteArrayDecoder decodes one page of byte arrays into Arrow-style int32
// offsets (n+1, from 0) and data, in buffers it owns and reuses.
type byteArrayDecoder func(src []byte) (offsets []int32, data []byte, err error)

// byteArrayImpls make a decoder with room for n values of dataCap bytes.
type byteArrayImpls = []impl[func(n, dataCap int) byteArrayDecoder]

var deltaByteArrayImpls = byteArrayImpls{
	{"quiver", func(n, dataCap int) byteArrayDecoder {
		offsets := make([]int32, n+1)
		prefix := make([]int32, n)
		data := make([]byte, dataCap)
		return func(src []byte) ([]int32, []byte, error) {
			dataLen, suffixAt, err := kernels.DeltaByteArrayOffsets(offsets, prefix, src)
			if err != nil {
				return nil, nil, err
			}
			if dataLen > len(data) {
				return nil, nil, fmt.Errorf("quiver: %d data bytes, room for %d", dataLen, len(data))
			}
			if _, err := kernels.DeltaByteArrayData(data, offsets, prefix, src[suffixAt:]); err != nil {
				return nil, nil, err
			}
			return offsets, data[:dataLen], nil
		}
	}},
	{"parquetgo", func(n, dataCap int) byteArrayDecoder {
		offsets := make([]uint32, 0, n+1)
		data := make([]byte, 0, dataCap)
		return func(src []byte) ([]int32, []byte, error) {
			d, o, err := pgDeltaBytes.DecodeByteArray(data, src, offsets)
			return asInt32(o), d, err
		}
	}},
}

var plainByteArrayImpls = byteArrayImpls{
	{"quiver", func(n, dataCap int) byteArrayDecoder {
		offsets := make([]int32, n+1)
		data := make([]byte, dataCap)
		return func(src []byte) ([]int32, []byte, error) {
			dataLen, _, err := kernels.PlainByteArray(offsets, data, src)
			return offsets, data[:dataLen], err
		}
	}},
	{"parquetgo", func(n, dataCap int) byteArrayDecoder {
		offsets := make([]uint32, 0, n+1)
		data := make([]byte, 0, dataCap)
		return func(src []byte) ([]int32, []byte, error) {
			d, o, err := pgPlain.DecodeByteArray(data, src, offsets)
			return asInt32(o), d, err
		}
	}},
}

// deltaByteArrayInput returns sorted 20-byte keys and their
// DELTA_BYTE_ARRAY encoding (parquet-go's encoder).
func deltaByteArrayInput(tb testing.TB) (*byteArrays, []byte) {
	keys := sortedKeys(kernelRNG("delta-byte-array"), pageValues)
	src, err := pgDeltaBytes.EncodeByteArray(nil, keys.data, keys.offsets)
	if err != nil {
		tb.Fatal(err)
	}
	return keys, src
}

// plainByteArrayInput returns short random strings and their PLAIN
// encoding.
func plainByteArrayInput(testing.TB) (*byteArrays, []byte) {
	s := shortStrings(kernelRNG("plain-byte-array"), pageValues)
	return s, plainByteArray(s)
}

// byteArraySlack is the room decoders get past the data: quiver's
// PlainByteArray may write 16 bytes past the last value.
const byteArraySlack = 16

func BenchmarkDeltaByteArray(b *testing.B) {
	want, src := deltaByteArrayInput(b)
	benchByteArrays(b, "len=20/shared-prefix", deltaByteArrayImpls, want, src)
}

func BenchmarkPlainByteArray(b *testing.B) {
	want, src := plainByteArrayInput(b)
	benchByteArrays(b, "len=0-16", plainByteArrayImpls, want, src)
}

func benchByteArrays(b *testing.B, shape string, impls byteArrayImpls, want *byteArrays, src []byte) {
	for _, im := range impls {
		b.Run(shape+"/impl="+im.name, func(b *testing.B) {
			dec := im.fn(want.len(), len(want.data)+byteArraySlack)
			measure(b, want.arrowBytes(), int64(want.len()), "values/s", func() error {
				_, _, err := dec(src)
				return err
			})
		})
	}
}

// TestKernelsAgree decodes every kernel benchmark input with every
// implementation and compares the result with the values it was built
// from, so that no implementation is timed doing less (or other) work.
func TestKernelsAgree(t *testing.T) {
	for w := uint(1); w <= 64; w++ {
		vals := randomBits(kernelRNG(fmt.Sprint("unpack", w)), unpackValues, w)
		src := packBits(vals, w)
		if w <= 32 {
			for _, im := range unpack32Impls {
				dst := make([]uint32, unpackValues)
				if err := im.fn(dst, src, w); err != nil {
					t.Fatalf("unpack32 width %d %s: %v", w, im.name, err)
				}
				for i, v := range dst {
					if uint64(v) != vals[i] {
						t.Fatalf("unpack32 width %d %s: value %d is %d, want %d", w, im.name, i, v, vals[i])
					}
				}
			}
		}
		for _, im := range unpack64Impls {
			dst := make([]uint64, unpackValues)
			if err := im.fn(dst, src, w); err != nil {
				t.Fatalf("unpack64 width %d %s: %v", w, im.name, err)
			}
			if !slices.Equal(dst, vals) {
				t.Fatalf("unpack64 width %d %s: values differ", w, im.name)
			}
		}
	}

	rleVals, rleSrc := rleMixed(kernelRNG("rle"), pageValues, rleWidth)
	for _, im := range rleDictImpls {
		dst := make([]uint32, pageValues)
		if err := im.fn(dst, rleSrc, rleDictLen); err != nil || !slices.Equal(dst, rleVals) {
			t.Errorf("rle %s: error %v, values equal %v", im.name, err, slices.Equal(dst, rleVals))
		}
	}

	deltaVals, deltaSrc := deltaInt32Input(t)
	for _, im := range deltaInt32Impls {
		dst := make([]int32, pageValues)
		if err := im.fn(dst, deltaSrc); err != nil || !slices.Equal(dst, deltaVals) {
			t.Errorf("delta int32 %s: error %v, values equal %v", im.name, err, slices.Equal(dst, deltaVals))
		}
	}

	bssVals, bssSrc := bssDoubleInput(t)
	for _, im := range bssDoubleImpls {
		dst := make([]float64, pageValues)
		if err := im.fn(dst, bssSrc); err != nil || !slices.EqualFunc(dst, bssVals, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
			t.Errorf("bss double %s: error %v or values differ", im.name, err)
		}
	}

	for _, tc := range []struct {
		name  string
		impls byteArrayImpls
		input func(testing.TB) (*byteArrays, []byte)
	}{{"delta byte array", deltaByteArrayImpls, deltaByteArrayInput}, {"plain byte array", plainByteArrayImpls, plainByteArrayInput}} {
		want, src := tc.input(t)
		wantOffsets := asInt32(want.offsets)
		for _, im := range tc.impls {
			offsets, data, err := im.fn(want.len(), len(want.data)+byteArraySlack)(src)
			if err != nil || !slices.Equal(offsets, wantOffsets) || !bytes.Equal(data, want.data) {
				t.Errorf("%s %s: error %v, offsets equal %v, data equal %v", tc.name, im.name, err,
					slices.Equal(offsets, wantOffsets), bytes.Equal(data, want.data))
			}
		}
	}
}
