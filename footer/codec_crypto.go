package footer

var fileCryptoMetaDataInfo = structInfo{
	name:     "FileCryptoMetaData",
	fields:   []string{1: "encryption_algorithm", 2: "key_metadata"},
	types:    []byte{1: tStruct, 2: tBinary},
	required: 1 << 1,
}

func (v *FileCryptoMetaData) decode(d *decoder) {
	*v = FileCryptoMetaData{}
	var last, id int16
	var seen uint32
	if d.enter() {
		for {
			var t byte
			if id, t = d.field(&last); t == tStop {
				if id, t = d.fieldSlow(&last); t == tStop {
					break
				}
			}
			switch fileCryptoMetaDataInfo.known(id, t) {
			case 1:
				v.EncryptionAlgorithm.decode(d)
			case 2:
				v.KeyMetadata = d.bin()
			default:
				d.skip(t)
				if d.err == nil {
					continue
				}
			}
			if d.err != nil {
				break
			}
			seen |= 1 << id
		}
	}
	d.done(&fileCryptoMetaDataInfo, id, seen)
}

func (v *FileCryptoMetaData) encode(e *encoder) {
	var last int16
	e.field(&last, 1, tStruct)
	v.EncryptionAlgorithm.encode(e)
	optBin(e, &last, 2, v.KeyMetadata)
	e.stop()
}

var encryptionAlgorithmInfo = structInfo{
	name:   "EncryptionAlgorithm",
	fields: []string{1: "AES_GCM_V1", 2: "AES_GCM_CTR_V1"},
}

// decode reads the union (see decodeStructPair).
func (v *EncryptionAlgorithm) decode(d *decoder) {
	*v = EncryptionAlgorithm{}
	decodeStructPair(d, &encryptionAlgorithmInfo, &v.AesGcmV1, &v.AesGcmCtrV1, &v.UnknownField)
}

func (v *EncryptionAlgorithm) encode(e *encoder) {
	var last int16
	if v.AesGcmV1 != nil {
		e.field(&last, 1, tStruct)
		v.AesGcmV1.encode(e)
	}
	if v.AesGcmCtrV1 != nil {
		e.field(&last, 2, tStruct)
		v.AesGcmCtrV1.encode(e)
	}
	if v.UnknownField != 0 {
		e.emptyStructField(&last, v.UnknownField)
	}
	e.stop()
}

var (
	aesGcmV1Info = structInfo{
		name:   "AesGcmV1",
		fields: []string{1: "aad_prefix", 2: "aad_file_unique", 3: "supply_aad_prefix"},
		types:  []byte{1: tBinary, 2: tBinary, 3: tTrue},
	}
	aesGcmCtrV1Info = structInfo{name: "AesGcmCtrV1", fields: aesGcmV1Info.fields, types: aesGcmV1Info.types}
)

func (v *AesGcmV1) decode(d *decoder) { v.decodeAs(d, &aesGcmV1Info) }

func (v *AesGcmCtrV1) decode(d *decoder) { (*AesGcmV1)(v).decodeAs(d, &aesGcmCtrV1Info) }

func (v *AesGcmCtrV1) encode(e *encoder) { (*AesGcmV1)(v).encode(e) }

// decodeAs reads an AesGcmV1 or, with s describing it, an AesGcmCtrV1: the
// two share one layout.
func (v *AesGcmV1) decodeAs(d *decoder, s *structInfo) {
	*v = AesGcmV1{}
	var last, id int16
	if d.enter() {
		for {
			var t byte
			if id, t = d.field(&last); t == tStop {
				if id, t = d.fieldSlow(&last); t == tStop {
					break
				}
			}
			switch s.known(id, t) {
			case 1:
				v.AadPrefix = d.bin()
			case 2:
				v.AadFileUnique = d.bin()
			case 3:
				v.SupplyAadPrefix = Some(t == tTrue)
			default:
				d.skip(t)
			}
			if d.err != nil {
				break
			}
		}
	}
	d.done(s, id, 0)
}

