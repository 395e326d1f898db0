package encrypt

import "fmt"

// OpenModule returns the plaintext of the module of type t (a module that
// is not a page) that is all of buf, decrypted in place, or buf itself when
// c is nil (a plaintext column). A module whose framing does not end at
// the end of buf is an error wrapping [ErrCorrupt].
func OpenModule(c *ChunkCipher, buf []byte, t ModuleType) ([]byte, error) {
	if c == nil {
		return buf, nil
	}
	plain, n, err := c.Open(buf, t, 0)
	if err != nil {
		return nil, err
	}
	if n != len(buf) {
		return nil, fmt.Errorf("%w: a %s module of %d bytes where the chunk metadata gives %d", ErrCorrupt, t, n, len(buf))
	}
	return plain, nil
}

// SealModule appends to dst the module of type t (a module that is not a
// page) holding plain, sealed with c, or plain itself when c is nil.
func SealModule(dst []byte, c *ChunkCipher, plain []byte, t ModuleType) ([]byte, error) {
	if c == nil {
		return append(dst, plain...), nil
	}
	return c.Seal(dst, plain, t, 0)
}
