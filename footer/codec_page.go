package footer

var pageHeaderInfo = structInfo{
	name: "PageHeader",
	fields: []string{1: "type", 2: "uncompressed_page_size", 3: "compressed_page_size", 4: "crc",
		5: "data_page_header", 6: "index_page_header", 7: "dictionary_page_header", 8: "data_page_header_v2"},
	types:    []byte{1: tI32, 2: tI32, 3: tI32, 4: tI32, 5: tStruct, 6: tStruct, 7: tStruct, 8: tStruct},
	required: 1<<1 | 1<<2 | 1<<3,
}

func (v *PageHeader) decode(d *decoder) {
	*v = PageHeader{}
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
			switch pageHeaderInfo.known(id, t) {
			case 1:
				v.Type = PageType(d.i32())
			case 2:
				v.UncompressedPageSize = d.i32()
			case 3:
				v.CompressedPageSize = d.i32()
			case 4:
				v.CRC = Some(d.i32())
			case 5:
				v.DataPageHeader = d.store.dataPage()
				v.DataPageHeader.decode(d)
			case 6:
				v.IndexPageHeader = new(IndexPageHeader)
				v.IndexPageHeader.decode(d)
			case 7:
				v.DictionaryPageHeader = d.store.dictionaryPage()
				v.DictionaryPageHeader.decode(d)
			case 8:
				v.DataPageHeaderV2 = d.store.dataPageV2()
				v.DataPageHeaderV2.decode(d)
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
	d.done(&pageHeaderInfo, id, seen)
}

func (v *PageHeader) encode(e *encoder) {
	var last int16
	e.i32Field(&last, 1, int32(v.Type))
	e.i32Field(&last, 2, v.UncompressedPageSize)
	e.i32Field(&last, 3, v.CompressedPageSize)
	optI32(e, &last, 4, v.CRC)
	if v.DataPageHeader != nil {
		e.field(&last, 5, tStruct)
		v.DataPageHeader.encode(e)
	}
	if v.IndexPageHeader != nil {
		e.field(&last, 6, tStruct)
		v.IndexPageHeader.encode(e)
	}
	if v.DictionaryPageHeader != nil {
		e.field(&last, 7, tStruct)
		v.DictionaryPageHeader.encode(e)
	}
	if v.DataPageHeaderV2 != nil {
		e.field(&last, 8, tStruct)
		v.DataPageHeaderV2.encode(e)
	}
	e.stop()
}

var dataPageHeaderInfo = structInfo{
	name: "DataPageHeader",
	fields: []string{1: "num_values", 2: "encoding", 3: "definition_level_encoding",
		4: "repetition_level_encoding", 5: "statistics"},
	types:    []byte{1: tI32, 2: tI32, 3: tI32, 4: tI32, 5: tStruct},
	required: 1<<1 | 1<<2 | 1<<3 | 1<<4,
}

func (v *DataPageHeader) decode(d *decoder) {
	*v = DataPageHeader{}
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
			switch dataPageHeaderInfo.known(id, t) {
			case 1:
				v.NumValues = d.i32()
			case 2:
				v.Encoding = Encoding(d.i32())
			case 3:
				v.DefinitionLevelEncoding = Encoding(d.i32())
			case 4:
				v.RepetitionLevelEncoding = Encoding(d.i32())
			case 5:
				v.Statistics = d.store.statistics(false)
				v.Statistics.decode(d)
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
	d.done(&dataPageHeaderInfo, id, seen)
}

func (v *DataPageHeader) encode(e *encoder) {
	var last int16
	e.i32Field(&last, 1, v.NumValues)
	e.i32Field(&last, 2, int32(v.Encoding))
	e.i32Field(&last, 3, int32(v.DefinitionLevelEncoding))
	e.i32Field(&last, 4, int32(v.RepetitionLevelEncoding))
	if v.Statistics != nil {
		e.field(&last, 5, tStruct)
		v.Statistics.encode(e)
	}
	e.stop()
}

var indexPageHeaderInfo = structInfo{name: "IndexPageHeader"}

func (v *IndexPageHeader) decode(d *decoder) { d.emptyStruct(&indexPageHeaderInfo) }

func (v *IndexPageHeader) encode(e *encoder) { e.stop() }

// emptyStruct reads a struct of kind s that has no fields, skipping any it
// holds.
func (d *decoder) emptyStruct(s *structInfo) {
	d.skipStruct()
	if d.err != nil {
		d.err.trace(s, 0)
	}
}

var dictionaryPageHeaderInfo = structInfo{
	name:     "DictionaryPageHeader",
	fields:   []string{1: "num_values", 2: "encoding", 3: "is_sorted"},
	types:    []byte{1: tI32, 2: tI32, 3: tTrue},
	required: 1<<1 | 1<<2,
}

func (v *DictionaryPageHeader) decode(d *decoder) {
	*v = DictionaryPageHeader{}
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
			switch dictionaryPageHeaderInfo.known(id, t) {
			case 1:
				v.NumValues = d.i32()
			case 2:
				v.Encoding = Encoding(d.i32())
			case 3:
				v.IsSorted = Some(t == tTrue)
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
	d.done(&dictionaryPageHeaderInfo, id, seen)
}

func (v *DictionaryPageHeader) encode(e *encoder) {
	var last int16
	e.i32Field(&last, 1, v.NumValues)
	e.i32Field(&last, 2, int32(v.Encoding))
	optBool(e, &last, 3, v.IsSorted)
	e.stop()
}

var dataPageHeaderV2Info = structInfo{
	name: "DataPageHeaderV2",
	fields: []string{1: "num_values", 2: "num_nulls", 3: "num_rows", 4: "encoding",
		5: "definition_levels_byte_length", 6: "repetition_levels_byte_length", 7: "is_compressed", 8: "statistics"},
	types:    []byte{1: tI32, 2: tI32, 3: tI32, 4: tI32, 5: tI32, 6: tI32, 7: tTrue, 8: tStruct},
	required: 1<<1 | 1<<2 | 1<<3 | 1<<4 | 1<<5 | 1<<6,
}

func (v *DataPageHeaderV2) decode(d *decoder) {
	*v = DataPageHeaderV2{}
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
			switch dataPageHeaderV2Info.known(id, t) {
			case 1:
				v.NumValues = d.i32()
			case 2:
				v.NumNulls = d.i32()
			case 3:
				v.NumRows = d.i32()
			case 4:
				v.Encoding = Encoding(d.i32())
			case 5:
				v.DefinitionLevelsByteLength = d.i32()
			case 6:
				v.RepetitionLevelsByteLength = d.i32()
			case 7:
				v.IsCompressed = Some(t == tTrue)
			case 8:
				v.Statistics = d.store.statistics(true)
				v.Statistics.decode(d)
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
	d.done(&dataPageHeaderV2Info, id, seen)
}

func (v *DataPageHeaderV2) encode(e *encoder) {
	var last int16
	e.i32Field(&last, 1, v.NumValues)
	e.i32Field(&last, 2, v.NumNulls)
	e.i32Field(&last, 3, v.NumRows)
	e.i32Field(&last, 4, int32(v.Encoding))
	e.i32Field(&last, 5, v.DefinitionLevelsByteLength)
	e.i32Field(&last, 6, v.RepetitionLevelsByteLength)
	optBool(e, &last, 7, v.IsCompressed)
	if v.Statistics != nil {
		e.field(&last, 8, tStruct)
		v.Statistics.encode(e)
	}
	e.stop()
}
