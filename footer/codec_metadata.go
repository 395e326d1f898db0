package footer

// Smallest encodings, used to bound list lengths and batch sizes.
var (
	minSchemaElement     = minSize(&SchemaElement{})
	minRowGroup          = minSize(&RowGroup{})
	minColumnChunk       = minSize(&ColumnChunk{})
	minColumnMetaData    = minSize(&ColumnMetaData{})
	minKeyValue          = minSize(&KeyValue{})
	minSortingColumn     = minSize(&SortingColumn{})
	minPageEncodingStats = minSize(&PageEncodingStats{})
	minStatistics        = minSize(&Statistics{})
	minSizeStatistics    = minSize(&SizeStatistics{})
	minColumnOrder       = minSize(&ColumnOrder{})
)

var fileMetaDataInfo = structInfo{
	name: "FileMetaData",
	fields: []string{1: "version", 2: "schema", 3: "num_rows", 4: "row_groups", 5: "key_value_metadata",
		6: "created_by", 7: "column_orders", 8: "encryption_algorithm", 9: "footer_signing_key_metadata"},
	types:    []byte{1: tI32, 2: tList, 3: tI64, 4: tList, 5: tList, 6: tBinary, 7: tList, 8: tStruct, 9: tBinary},
	required: 1<<1 | 1<<2 | 1<<3 | 1<<4,
}

