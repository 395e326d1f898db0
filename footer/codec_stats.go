package footer

var statisticsInfo = structInfo{
	name: "Statistics",
	fields: []string{1: "max", 2: "min", 3: "null_count", 4: "distinct_count", 5: "max_value",
		6: "min_value", 7: "is_max_value_exact", 8: "is_min_value_exact", 9: "nan_count"},
	types: []byte{1: tBinary, 2: tBinary, 3: tI64, 4: tI64, 5: tBinary, 6: tBinary, 7: tTrue, 8: tTrue, 9: tI64},
}

func (v *Statistics) decode(d *decoder) {
	if d.depth == 0 || d.store != nil {
		*v = Statistics{} // nested values arrive zeroed, unless stored
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
			switch statisticsInfo.known(id, t) {
			case 1:
				v.Max = d.bin()
			case 2:
				v.Min = d.bin()
			case 3:
				v.NullCount = Some(d.i64())
			case 4:
				v.DistinctCount = Some(d.i64())
			case 5:
				v.MaxValue = d.bin()
			case 6:
				v.MinValue = d.bin()
			case 7:
				v.IsMaxValueExact = Some(t == tTrue)
			case 8:
				v.IsMinValueExact = Some(t == tTrue)
			case 9:
				v.NanCount = Some(d.i64())
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
	d.done(&statisticsInfo, id, seen)
}

func (v *Statistics) encode(e *encoder) {
	var last int16
	optBin(e, &last, 1, v.Max)
	optBin(e, &last, 2, v.Min)
	optI64(e, &last, 3, v.NullCount)
	optI64(e, &last, 4, v.DistinctCount)
	optBin(e, &last, 5, v.MaxValue)
	optBin(e, &last, 6, v.MinValue)
	optBool(e, &last, 7, v.IsMaxValueExact)
	optBool(e, &last, 8, v.IsMinValueExact)
	optI64(e, &last, 9, v.NanCount)
	e.stop()
}

var sizeStatisticsInfo = structInfo{
	name:   "SizeStatistics",
	fields: []string{1: "unencoded_byte_array_data_bytes", 2: "repetition_level_histogram", 3: "definition_level_histogram"},
	types:  []byte{1: tI64, 2: tList, 3: tList},
}

func (v *SizeStatistics) decode(d *decoder) {
	if d.depth == 0 {
		*v = SizeStatistics{} // nested values arrive zeroed
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
			switch sizeStatisticsInfo.known(id, t) {
			case 1:
				v.UnencodedByteArrayDataBytes = Some(d.i64())
			case 2:
				v.RepetitionLevelHistogram = decodeInts[int64](d, tI64, "i64 values")
			case 3:
				v.DefinitionLevelHistogram = decodeInts[int64](d, tI64, "i64 values")
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
	d.done(&sizeStatisticsInfo, id, seen)
}

func (v *SizeStatistics) encode(e *encoder) {
	var last int16
	optI64(e, &last, 1, v.UnencodedByteArrayDataBytes)
	if v.RepetitionLevelHistogram != nil {
		encodeInts(e, &last, 2, v.RepetitionLevelHistogram, tI64)
	}
	if v.DefinitionLevelHistogram != nil {
		encodeInts(e, &last, 3, v.DefinitionLevelHistogram, tI64)
	}
	e.stop()
}

var boundingBoxInfo = structInfo{
	name:     "BoundingBox",
	fields:   []string{1: "xmin", 2: "xmax", 3: "ymin", 4: "ymax", 5: "zmin", 6: "zmax", 7: "mmin", 8: "mmax"},
	types:    []byte{1: tDouble, 2: tDouble, 3: tDouble, 4: tDouble, 5: tDouble, 6: tDouble, 7: tDouble, 8: tDouble},
	required: 1<<1 | 1<<2 | 1<<3 | 1<<4,
}

func (v *BoundingBox) decode(d *decoder) {
	*v = BoundingBox{}
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
			switch boundingBoxInfo.known(id, t) {
			case 1:
				v.Xmin = d.double()
			case 2:
				v.Xmax = d.double()
			case 3:
				v.Ymin = d.double()
			case 4:
				v.Ymax = d.double()
			case 5:
				v.Zmin = Some(d.double())
			case 6:
				v.Zmax = Some(d.double())
			case 7:
				v.Mmin = Some(d.double())
			case 8:
				v.Mmax = Some(d.double())
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
	d.done(&boundingBoxInfo, id, seen)
}

func (v *BoundingBox) encode(e *encoder) {
	var last int16
	e.doubleField(&last, 1, v.Xmin)
	e.doubleField(&last, 2, v.Xmax)
	e.doubleField(&last, 3, v.Ymin)
	e.doubleField(&last, 4, v.Ymax)
	optDouble(e, &last, 5, v.Zmin)
	optDouble(e, &last, 6, v.Zmax)
	optDouble(e, &last, 7, v.Mmin)
	optDouble(e, &last, 8, v.Mmax)
	e.stop()
}

var geospatialStatisticsInfo = structInfo{
	name:   "GeospatialStatistics",
	fields: []string{1: "bbox", 2: "geospatial_types"},
	types:  []byte{1: tStruct, 2: tList},
}

func (v *GeospatialStatistics) decode(d *decoder) {
	*v = GeospatialStatistics{}
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
			switch geospatialStatisticsInfo.known(id, t) {
			case 1:
				v.Bbox = new(BoundingBox)
				v.Bbox.decode(d)
			case 2:
				v.GeospatialTypes = decodeInts[int32](d, tI32, "i32 values")
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
	d.done(&geospatialStatisticsInfo, id, seen)
}

func (v *GeospatialStatistics) encode(e *encoder) {
	var last int16
	if v.Bbox != nil {
		e.field(&last, 1, tStruct)
		v.Bbox.encode(e)
	}
	if v.GeospatialTypes != nil {
		encodeInts(e, &last, 2, v.GeospatialTypes, tI32)
	}
	e.stop()
}
