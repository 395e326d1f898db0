package footer

// FileCryptoMetaData is the plaintext part of an encrypted footer ("PARE"
// files), which precedes the encrypted FileMetaData (thrift FileCryptoMetaData).
type FileCryptoMetaData struct {
	EncryptionAlgorithm EncryptionAlgorithm
	KeyMetadata         []byte
}

// EncryptionAlgorithm is the thrift EncryptionAlgorithm union: at most one of
// the pointers is set. When neither is, UnknownField holds the field id of a
// member this package does not know (0 when the union was empty).
type EncryptionAlgorithm struct {
	AesGcmV1     *AesGcmV1
	AesGcmCtrV1  *AesGcmCtrV1
	UnknownField int16
}

// AesGcmV1 is the AES_GCM_V1 algorithm's parameters (thrift AesGcmV1).
type AesGcmV1 struct {
	AadPrefix       []byte
	AadFileUnique   []byte
	SupplyAadPrefix Optional[bool]
}

// AesGcmCtrV1 is the AES_GCM_CTR_V1 algorithm's parameters (thrift AesGcmCtrV1).
type AesGcmCtrV1 struct {
	AadPrefix       []byte
	AadFileUnique   []byte
	SupplyAadPrefix Optional[bool]
}

// ColumnCryptoMetaData is the thrift ColumnCryptoMetaData union: at most one
// of the pointers is set. When neither is, UnknownField holds the field id of
// a member this package does not know (0 when the union was empty).
type ColumnCryptoMetaData struct {
	EncryptionWithFooterKey *EncryptionWithFooterKey
	EncryptionWithColumnKey *EncryptionWithColumnKey
	UnknownField            int16
}

// EncryptionWithFooterKey marks a column encrypted with the footer key
// (thrift EncryptionWithFooterKey).
type EncryptionWithFooterKey struct{}

// EncryptionWithColumnKey marks a column encrypted with its own key (thrift
// EncryptionWithColumnKey).
type EncryptionWithColumnKey struct {
	PathInSchema []string
	KeyMetadata  []byte
}