func (v *AesGcmV1) encode(e *encoder) {
	var last int16
	optBin(e, &last, 1, v.AadPrefix)
	optBin(e, &last, 2, v.AadFileUnique)
	optBool(e, &last, 3, v.SupplyAadPrefix)
	e.stop()
}

var columnCryptoMetaDataInfo = structInfo{
	name:   "ColumnCryptoMetaData",
	fields: []string{1: "ENCRYPTION_WITH_FOOTER_KEY", 2: "ENCRYPTION_WITH_COLUMN_KEY"},
}

// decode reads the union (see decodeStructPair).
func (v *ColumnCryptoMetaData) decode(d *decoder) {
	*v = ColumnCryptoMetaData{}
	decodeStructPair(d, &columnCryptoMetaDataInfo, &v.EncryptionWithFooterKey, &v.EncryptionWithColumnKey, &v.UnknownField)
}

// decodeStructPair reads a union whose members 1 and 2 are structs into *a
// and *b. Each member present is kept; an unknown member's field id goes to
// *unknown; a known id with a non-struct wire type is skipped.
func decodeStructPair[A, B any, PA interface {
	*A
	decode(*decoder)
}, PB interface {
	*B
	decode(*decoder)
}](d *decoder, info *structInfo, a *PA, b *PB, unknown *int16) {
	var last, id int16
	if d.enter() {
		for {
			var t byte
			if id, t = d.field(&last); t == tStop {
				if id, t = d.fieldSlow(&last); t == tStop {
					break
				}
			}
			switch {
			case id == 1 && t == tStruct:
				*a = PA(new(A))
				(*a).decode(d)
			case id == 2 && t == tStruct:
				*b = PB(new(B))
				(*b).decode(d)
			case id == 1 || id == 2:
				d.skip(t)
			default:
				*unknown = id
				d.skip(t)
			}
			if d.err != nil {
				break
			}
		}
	}
	d.done(info, id, 0)
}

func (v *ColumnCryptoMetaData) encode(e *encoder) {
	var last int16
	if v.EncryptionWithFooterKey != nil {
		e.field(&last, 1, tStruct)
		v.EncryptionWithFooterKey.encode(e)
	}
	if v.EncryptionWithColumnKey != nil {
		e.field(&last, 2, tStruct)
		v.EncryptionWithColumnKey.encode(e)
	}
	if v.UnknownField != 0 {
		e.emptyStructField(&last, v.UnknownField)
	}
	e.stop()
}

var encryptionWithFooterKeyInfo = structInfo{name: "EncryptionWithFooterKey"}

func (v *EncryptionWithFooterKey) decode(d *decoder) { d.emptyStruct(&encryptionWithFooterKeyInfo) }

func (v *EncryptionWithFooterKey) encode(e *encoder) { e.stop() }

var encryptionWithColumnKeyInfo = structInfo{
	name:     "EncryptionWithColumnKey",
	fields:   []string{1: "path_in_schema", 2: "key_metadata"},
	types:    []byte{1: tList, 2: tBinary},
	required: 1 << 1,
}

func (v *EncryptionWithColumnKey) decode(d *decoder) {
	*v = EncryptionWithColumnKey{}
	var last, id int16
	var seen uint32
	if d.enter() {
		for {
			var t byte
			if id, t = d.field(&last); t == tStop {
				if id, t = d.fieldSlow(&last); t == tStop {
					break
				}
			}
			switch encryptionWithColumnKeyInfo.known(id, t) {
			case 1:
				v.PathInSchema = decodeStrings(d, "strings")
			case 2:
				v.KeyMetadata = d.bin()
			default:
				d.skip(t)
				if d.err == nil {
					continue
				}
			}
			if d.err != nil {
				break
			}
			seen |= 1 << id
		}
	}
	d.done(&encryptionWithColumnKeyInfo, id, seen)
}

func (v *EncryptionWithColumnKey) encode(e *encoder) {
	var last int16
	encodeStrings(e, &last, 1, v.PathInSchema)
	optBin(e, &last, 2, v.KeyMetadata)
	e.stop()
}
