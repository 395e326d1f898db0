package footer

var minPageLocation = minSize(&PageLocation{})

var columnIndexInfo = structInfo{
	name: "ColumnIndex",
	fields: []string{1: "null_pages", 2: "min_values", 3: "max_values", 4: "boundary_order",
		5: "null_counts", 6: "repetition_level_histograms", 7: "definition_level_histograms", 8: "nan_counts"},
	types:    []byte{1: tList, 2: tList, 3: tList, 4: tI32, 5: tList, 6: tList, 7: tList, 8: tList},
	required: 1<<1 | 1<<2 | 1<<3 | 1<<4,
}

func (v *ColumnIndex) decode(d *decoder) {
	*v = ColumnIndex{}
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
			switch columnIndexInfo.known(id, t) {
			case 1:
				v.NullPages = decodeBools(d, "bools")
			case 2:
				v.MinValues = decodeBins(d, "binary values")
			case 3:
				v.MaxValues = decodeBins(d, "binary values")
			case 4:
				v.BoundaryOrder = BoundaryOrder(d.i32())
			case 5:
				v.NullCounts = decodeInts[int64](d, tI64, "i64 values")
			case 6:
				v.RepetitionLevelHistograms = decodeInts[int64](d, tI64, "i64 values")
			case 7:
				v.DefinitionLevelHistograms = decodeInts[int64](d, tI64, "i64 values")
			case 8:
				v.NanCounts = decodeInts[int64](d, tI64, "i64 values")
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
	d.done(&columnIndexInfo, id, seen)
}

func (v *ColumnIndex) encode(e *encoder) {
	var last int16
	encodeBools(e, &last, 1, v.NullPages)
	encodeBins(e, &last, 2, v.MinValues)
	encodeBins(e, &last, 3, v.MaxValues)
	e.i32Field(&last, 4, int32(v.BoundaryOrder))
	for i, l := range [...][]int64{v.NullCounts, v.RepetitionLevelHistograms, v.DefinitionLevelHistograms, v.NanCounts} {
		if l != nil {
			encodeInts(e, &last, int16(5+i), l, tI64)
		}
	}
	e.stop()
}

var offsetIndexInfo = structInfo{
	name:     "OffsetIndex",
	fields:   []string{1: "page_locations", 2: "unencoded_byte_array_data_bytes"},
	types:    []byte{1: tList, 2: tList},
	required: 1 << 1,
}

func (v *OffsetIndex) decode(d *decoder) {
	*v = OffsetIndex{}
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
			switch offsetIndexInfo.known(id, t) {
			case 1:
				v.PageLocations = decodeStructs[PageLocation](d, minPageLocation, "PageLocation structs")
			case 2:
				v.UnencodedByteArrayDataBytes = decodeInts[int64](d, tI64, "i64 values")
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
	d.done(&offsetIndexInfo, id, seen)
}

func (v *OffsetIndex) encode(e *encoder) {
	var last int16
	encodeStructs(e, &last, 1, v.PageLocations)
	if v.UnencodedByteArrayDataBytes != nil {
		encodeInts(e, &last, 2, v.UnencodedByteArrayDataBytes, tI64)
	}
	e.stop()
}

var pageLocationInfo = structInfo{
	name:     "PageLocation",
	fields:   []string{1: "offset", 2: "compressed_page_size", 3: "first_row_index"},
	types:    []byte{1: tI64, 2: tI32, 3: tI64},
	required: 1<<1 | 1<<2 | 1<<3,
}

func (v *PageLocation) decode(d *decoder) {
	if d.depth == 0 {
		*v = PageLocation{} // nested values arrive zeroed
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
			switch pageLocationInfo.known(id, t) {
			case 1:
				v.Offset = d.i64()
			case 2:
				v.CompressedPageSize = d.i32()
			case 3:
				v.FirstRowIndex = d.i64()
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
	d.done(&pageLocationInfo, id, seen)
}

func (v *PageLocation) encode(e *encoder) {
	var last int16
	e.i64Field(&last, 1, v.Offset)
	e.i32Field(&last, 2, v.CompressedPageSize)
	e.i64Field(&last, 3, v.FirstRowIndex)
	e.stop()
}