func (v *FileMetaData) decode(d *decoder) {
	*v = FileMetaData{}
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
			switch fileMetaDataInfo.known(id, t) {
			case 1:
				v.Version = d.i32()
			case 2:
				v.Schema = decodeStructs[SchemaElement](d, minSchemaElement, "SchemaElement structs")
			case 3:
				v.NumRows = d.i64()
			case 4:
				v.RowGroups = decodeStructs[RowGroup](d, minRowGroup, "RowGroup structs")
			case 5:
				v.KeyValueMetadata = decodeStructs[KeyValue](d, minKeyValue, "KeyValue structs")
			case 6:
				v.CreatedBy = Some(d.str())
			case 7:
				v.ColumnOrders = decodeStructs[ColumnOrder](d, minColumnOrder, "ColumnOrder unions")
			case 8:
				v.EncryptionAlgorithm = new(EncryptionAlgorithm)
				v.EncryptionAlgorithm.decode(d)
			case 9:
				v.FooterSigningKeyMetadata = d.bin()
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
	d.done(&fileMetaDataInfo, id, seen)
}

func (v *FileMetaData) encode(e *encoder) {
	var last int16
	e.i32Field(&last, 1, v.Version)
	encodeStructs(e, &last, 2, v.Schema)
	e.i64Field(&last, 3, v.NumRows)
	encodeStructs(e, &last, 4, v.RowGroups)
	if v.KeyValueMetadata != nil {
		encodeStructs(e, &last, 5, v.KeyValueMetadata)
	}
	optStr(e, &last, 6, v.CreatedBy)
	if v.ColumnOrders != nil {
		encodeStructs(e, &last, 7, v.ColumnOrders)
	}
	if v.EncryptionAlgorithm != nil {
		e.field(&last, 8, tStruct)
		v.EncryptionAlgorithm.encode(e)
	}
	optBin(e, &last, 9, v.FooterSigningKeyMetadata)
	e.stop()
}

var schemaElementInfo = structInfo{
	name: "SchemaElement",
	fields: []string{1: "type", 2: "type_length", 3: "repetition_type", 4: "name", 5: "num_children",
		6: "converted_type", 7: "scale", 8: "precision", 9: "field_id", 10: "logicalType"},
	types:    []byte{1: tI32, 2: tI32, 3: tI32, 4: tBinary, 5: tI32, 6: tI32, 7: tI32, 8: tI32, 9: tI32, 10: tStruct},
	required: 1 << 4,
}

func (v *SchemaElement) decode(d *decoder) {
	if d.depth == 0 {
		*v = SchemaElement{} // nested values arrive zeroed
	}
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
			switch schemaElementInfo.known(id, t) {
			case 1:
				v.Type = Some(Type(d.i32()))
			case 2:
				v.TypeLength = Some(d.i32())
			case 3:
				v.RepetitionType = Some(FieldRepetitionType(d.i32()))
			case 4:
				v.Name = d.str()
			case 5:
				v.NumChildren = Some(d.i32())
			case 6:
				v.ConvertedType = Some(ConvertedType(d.i32()))
			case 7:
				v.Scale = Some(d.i32())
			case 8:
				v.Precision = Some(d.i32())
			case 9:
				v.FieldID = Some(d.i32())
			case 10:
				v.LogicalType.decode(d)
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
	d.done(&schemaElementInfo, id, seen)
}

func (v *SchemaElement) encode(e *encoder) {
	var last int16
	optI32(e, &last, 1, v.Type)
	optI32(e, &last, 2, v.TypeLength)
	optI32(e, &last, 3, v.RepetitionType)
	e.strField(&last, 4, v.Name)
	optI32(e, &last, 5, v.NumChildren)
	optI32(e, &last, 6, v.ConvertedType)
	optI32(e, &last, 7, v.Scale)
	optI32(e, &last, 8, v.Precision)
	optI32(e, &last, 9, v.FieldID)
	if v.LogicalType.Kind != LogicalNone {
		e.field(&last, 10, tStruct)
		v.LogicalType.encode(e)
	}
	e.stop()
}

var rowGroupInfo = structInfo{
	name: "RowGroup",
	fields: []string{1: "columns", 2: "total_byte_size", 3: "num_rows", 4: "sorting_columns",
		5: "file_offset", 6: "total_compressed_size", 7: "ordinal"},
	types:    []byte{1: tList, 2: tI64, 3: tI64, 4: tList, 5: tI64, 6: tI64, 7: tI16},
	required: 1<<1 | 1<<2 | 1<<3,
}

func (v *RowGroup) decode(d *decoder) {
	if d.depth == 0 {
		*v = RowGroup{} // nested values arrive zeroed
	}
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
			switch rowGroupInfo.known(id, t) {
			case 1:
				v.Columns = decodeColumnChunks(d)
			case 2:
				v.TotalByteSize = d.i64()
			case 3:
				v.NumRows = d.i64()
			case 4:
				v.SortingColumns = decodeStructs[SortingColumn](d, minSortingColumn, "SortingColumn structs")
			case 5:
				v.FileOffset = Some(d.i64())
			case 6:
				v.TotalCompressedSize = Some(d.i64())
			case 7:
				v.Ordinal = Some(d.i16())
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
	d.done(&rowGroupInfo, id, seen)
}

// decodeColumnChunks reads RowGroup.columns, telling each chunk's metadata
// its column index so that equal paths are shared across row groups.
func decodeColumnChunks(d *decoder) []ColumnChunk {
	n := d.list(tStruct, minColumnChunk, "ColumnChunk structs")
	if d.err != nil {
		return nil
	}
	v := make([]ColumnChunk, n)
	outer := d.col
	for i := range v {
		d.col, d.colsLeft = i, n-i
		v[i].decode(d)
		if d.err != nil {
			d.err.index(i)
			return nil
		}
	}
	d.col, d.colsLeft = outer, 0
	return v
}

func (v *RowGroup) encode(e *encoder) {
	var last int16
	encodeStructs(e, &last, 1, v.Columns)
	e.i64Field(&last, 2, v.TotalByteSize)
	e.i64Field(&last, 3, v.NumRows)
	if v.SortingColumns != nil {
		encodeStructs(e, &last, 4, v.SortingColumns)
	}
	optI64(e, &last, 5, v.FileOffset)
	optI64(e, &last, 6, v.TotalCompressedSize)
	optI16(e, &last, 7, v.Ordinal)
	e.stop()
}

var columnChunkInfo = structInfo{
	name: "ColumnChunk",
	fields: []string{1: "file_path", 2: "file_offset", 3: "meta_data", 4: "offset_index_offset",
		5: "offset_index_length", 6: "column_index_offset", 7: "column_index_length",
		8: "crypto_metadata", 9: "encrypted_column_metadata"},
	types:    []byte{1: tBinary, 2: tI64, 3: tStruct, 4: tI64, 5: tI32, 6: tI64, 7: tI32, 8: tStruct, 9: tBinary},
	required: 1 << 2,
}

func (v *ColumnChunk) decode(d *decoder) {
	if d.depth == 0 {
		*v = ColumnChunk{} // nested values arrive zeroed
	}
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
			switch columnChunkInfo.known(id, t) {
			case 1:
				v.FilePath = Some(d.str())
			case 2:
				v.FileOffset = d.i64()
			case 3:
				v.MetaData = perChunk(d, &d.meta().cmd, minColumnChunk+minColumnMetaData)
				v.MetaData.decode(d)
			case 4:
				v.OffsetIndexOffset = Some(d.i64())
			case 5:
				v.OffsetIndexLength = Some(d.i32())
			case 6:
				v.ColumnIndexOffset = Some(d.i64())
			case 7:
				v.ColumnIndexLength = Some(d.i32())
			case 8:
				v.CryptoMetadata = new(ColumnCryptoMetaData)
				v.CryptoMetadata.decode(d)
			case 9:
				v.EncryptedColumnMetadata = d.bin()
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
	d.done(&columnChunkInfo, id, seen)
}

func (v *ColumnChunk) encode(e *encoder) {
	var last int16
	optStr(e, &last, 1, v.FilePath)
	e.i64Field(&last, 2, v.FileOffset)
	if v.MetaData != nil {
		e.field(&last, 3, tStruct)
		v.MetaData.encode(e)
	}
	optI64(e, &last, 4, v.OffsetIndexOffset)
	optI32(e, &last, 5, v.OffsetIndexLength)
	optI64(e, &last, 6, v.ColumnIndexOffset)
	optI32(e, &last, 7, v.ColumnIndexLength)
	if v.CryptoMetadata != nil {
		e.field(&last, 8, tStruct)
		v.CryptoMetadata.encode(e)
	}
	optBin(e, &last, 9, v.EncryptedColumnMetadata)
	e.stop()
}

var columnMetaDataInfo = structInfo{
	name: "ColumnMetaData",
	fields: []string{1: "type", 2: "encodings", 3: "path_in_schema", 4: "codec", 5: "num_values",
		6: "total_uncompressed_size", 7: "total_compressed_size", 8: "key_value_metadata",
		9: "data_page_offset", 10: "index_page_offset", 11: "dictionary_page_offset", 12: "statistics",
		13: "encoding_stats", 14: "bloom_filter_offset", 15: "bloom_filter_length",
		16: "size_statistics", 17: "geospatial_statistics"},
	types:    []byte{1: tI32, 2: tList, 3: tList, 4: tI32, 5: tI64, 6: tI64, 7: tI64, 8: tList, 9: tI64, 10: tI64, 11: tI64, 12: tStruct, 13: tList, 14: tI64, 15: tI32, 16: tStruct, 17: tStruct},
	required: 1<<1 | 1<<2 | 1<<3 | 1<<4 | 1<<5 | 1<<6 | 1<<7 | 1<<9,
}

func (v *ColumnMetaData) decode(d *decoder) {
	if d.depth == 0 {
		*v = ColumnMetaData{} // nested values arrive zeroed
	}
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
			switch columnMetaDataInfo.known(id, t) {
			case 1:
				v.Type = Type(d.i32())
			case 2:
				if n := d.list(tI32, 1, "encodings"); d.err == nil {
					v.Encodings = perChunkSlice(d, &d.meta().encs, n, 1)
					readInts(d, v.Encodings, tI32)
				}
			case 3:
				v.PathInSchema = d.path()
			case 4:
				v.Codec = CompressionCodec(d.i32())
			case 5:
				v.NumValues = d.i64()
			case 6:
				v.TotalUncompressedSize = d.i64()
			case 7:
				v.TotalCompressedSize = d.i64()
			case 8:
				v.KeyValueMetadata = decodeStructs[KeyValue](d, minKeyValue, "KeyValue structs")
			case 9:
				v.DataPageOffset = d.i64()
			case 10:
				v.IndexPageOffset = Some(d.i64())
			case 11:
				v.DictionaryPageOffset = Some(d.i64())
			case 12:
				v.Statistics = perChunk(d, &d.meta().stats, minColumnChunk+minColumnMetaData+minStatistics)
				v.Statistics.decode(d)
			case 13:
				v.EncodingStats = decodePageEncodingStats(d)
			case 14:
				v.BloomFilterOffset = Some(d.i64())
			case 15:
				v.BloomFilterLength = Some(d.i32())
			case 16:
				v.SizeStatistics = perChunk(d, &d.meta().sizes, minColumnChunk+minColumnMetaData+minSizeStatistics)
				v.SizeStatistics.decode(d)
			case 17:
				v.GeospatialStatistics = new(GeospatialStatistics)
				v.GeospatialStatistics.decode(d)
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
	d.done(&columnMetaDataInfo, id, seen)
}

// path reads ColumnMetaData.path_in_schema. Within RowGroup.columns it
// reuses the previous row group's slice for the same column when the
// encoded bytes are equal, which they nearly always are.
func (d *decoder) path() []string {
	start, c, m := d.p, d.col, d.meta()
	if c >= 0 && c < len(m.paths) {
		if raw := m.paths[c].raw; len(raw) <= d.remaining() && string(d.b[start:start+len(raw)]) == string(raw) {
			d.p += len(raw)
			return m.paths[c].path
		}
	}
	n := d.list(tBinary, 1, "strings")
	if d.err != nil {
		return nil
	}
	v := perChunkSlice(d, &m.names, n, 1)
	for i := range v {
		v[i] = d.str()
	}
	if d.err == nil && c >= 0 && c <= len(m.paths) {
		pc := pathCache{raw: d.b[start:d.p], path: v}
		if c == len(m.paths) {
			m.paths = append(m.paths, pc)
		} else {
			m.paths[c] = pc
		}
	}
	return v
}

// decodePageEncodingStats reads ColumnMetaData.encoding_stats into slab
// storage.
func decodePageEncodingStats(d *decoder) []PageEncodingStats {
	n := d.list(tStruct, minPageEncodingStats, "PageEncodingStats structs")
	if d.err != nil {
		return nil
	}
	v := perChunkSlice(d, &d.meta().pes, n, minPageEncodingStats)
	for i := range v {
		v[i].decode(d)
		if d.err != nil {
			d.err.index(i)
			return nil
		}
	}
	return v
}

func (v *ColumnMetaData) encode(e *encoder) {
	var last int16
	e.i32Field(&last, 1, int32(v.Type))
	encodeInts(e, &last, 2, v.Encodings, tI32)
	encodeStrings(e, &last, 3, v.PathInSchema)
	e.i32Field(&last, 4, int32(v.Codec))
	e.i64Field(&last, 5, v.NumValues)
	e.i64Field(&last, 6, v.TotalUncompressedSize)
	e.i64Field(&last, 7, v.TotalCompressedSize)
	if v.KeyValueMetadata != nil {
		encodeStructs(e, &last, 8, v.KeyValueMetadata)
	}
	e.i64Field(&last, 9, v.DataPageOffset)
	optI64(e, &last, 10, v.IndexPageOffset)
	optI64(e, &last, 11, v.DictionaryPageOffset)
	if v.Statistics != nil {
		e.field(&last, 12, tStruct)
		v.Statistics.encode(e)
	}
	if v.EncodingStats != nil {
		encodeStructs(e, &last, 13, v.EncodingStats)
	}
	optI64(e, &last, 14, v.BloomFilterOffset)
	optI32(e, &last, 15, v.BloomFilterLength)
	if v.SizeStatistics != nil {
		e.field(&last, 16, tStruct)
		v.SizeStatistics.encode(e)
	}
	if v.GeospatialStatistics != nil {
		e.field(&last, 17, tStruct)
		v.GeospatialStatistics.encode(e)
	}
	e.stop()
}

var keyValueInfo = structInfo{
	name:     "KeyValue",
	fields:   []string{1: "key", 2: "value"},
	types:    []byte{1: tBinary, 2: tBinary},
	required: 1 << 1,
}

func (v *KeyValue) decode(d *decoder) {
	if d.depth == 0 {
		*v = KeyValue{} // nested values arrive zeroed
	}
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
			switch keyValueInfo.known(id, t) {
			case 1:
				v.Key = d.internKey()
			case 2:
				v.Value = Some(d.str())
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
	d.done(&keyValueInfo, id, seen)
}

func (v *KeyValue) encode(e *encoder) {
	var last int16
	e.strField(&last, 1, v.Key)
	optStr(e, &last, 2, v.Value)
	e.stop()
}

var sortingColumnInfo = structInfo{
	name:     "SortingColumn",
	fields:   []string{1: "column_idx", 2: "descending", 3: "nulls_first"},
	types:    []byte{1: tI32, 2: tTrue, 3: tTrue},
	required: 1<<1 | 1<<2 | 1<<3,
}

func (v *SortingColumn) decode(d *decoder) {
	if d.depth == 0 {
		*v = SortingColumn{} // nested values arrive zeroed
	}
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
			switch sortingColumnInfo.known(id, t) {
			case 1:
				v.ColumnIdx = d.i32()
			case 2:
				v.Descending = t == tTrue
			case 3:
				v.NullsFirst = t == tTrue
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
	d.done(&sortingColumnInfo, id, seen)
}

func (v *SortingColumn) encode(e *encoder) {
	var last int16
	e.i32Field(&last, 1, v.ColumnIdx)
	e.boolField(&last, 2, v.Descending)
	e.boolField(&last, 3, v.NullsFirst)
	e.stop()
}

var pageEncodingStatsInfo = structInfo{
	name:     "PageEncodingStats",
	fields:   []string{1: "page_type", 2: "encoding", 3: "count"},
	types:    []byte{1: tI32, 2: tI32, 3: tI32},
	required: 1<<1 | 1<<2 | 1<<3,
}

func (v *PageEncodingStats) decode(d *decoder) {
	if d.depth == 0 {
		*v = PageEncodingStats{} // nested values arrive zeroed
	}
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
			switch pageEncodingStatsInfo.known(id, t) {
			case 1:
				v.PageType = PageType(d.i32())
			case 2:
				v.Encoding = Encoding(d.i32())
			case 3:
				v.Count = d.i32()
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
	d.done(&pageEncodingStatsInfo, id, seen)
}

func (v *PageEncodingStats) encode(e *encoder) {
	var last int16
	e.i32Field(&last, 1, int32(v.PageType))
	e.i32Field(&last, 2, int32(v.Encoding))
	e.i32Field(&last, 3, v.Count)
	e.stop()
}
