package encrypt

import (
	"crypto/rand"
	"fmt"
	"slices"

	"github.com/quiverio/quiver/footer"
)

// fileUniqueSize is the length of the random aad_file_unique a writer
// draws for each file.
const fileUniqueSize = 8

// FileEncryptor encrypts one file as its [EncryptionConfig] says: it hands
// out a [ChunkCipher] per encrypted column chunk, fills in each chunk's
// crypto metadata, and writes the encrypted or signed footer. Chunk may be
// called from several goroutines; the other methods are called by the one
// that writes the file.
type FileEncryptor struct {
	cfg     EncryptionConfig
	footer  *key
	fileAAD []byte
	alg     footer.EncryptionAlgorithm
	// cols[i] is how leaf column i is encrypted, nil for plaintext.
	cols []*columnEncryption
}

// columnEncryption is one encrypted column's key and crypto metadata.
type columnEncryption struct {
	k         *key
	footerKey bool // encrypted with the footer key
	meta      footer.ColumnCryptoMetaData
}

// NewFileEncryptor checks cfg against the file's schema (every key 16, 24
// or 32 bytes long, every ColumnKeys path a leaf) and draws the file's
// unique AAD part. Errors wrap [ErrConfig].
func NewFileEncryptor(cfg *EncryptionConfig, schema *footer.Schema) (*FileEncryptor, error) {
	if cfg.Algorithm != AesGcmV1 && cfg.Algorithm != AesGcmCtrV1 {
		return nil, fmt.Errorf("%w: unknown algorithm %v", ErrConfig, cfg.Algorithm)
	}
	fk, err := newKey(cfg.FooterKey)
	if err != nil {
		return nil, fmt.Errorf("footer key: %w", err)
	}
	fe := &FileEncryptor{cfg: *cfg, footer: fk, cols: make([]*columnEncryption, len(schema.Leaves))}
	unique := make([]byte, fileUniqueSize)
	rand.Read(unique)
	fe.fileAAD = append(slices.Clip(cfg.AADPrefix), unique...)
	// supply_aad_prefix is always written: readers such as arrow-go's
	// expect it even though parquet.thrift makes it optional.
	supply := footer.Some(cfg.AADPrefix != nil && cfg.DisableAADPrefixStorage)
	var prefix []byte // stored in the file
	if cfg.AADPrefix != nil && !cfg.DisableAADPrefixStorage {
		prefix = cfg.AADPrefix
	}
	if cfg.Algorithm == AesGcmV1 {
		fe.alg.AesGcmV1 = &footer.AesGcmV1{AadPrefix: prefix, AadFileUnique: unique, SupplyAadPrefix: supply}
	} else {
		fe.alg.AesGcmCtrV1 = &footer.AesGcmCtrV1{AadPrefix: prefix, AadFileUnique: unique, SupplyAadPrefix: supply}
	}
	for path := range cfg.ColumnKeys {
		if schema.LeafByPath(path) == nil {
			return nil, fmt.Errorf("%w: ColumnKeys names %q, which is not a leaf column", ErrConfig, path)
		}
	}
	for i, leaf := range schema.Leaves {
		ce := &columnEncryption{k: fk, footerKey: true, meta: footer.ColumnCryptoMetaData{EncryptionWithFooterKey: &footer.EncryptionWithFooterKey{}}}
		if len(cfg.ColumnKeys) > 0 {
			ck, ok := cfg.ColumnKeys[leaf.DottedPath()]
			if !ok {
				continue // plaintext
			}
			if ck.Key != nil {
				k, err := newKey(ck.Key)
				if err != nil {
					return nil, fmt.Errorf("key of column %q: %w", leaf.DottedPath(), err)
				}
				ce = &columnEncryption{k: k, meta: footer.ColumnCryptoMetaData{EncryptionWithColumnKey: &footer.EncryptionWithColumnKey{
					PathInSchema: leaf.Path, KeyMetadata: ck.KeyMetadata}}}
			}
		}
		fe.cols[i] = ce
	}
	return fe, nil
}

// Magic returns the magic the file starts and ends with: "PARE" for an
// encrypted footer, "PAR1" for a plaintext one.
func (fe *FileEncryptor) Magic() string {
	if fe.cfg.PlaintextFooter {
		return footer.MagicPlain
	}
	return footer.MagicEncrypted
}

// Chunk returns a new cipher for the modules of the chunk of leaf column
// column in row group rowGroup, or nil when the column stays plaintext.
// Ordinals past [MaxOrdinal] are an error wrapping [ErrConfig].
func (fe *FileEncryptor) Chunk(rowGroup, column int) (*ChunkCipher, error) {
	ce := fe.cols[column]
	if ce == nil {
		return nil, nil
	}
	return newChunkCipher(ce.k, fe.cfg.Algorithm, fe.fileAAD, rowGroup, column)
}

// FinishChunk records in cc, whose MetaData is complete (final offsets
// included), how chunk column of row group rowGroup is encrypted: its
// crypto metadata and, for a column with its own key or in a file with a
// plaintext footer, its ColumnMetaData encrypted into
// EncryptedColumnMetadata. The plaintext copy is then removed (encrypted
// footer) or stripped of its statistics (plaintext footer), which readers
// without the key use to find the chunk.
func (fe *FileEncryptor) FinishChunk(cc *footer.ColumnChunk, rowGroup, column int) error {
	ce := fe.cols[column]
	if ce == nil {
		return nil
	}
	cc.CryptoMetadata = &ce.meta
	if ce.footerKey && !fe.cfg.PlaintextFooter {
		return nil
	}
	c, err := fe.Chunk(rowGroup, column)
	if err != nil {
		return err
	}
	if cc.EncryptedColumnMetadata, err = c.Seal(nil, footer.Marshal(nil, cc.MetaData), ModuleColumnMetaData, 0); err != nil {
		return err
	}
	if !fe.cfg.PlaintextFooter {
		cc.MetaData = nil
		return nil
	}
	stripped := *cc.MetaData
	stripped.Statistics, stripped.EncodingStats, stripped.SizeStatistics = nil, nil, nil
	cc.MetaData = &stripped
	return nil
}

// AppendFooter appends to dst the file's footer as it goes between the
// last module and the 4-byte footer length: for an encrypted footer the
// FileCryptoMetaData and the encrypted FileMetaData module, for a
// plaintext one the FileMetaData (with the algorithm and the signing key's
// metadata set in fm) and its 28-byte signature.
func (fe *FileEncryptor) AppendFooter(dst []byte, fm *footer.FileMetaData) []byte {
	aad, _ := ModuleAAD(nil, fe.fileAAD, ModuleFooter, 0, 0, 0)
	if !fe.cfg.PlaintextFooter {
		dst = footer.Marshal(dst, &footer.FileCryptoMetaData{EncryptionAlgorithm: fe.alg, KeyMetadata: fe.cfg.FooterKeyMetadata})
		return fe.footer.sealGCM(dst, footer.Marshal(nil, fm), aad)
	}
	fm.EncryptionAlgorithm = &fe.alg
	fm.FooterSigningKeyMetadata = fe.cfg.FooterKeyMetadata
	at := len(dst)
	dst = footer.Marshal(dst, fm)
	// The signature is the nonce and tag of the footer's GCM encryption;
	// the ciphertext is dropped.
	sealed := fe.footer.sealGCM(nil, dst[at:], aad)
	dst = append(dst, sealed[LengthSize:LengthSize+NonceSize]...)
	return append(dst, sealed[len(sealed)-TagSize:]...)
}
