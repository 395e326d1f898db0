package encrypt

import (
	"encoding/binary"
	"fmt"
)

// ChunkCipher encrypts and decrypts the modules of one column chunk: its
// page headers and pages, its ColumnMetaData, column and offset indexes
// and bloom filter header and bitset, each with the chunk's key and the
// AAD of the module's type and position. It keeps one AAD buffer, so a
// ChunkCipher is used by one goroutine at a time.
type ChunkCipher struct {
	k        *key
	ctrPages bool // pages are CTR modules (AES_GCM_CTR_V1)
	// aad is the file AAD, the module type, the row-group and column
	// ordinals and room for a page ordinal; typeAt indexes the type.
	aad    []byte
	typeAt int
	// RowGroup and Column are the chunk's ordinals, for messages.
	rowGroup, column int
}

// newChunkCipher returns the cipher of the chunk at the given ordinals.
func newChunkCipher(k *key, alg Algorithm, fileAAD []byte, rowGroup, column int) (*ChunkCipher, error) {
	aad, err := ModuleAAD(make([]byte, 0, len(fileAAD)+7), fileAAD, ModuleDataPage, rowGroup, column, 0)
	if err != nil {
		return nil, err
	}
	return &ChunkCipher{k: k, ctrPages: alg == AesGcmCtrV1, aad: aad, typeAt: len(fileAAD), rowGroup: rowGroup, column: column}, nil
}

// moduleAAD returns the AAD of module type t (page ordinal page for data
// pages and their headers), in the cipher's buffer.
func (c *ChunkCipher) moduleAAD(t ModuleType, page int) ([]byte, error) {
	c.aad[c.typeAt] = byte(t)
	if !t.hasPageOrdinal() {
		return c.aad[:c.typeAt+5], nil
	}
	if page < 0 || page > MaxOrdinal {
		return nil, fmt.Errorf("%w: page ordinal %d of row group %d, column %d does not fit the AAD's 2 bytes",
			ErrConfig, page, c.rowGroup, c.column)
	}
	binary.LittleEndian.PutUint16(c.aad[c.typeAt+5:], uint16(page))
	return c.aad, nil
}

// isCTR reports whether modules of type t are CTR modules.
func (c *ChunkCipher) isCTR(t ModuleType) bool {
	return c.ctrPages && (t == ModuleDataPage || t == ModuleDictionaryPage)
}

// Open decrypts, in place, the module of type t at the start of buf; page
// is the data page's ordinal within the chunk (data pages and their
// headers only: dictionary pages are not counted). It returns the
// plaintext, which aliases buf, and the module's size in buf, so that the
// next module starts at buf[n:].
//
// A GCM module that does not authenticate is an error wrapping
// [ErrAuthentication]; impossible framing wraps [ErrCorrupt]. Both name
// the module.
func (c *ChunkCipher) Open(buf []byte, t ModuleType, page int) (plain []byte, n int, err error) {
	aad, err := c.moduleAAD(t, page)
	if err == nil {
		if c.isCTR(t) {
			plain, n, err = c.k.openCTR(buf)
		} else {
			plain, n, err = c.k.openGCM(buf, aad)
		}
	}
	if err != nil {
		return nil, 0, c.wrap(err, t, page)
	}
	return plain, n, nil
}

// Seal appends to dst the module of type t holding plain (page as in Open)
// and returns the extended slice.
func (c *ChunkCipher) Seal(dst, plain []byte, t ModuleType, page int) ([]byte, error) {
	aad, err := c.moduleAAD(t, page)
	if err != nil {
		return nil, c.wrap(err, t, page)
	}
	if c.isCTR(t) {
		return c.k.sealCTR(dst, plain), nil
	}
	return c.k.sealGCM(dst, plain, aad), nil
}

// Overhead returns how many bytes a module of type t adds to its
// plaintext.
func (c *ChunkCipher) Overhead(t ModuleType) int {
	if c.isCTR(t) {
		return CTROverhead
	}
	return GCMOverhead
}

// wrap names the module err is about.
func (c *ChunkCipher) wrap(err error, t ModuleType, page int) error {
	if t.hasPageOrdinal() {
		return fmt.Errorf("%s %d of row group %d, column %d: %w", t, page, c.rowGroup, c.column, err)
	}
	return fmt.Errorf("%s of row group %d, column %d: %w", t, c.rowGroup, c.column, err)
}
