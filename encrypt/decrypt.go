package encrypt

import (
	"bytes"
	"crypto/subtle"
	"fmt"

	"github.com/quiverio/quiver/footer"
)

// FileDecryptor holds what reading an encrypted file's column chunks
// needs: the algorithm, the file AAD and the key of every chunk (or why it
// is missing). It is safe for concurrent use.
type FileDecryptor struct {
	alg     Algorithm
	fileAAD []byte
	// chunks[rowGroup][column] is the chunk's key, nil for plaintext
	// chunks, or the error that stands in for a key that is missing.
	chunks [][]chunkKey
	// prefixSupplied records that the AAD prefix came from the caller, not
	// the file, so that a footer that does not authenticate can say the
	// prefix may be wrong.
	prefixSupplied bool
	// aadErr, when set, says the file AAD is unknown (an AAD prefix the
	// file does not store was not supplied): no module can be opened.
	aadErr error
}

// chunkKey is one column chunk's key or why it has none.
type chunkKey struct {
	k   *key
	err error
}

// OpenFooter parses the footer of a file from its tail, decrypting it
// with cfg's keys. For a file that is not encrypted it returns the footer
// and a nil *FileDecryptor.
//
// An encrypted ("PARE") footer needs the footer key: without cfg the
// error wraps footer.ErrEncryptedFooter and [ErrMissingKey]. A plaintext
// footer of an encrypted file is accepted without keys (its plaintext
// columns stay readable); when the footer key is known, its signature is
// verified. The ColumnMetaData of every chunk whose key is known is
// decrypted into ColumnChunk.MetaData, replacing the statistics-free copy
// of plaintext footers; a chunk whose key is missing keeps its
// ColumnChunk as stored and [FileDecryptor.Chunk] reports the missing key.
//
// The footer module is decrypted in place in t.Meta; each chunk's
// EncryptedColumnMetadata is decrypted from a copy and stays as stored.
// Errors wrap [ErrAuthentication],
// [ErrMissingKey], [ErrCorrupt], [ErrConfig] or footer.ErrCorrupt.
func OpenFooter(t *footer.Tail, cfg *DecryptionConfig) (*footer.Footer, *FileDecryptor, error) {
	if t.Magic == footer.MagicEncrypted {
		return openEncryptedFooter(t, cfg)
	}
	fm := new(footer.FileMetaData)
	n, err := footer.Unmarshal(t.Meta, fm)
	if err != nil {
		return nil, nil, fmt.Errorf("file metadata at offset %d: %w", t.MetaOffset, err)
	}
	ft, err := footer.NewFooter(fm, t)
	if err != nil || fm.EncryptionAlgorithm == nil {
		return ft, nil, err
	}
	fd, err := newFileDecryptor(fm.EncryptionAlgorithm, cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("plaintext footer at offset %d: %w", t.MetaOffset, err)
	}
	if fd.aadErr != nil {
		// Without the file AAD neither the signature nor any module can
		// be checked; the plaintext columns stay readable.
		fd.resolveChunks(ft, cfg, nil, fd.aadErr)
		return ft, fd, nil
	}
	if len(t.Meta)-n != SignatureSize {
		return nil, nil, fmt.Errorf("%w: plaintext footer at offset %d: %d bytes follow the FileMetaData, the signature has %d",
			ErrCorrupt, t.MetaOffset, len(t.Meta)-n, SignatureSize)
	}
	raw, err := cfg.footerKey(fm.FooterSigningKeyMetadata)
	var fk *key
	if err == nil {
		if fk, err = newKey(raw); err != nil {
			return nil, nil, fmt.Errorf("footer key: %w", err)
		}
		if err := fd.verifySignature(fk, t.Meta[:n], t.Meta[n:]); err != nil {
			return nil, nil, fmt.Errorf("plaintext footer at offset %d: %w%s", t.MetaOffset, err, fd.footerHint())
		}
	}
	fd.resolveChunks(ft, cfg, fk, err)
	return ft, fd, nil
}

