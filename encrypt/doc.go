// Package encrypt implements Parquet modular encryption (parquet-format,
// "Parquet Modular Encryption"): the AES_GCM_V1 and AES_GCM_CTR_V1
// algorithms with 128-, 192- and 256-bit keys, the module layout (a 4-byte
// little-endian length, a 12-byte nonce, the ciphertext and, for GCM, a
// 16-byte tag), the additional authenticated data (AAD) of every module
// type, encrypted ("PARE") and signed plaintext footers, and the keys of
// the footer and of each column.
//
// Readers describe their keys with a [DecryptionConfig] and get a
// [FileDecryptor] from [OpenFooter]; writers describe theirs with an
// [EncryptionConfig] and get a [FileEncryptor] from [NewFileEncryptor].
// Both hand out one [ChunkCipher] per encrypted column chunk, which
// encrypts or decrypts that chunk's modules with the right key and AAD.
// Column and offset indexes and bloom filters are modules of their chunk
// like its pages: [ChunkCipher.Seal] and [ChunkCipher.Open] with
// [ModuleColumnIndex], [ModuleOffsetIndex], [ModuleBloomFilterHeader] and
// then [ModuleBloomFilterBitset] (the bitset is a module of its own right
// after the header's).
//
// Failed authentication (a wrong key, a wrong or missing AAD prefix, a
// changed byte) is an error wrapping [ErrAuthentication]; a key that is not
// available wraps [ErrMissingKey]; a module whose framing is impossible
// wraps [ErrCorrupt]. Nothing here panics on file bytes.
package encrypt
