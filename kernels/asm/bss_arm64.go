//go:build !purego

package asm

// BSSDecode2NEON decodes BYTE_STREAM_SPLIT data of 2-byte values: src
// holds 2 streams of n = min(len(dst), len(src))/2 bytes, stream k carrying
// byte k of every value, and dst receives the values back to back. It
// decodes the first n&^15 values and returns that count.
//
//go:noescape
func BSSDecode2NEON(dst, src []byte) int

// BSSDecode4NEON decodes BYTE_STREAM_SPLIT data of 4-byte values: src
// holds 4 streams of n = min(len(dst), len(src))/4 bytes, stream k carrying
// byte k of every value, and dst receives the values back to back. It
// decodes the first n&^15 values and returns that count.
//
//go:noescape
func BSSDecode4NEON(dst, src []byte) int

// BSSDecode8NEON decodes BYTE_STREAM_SPLIT data of 8-byte values: src
// holds 8 streams of n = min(len(dst), len(src))/8 bytes, stream k carrying
// byte k of every value, and dst receives the values back to back. It
// decodes the first n&^15 values and returns that count.
//
//go:noescape
func BSSDecode8NEON(dst, src []byte) int

// BSSEncode2NEON encodes 2-byte values as BYTE_STREAM_SPLIT: src holds
// n = min(len(dst), len(src))/2 values back to back, and stream k of dst
// (bytes k*n to (k+1)*n) receives byte k of every value. It encodes the
// first n&^15 values and returns that count.
//
//go:noescape
func BSSEncode2NEON(dst, src []byte) int

// BSSEncode4NEON encodes 4-byte values as BYTE_STREAM_SPLIT: src holds
// n = min(len(dst), len(src))/4 values back to back, and stream k of dst
// (bytes k*n to (k+1)*n) receives byte k of every value. It encodes the
// first n&^15 values and returns that count.
//
//go:noescape
func BSSEncode4NEON(dst, src []byte) int

// BSSEncode8NEON encodes 8-byte values as BYTE_STREAM_SPLIT: src holds
// n = min(len(dst), len(src))/8 values back to back, and stream k of dst
// (bytes k*n to (k+1)*n) receives byte k of every value. It encodes the
// first n&^15 values and returns that count.
//
//go:noescape
func BSSEncode8NEON(dst, src []byte) int
