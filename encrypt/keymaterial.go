package encrypt

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
)

// KeyMaterial is a [KeyRetriever] for files whose key metadata follows
// parquet-java's key tools ("PKMT1" key material): each data key is
// wrapped with AES-GCM by a master key, directly or through a key
// encryption key (double wrapping), and the wrapped keys sit in the key
// metadata itself or, with external storage, in a sidecar file. The
// master keys are the caller's (the local wrapping of parquet-java's
// in-memory KMS); remote KMS calls are not made.
type KeyMaterial struct {
	// MasterKeys maps a master key ID ("masterKeyID") to its key.
	MasterKeys map[string][]byte
	// External maps a key reference ("keyReference" in the key metadata)
	// to its key material, for files that store it outside (see
	// [ParseKeyMaterialFile]).
	External map[string]string
}

// keyMaterial is the PKMT1 key material and key metadata, as JSON.
type keyMaterial struct {
	Type            string `json:"keyMaterialType"`
	InternalStorage *bool  `json:"internalStorage"`
	KeyReference    string `json:"keyReference"`
	MasterKeyID     string `json:"masterKeyID"`
	WrappedDEK      string `json:"wrappedDEK"`
	DoubleWrapping  bool   `json:"doubleWrapping"`
	KEKID           string `json:"keyEncryptionKeyID"`
	WrappedKEK      string `json:"wrappedKEK"`
}

// ParseKeyMaterialFile parses the sidecar file parquet-java writes beside
// a file with external key material ("_KEY_MATERIAL_FOR_<file>.json"): a
// JSON object from key reference to key material. Errors wrap
// [ErrCorrupt].
func ParseKeyMaterialFile(b []byte) (map[string]string, error) {
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%w: key material file: %v", ErrCorrupt, err)
	}
	return m, nil
}

// RetrieveKey unwraps the data key keyMetadata describes. Unknown master
// keys and key references wrap [ErrMissingKey], a wrapped key that does not
// authenticate wraps [ErrAuthentication], malformed key material wraps
// [ErrCorrupt].
func (km *KeyMaterial) RetrieveKey(keyMetadata []byte) ([]byte, error) {
	var md keyMaterial
	if err := json.Unmarshal(keyMetadata, &md); err != nil {
		return nil, fmt.Errorf("%w: key metadata is not PKMT1 JSON: %v", ErrCorrupt, err)
	}
	mat := md
	if md.InternalStorage != nil && !*md.InternalStorage {
		ext, ok := km.External[md.KeyReference]
		if !ok {
			return nil, fmt.Errorf("%w: no external key material for key reference %q", ErrMissingKey, md.KeyReference)
		}
		if err := json.Unmarshal([]byte(ext), &mat); err != nil {
			return nil, fmt.Errorf("%w: key material of %q: %v", ErrCorrupt, md.KeyReference, err)
		}
	}
	if mat.Type != "PKMT1" {
		return nil, fmt.Errorf("%w: key material type %q (want PKMT1)", ErrCorrupt, mat.Type)
	}
	master, ok := km.MasterKeys[mat.MasterKeyID]
	if !ok {
		return nil, fmt.Errorf("%w: no master key %q", ErrMissingKey, mat.MasterKeyID)
	}
	if !mat.DoubleWrapping {
		return unwrapKey(master, mat.WrappedDEK, []byte(mat.MasterKeyID))
	}
	kek, err := unwrapKey(master, mat.WrappedKEK, []byte(mat.MasterKeyID))
	if err != nil {
		return nil, fmt.Errorf("key encryption key of master key %q: %w", mat.MasterKeyID, err)
	}
	kekID, err := base64.StdEncoding.DecodeString(mat.KEKID)
	if err != nil {
		return nil, fmt.Errorf("%w: key encryption key ID: %v", ErrCorrupt, err)
	}
	return unwrapKey(kek, mat.WrappedDEK, kekID)
}

// unwrapKey decrypts the base64 key wrapped (a nonce, the ciphertext and
// a GCM tag) with key k and AAD aad.
func unwrapKey(k []byte, wrapped string, aad []byte) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(wrapped)
	if err != nil {
		return nil, fmt.Errorf("%w: wrapped key: %v", ErrCorrupt, err)
	}
	kk, err := newKey(k)
	if err != nil {
		return nil, err
	}
	if len(b) < NonceSize+TagSize {
		return nil, fmt.Errorf("%w: wrapped key of %d bytes", ErrCorrupt, len(b))
	}
	plain, err := kk.gcm.Open(nil, b[:NonceSize], b[NonceSize:], aad)
	if err != nil {
		return nil, fmt.Errorf("%w: the wrapped key does not unwrap", ErrAuthentication)
	}
	return plain, nil
}