// OpenMetadata is OpenFooter for a footer parsed earlier: fm is the
// FileMetaData of the size-byte file, kept from an earlier read of its
// footer (footer.FromMetadata checks it). Keys are looked up and the
// ColumnMetaData of encrypted chunks decrypted (and so authenticated) as
// OpenFooter does, into a copy of fm's row groups, so fm itself is never
// changed and may be shared; a plaintext footer's signature is not
// checked again, since the footer's bytes are not read.
//
// The FileMetaData of a file whose footer is encrypted ("PARE") does not
// hold the algorithm and file AAD its modules need (they are in the
// FileCryptoMetaData before it): metadata whose chunks are encrypted and
// that has no EncryptionAlgorithm is an error wrapping
// footer.ErrEncryptedFooter. Other errors are those of OpenFooter.
func OpenMetadata(fm *footer.FileMetaData, size int64, cfg *DecryptionConfig) (*footer.Footer, *FileDecryptor, error) {
	if fm != nil && fm.EncryptionAlgorithm == nil {
		for i := range fm.RowGroups {
			for j := range fm.RowGroups[i].Columns {
				if fm.RowGroups[i].Columns[j].CryptoMetadata != nil {
					return nil, nil, fmt.Errorf("%w: column chunk %d of row group %d of the metadata given is encrypted and the metadata has no encryption algorithm, so it is the metadata of a file whose footer is encrypted, and the algorithm and file AAD its columns need are only in that file's footer: open the file without the metadata",
						footer.ErrEncryptedFooter, j, i)
				}
			}
		}
		ft, err := footer.FromMetadata(fm, size)
		return ft, nil, err
	}
	if fm != nil {
		fm = withOwnChunks(fm)
	}
	ft, err := footer.FromMetadata(fm, size)
	if err != nil {
		return nil, nil, err
	}
	fd, err := newFileDecryptor(fm.EncryptionAlgorithm, cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("plaintext footer given: %w", err)
	}
	if fd.aadErr != nil {
		fd.resolveChunks(ft, cfg, nil, fd.aadErr)
		return ft, fd, nil
	}
	raw, err := cfg.footerKey(fm.FooterSigningKeyMetadata)
	var fk *key
	if err == nil {
		if fk, err = newKey(raw); err != nil {
			return nil, nil, fmt.Errorf("footer key: %w", err)
		}
	}
	fd.resolveChunks(ft, cfg, fk, err)
	return ft, fd, nil
}

// withOwnChunks returns a copy of fm whose row groups and column chunks
// are its own, for resolveChunks to fill in.
func withOwnChunks(fm *footer.FileMetaData) *footer.FileMetaData {
	c := *fm
	c.RowGroups = make([]footer.RowGroup, len(fm.RowGroups))
	for i, rg := range fm.RowGroups {
		rg.Columns = append([]footer.ColumnChunk(nil), rg.Columns...)
		c.RowGroups[i] = rg
	}
	return &c
}

// openEncryptedFooter parses a "PARE" tail: the FileCryptoMetaData, then
// the footer module.
func openEncryptedFooter(t *footer.Tail, cfg *DecryptionConfig) (*footer.Footer, *FileDecryptor, error) {
	if cfg == nil {
		return nil, nil, fmt.Errorf("%w (%w): the file's footer is encrypted and no decryption keys were given",
			footer.ErrEncryptedFooter, ErrMissingKey)
	}
	var fcm footer.FileCryptoMetaData
	n, err := footer.Unmarshal(t.Meta, &fcm)
	if err != nil {
		return nil, nil, fmt.Errorf("file crypto metadata at offset %d: %w", t.MetaOffset, err)
	}
	fd, err := newFileDecryptor(&fcm.EncryptionAlgorithm, cfg)
	if err == nil {
		err = fd.aadErr
	}
	if err != nil {
		return nil, nil, fmt.Errorf("encrypted footer at offset %d: %w", t.MetaOffset, err)
	}
	raw, err := cfg.footerKey(fcm.KeyMetadata)
	if err != nil {
		return nil, nil, fmt.Errorf("encrypted footer at offset %d: %w", t.MetaOffset, err)
	}
	fk, err := newKey(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("footer key: %w", err)
	}
	aad, _ := ModuleAAD(nil, fd.fileAAD, ModuleFooter, 0, 0, 0)
	plain, _, err := fk.openGCM(t.Meta[n:], aad)
	if err != nil {
		return nil, nil, fmt.Errorf("encrypted footer module at offset %d: %w%s", t.MetaOffset+int64(n), err, fd.footerHint())
	}
	fm := new(footer.FileMetaData)
	if _, err := footer.Unmarshal(plain, fm); err != nil {
		return nil, nil, fmt.Errorf("decrypted file metadata at offset %d: %w", t.MetaOffset+int64(n), err)
	}
	ft, err := footer.NewFooter(fm, t)
	if err != nil {
		return nil, nil, err
	}
	fd.resolveChunks(ft, cfg, fk, nil)
	return ft, fd, nil
}

