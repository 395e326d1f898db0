package encrypt

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"fmt"
)

// Algorithm is a Parquet encryption algorithm.
type Algorithm int

// The algorithms of the specification. The zero value is AES_GCM_V1.
const (
	// AesGcmV1 encrypts every module with AES-GCM.
	AesGcmV1 Algorithm = iota
	// AesGcmCtrV1 encrypts pages with AES-CTR (no authentication of page
	// data) and every other module with AES-GCM.
	AesGcmCtrV1
)

// String returns the algorithm's name in parquet.thrift.
func (a Algorithm) String() string {
	switch a {
	case AesGcmV1:
		return "AES_GCM_V1"
	case AesGcmCtrV1:
		return "AES_GCM_CTR_V1"
	}
	return fmt.Sprintf("Algorithm(%d)", int(a))
}

// Sizes of the parts of an encrypted module.
const (
	// LengthSize is the size of the little-endian length that opens a module.
	LengthSize = 4
	// NonceSize is the size of the nonce that follows the length.
	NonceSize = 12
	// TagSize is the size of the GCM tag that closes a GCM module.
	TagSize = 16
	// GCMOverhead is what a GCM module adds to its plaintext.
	GCMOverhead = LengthSize + NonceSize + TagSize
	// CTROverhead is what a CTR module adds to its plaintext.
	CTROverhead = LengthSize + NonceSize
	// SignatureSize is the size of a plaintext footer's signature (a
	// nonce and a GCM tag).
	SignatureSize = NonceSize + TagSize
)

// key is one AES key, expanded once, with its GCM mode.
type key struct {
	block cipher.Block
	gcm   cipher.AEAD
}

// newKey expands k, which must be 16, 24 or 32 bytes long.
func newKey(k []byte) (*key, error) {
	switch len(k) {
	case 16, 24, 32:
	default:
		return nil, fmt.Errorf("%w: AES key of %d bytes (want 16, 24 or 32)", ErrConfig, len(k))
	}
	b, err := aes.NewCipher(k)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	g, err := cipher.NewGCM(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return &key{block: b, gcm: g}, nil
}

// frame checks the length that opens the module at the start of buf
// against the bytes that remain and the least a module of its kind holds,
// and returns the module's body (nonce onwards).
func frame(buf []byte, least int) ([]byte, error) {
	if len(buf) < LengthSize {
		return nil, fmt.Errorf("%w: %d bytes left, a module starts with a %d-byte length", ErrCorrupt, len(buf), LengthSize)
	}
	n := uint64(binary.LittleEndian.Uint32(buf))
	if n < uint64(least) || n > uint64(len(buf)-LengthSize) {
		return nil, fmt.Errorf("%w: module length %d is outside [%d, %d]", ErrCorrupt, n, least, len(buf)-LengthSize)
	}
	return buf[LengthSize : LengthSize+int(n)], nil
}

// openGCM authenticates and decrypts, in place, the GCM module at the
// start of buf with AAD aad. It returns the plaintext (aliasing buf) and
// the module's size.
func (k *key) openGCM(buf, aad []byte) ([]byte, int, error) {
	body, err := frame(buf, NonceSize+TagSize)
	if err != nil {
		return nil, 0, err
	}
	ct := body[NonceSize:]
	plain, err := k.gcm.Open(ct[:0], body[:NonceSize], ct, aad)
	if err != nil {
		return nil, 0, ErrAuthentication
	}
	return plain, LengthSize + len(body), nil
}

// openCTR decrypts, in place, the CTR module at the start of buf.
func (k *key) openCTR(buf []byte) ([]byte, int, error) {
	body, err := frame(buf, NonceSize)
	if err != nil {
		return nil, 0, err
	}
	ct := body[NonceSize:]
	k.ctr(body[:NonceSize]).XORKeyStream(ct, ct)
	return ct, LengthSize + len(body), nil
}

// ctr returns the CTR stream of a page with the given nonce: the IV is the
// nonce followed by a 4-byte big-endian counter that starts at 1.
func (k *key) ctr(nonce []byte) cipher.Stream {
	var iv [aes.BlockSize]byte
	copy(iv[:], nonce)
	iv[aes.BlockSize-1] = 1
	return cipher.NewCTR(k.block, iv[:])
}

// sealGCM appends to dst the GCM module of plain under a fresh random
// nonce and AAD aad.
func (k *key) sealGCM(dst, plain, aad []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(NonceSize+len(plain)+TagSize))
	at := len(dst)
	dst = append(dst, make([]byte, NonceSize)...)
	rand.Read(dst[at:])
	return k.gcm.Seal(dst, dst[at:at+NonceSize], plain, aad)
}

// sealCTR appends to dst the CTR module of plain under a fresh random
// nonce.
func (k *key) sealCTR(dst, plain []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(NonceSize+len(plain)))
	at := len(dst)
	dst = append(dst, make([]byte, NonceSize+len(plain))...)
	rand.Read(dst[at : at+NonceSize])
	k.ctr(dst[at:at+NonceSize]).XORKeyStream(dst[at+NonceSize:], plain)
	return dst
}