// newFileDecryptor reads the algorithm's parameters and settles the file
// AAD; an AAD prefix that is required but not supplied leaves the file AAD
// unknown and sets aadErr.
func newFileDecryptor(ea *footer.EncryptionAlgorithm, cfg *DecryptionConfig) (*FileDecryptor, error) {
	var fd FileDecryptor
	var stored, unique []byte
	var supply bool
	switch {
	case ea.AesGcmV1 != nil:
		fd.alg, stored, unique, supply = AesGcmV1, ea.AesGcmV1.AadPrefix, ea.AesGcmV1.AadFileUnique, ea.AesGcmV1.SupplyAadPrefix.Value
	case ea.AesGcmCtrV1 != nil:
		fd.alg, stored, unique, supply = AesGcmCtrV1, ea.AesGcmCtrV1.AadPrefix, ea.AesGcmCtrV1.AadFileUnique, ea.AesGcmCtrV1.SupplyAadPrefix.Value
	default:
		return nil, fmt.Errorf("%w: unknown encryption algorithm (union field %d)", ErrCorrupt, ea.UnknownField)
	}
	var given []byte
	if cfg != nil {
		given = cfg.AADPrefix
	}
	prefix := stored
	switch {
	case stored != nil && given != nil && !bytes.Equal(stored, given):
		return nil, fmt.Errorf("%w: the AAD prefix given (%q) differs from the one the file stores (%q)", ErrAuthentication, given, stored)
	case stored == nil && given != nil && !supply:
		// As Arrow C++ does: a file that neither stores a prefix nor asks
		// for one was encrypted without one, and a given prefix would only
		// make every module fail to authenticate.
		return nil, fmt.Errorf("%w: an AAD prefix was supplied (DecryptionConfig.AADPrefix) but the file does not use one: it stores none and does not ask for one (supply_aad_prefix)", ErrConfig)
	case stored == nil && given != nil:
		prefix = given
		fd.prefixSupplied = true
	case stored == nil && supply:
		fd.aadErr = missing("the file's AAD prefix is not stored in it and DecryptionConfig.AADPrefix does not supply it")
		return &fd, nil
	}
	fd.fileAAD = append(append(make([]byte, 0, len(prefix)+len(unique)), prefix...), unique...)
	return &fd, nil
}

// footerHint returns what to check when the footer does not authenticate
// under the footer key: the key itself, and the AAD prefix when the caller
// supplied it.
func (fd *FileDecryptor) footerHint() string {
	if fd.prefixSupplied {
		return " (a wrong footer key, or a wrong AAD prefix supplied in DecryptionConfig.AADPrefix)"
	}
	return " (a wrong footer key, or a modified file)"
}

// verifySignature checks a plaintext footer's signature: the GCM tag of
// the serialized FileMetaData under the signature's nonce and the footer
// AAD.
func (fd *FileDecryptor) verifySignature(fk *key, meta, sig []byte) error {
	aad, _ := ModuleAAD(nil, fd.fileAAD, ModuleFooter, 0, 0, 0)
	sealed := fk.gcm.Seal(nil, sig[:NonceSize], meta, aad)
	if subtle.ConstantTimeCompare(sealed[len(meta):], sig[NonceSize:]) != 1 {
		return fmt.Errorf("%w: the footer signature does not verify", ErrAuthentication)
	}
	return nil
}

// resolveChunks finds every column chunk's key and decrypts the encrypted
// ColumnMetaData of the chunks whose key is known; a chunk whose metadata
// does not decrypt keeps that error in place of its key. fk is the footer key,
// or nil with fkErr saying why it is missing.
func (fd *FileDecryptor) resolveChunks(ft *footer.Footer, cfg *DecryptionConfig, fk *key, fkErr error) {
	byKey := map[string]*key{}
	fd.chunks = make([][]chunkKey, len(ft.Meta.RowGroups))
	for i := range ft.Meta.RowGroups {
		rg := &ft.Meta.RowGroups[i]
		fd.chunks[i] = make([]chunkKey, len(rg.Columns))
		for j := range rg.Columns {
			cc := &rg.Columns[j]
			ck := fd.chunkKey(cc, ft.Schema.Leaves[j].DottedPath(), cfg, fk, fkErr, byKey)
			fd.chunks[i][j] = ck
			if ck.k == nil || cc.EncryptedColumnMetadata == nil {
				continue
			}
			md, err := fd.columnMetaData(ck.k, cc.EncryptedColumnMetadata, i, j)
			if err != nil {
				// The other columns stay readable; this one reports why not.
				fd.chunks[i][j] = chunkKey{err: err}
				continue
			}
			cc.MetaData = md
		}
	}
}

// columnMetaData decrypts and parses the encrypted ColumnMetaData enc of
// chunk column of row group rowGroup. It decrypts a copy: enc stays as
// stored, so that the FileMetaData can open the file again
// (OpenMetadata).
func (fd *FileDecryptor) columnMetaData(k *key, enc []byte, rowGroup, column int) (*footer.ColumnMetaData, error) {
	c, err := newChunkCipher(k, fd.alg, fd.fileAAD, rowGroup, column)
	if err != nil {
		return nil, err
	}
	plain, _, err := c.Open(bytes.Clone(enc), ModuleColumnMetaData, 0)
	if err != nil {
		return nil, err
	}
	md := new(footer.ColumnMetaData)
	if _, err := footer.Unmarshal(plain, md); err != nil {
		return nil, fmt.Errorf("decrypted metadata of row group %d: %w", rowGroup, err)
	}
	return md, nil
}

// chunkKey returns the key of chunk cc of the column at path.
func (fd *FileDecryptor) chunkKey(cc *footer.ColumnChunk, path string, cfg *DecryptionConfig, fk *key, fkErr error, byKey map[string]*key) chunkKey {
	cm := cc.CryptoMetadata
	switch {
	case cm == nil:
		return chunkKey{}
	case fd.aadErr != nil:
		return chunkKey{err: fd.aadErr}
	case cm.EncryptionWithFooterKey != nil:
		if fk == nil {
			return chunkKey{err: fmt.Errorf("column %q is encrypted with the footer key: %w", path, fkErr)}
		}
		return chunkKey{k: fk}
	case cm.EncryptionWithColumnKey != nil:
		raw, err := cfg.columnKey(path, cm.EncryptionWithColumnKey.KeyMetadata)
		if err != nil {
			return chunkKey{err: err}
		}
		if k := byKey[string(raw)]; k != nil {
			return chunkKey{k: k}
		}
		k, err := newKey(raw)
		if err != nil {
			return chunkKey{err: fmt.Errorf("key of column %q: %w", path, err)}
		}
		byKey[string(raw)] = k
		return chunkKey{k: k}
	}
	return chunkKey{err: fmt.Errorf("%w: column %q has crypto metadata of unknown kind (union field %d)", ErrCorrupt, path, cm.UnknownField)}
}

// Algorithm returns the file's encryption algorithm.
func (fd *FileDecryptor) Algorithm() Algorithm { return fd.alg }

// Chunk returns a new cipher for the modules of column chunk column of
// row group rowGroup, or nil for a plaintext chunk. A chunk whose key is
// missing returns the error (wrapping [ErrMissingKey]) that says so.
func (fd *FileDecryptor) Chunk(rowGroup, column int) (*ChunkCipher, error) {
	if rowGroup < 0 || rowGroup >= len(fd.chunks) || column < 0 || column >= len(fd.chunks[rowGroup]) {
		return nil, fmt.Errorf("%w: no column chunk %d in row group %d", ErrConfig, column, rowGroup)
	}
	ck := fd.chunks[rowGroup][column]
	if ck.k == nil {
		return nil, ck.err
	}
	return newChunkCipher(ck.k, fd.alg, fd.fileAAD, rowGroup, column)
}
