package footer

var statisticsInfo = structInfo{
	name: "Statistics",
	fields: []string{1: "max", 2: "min", 3: "null_count", 4: "distinct_count", 5: "max_value",
		6: "min_value", 7: "is_max_value_exact", 8: "is_min_value_exact", 9: "nan_count"},
}

func (v *Statistics) decode(d *decoder) {
	*v = Statistics{}
	var last, id int16
	var seen uint32
	if d.enter() {
		for {
			var t byte
			if id, t = d.field(&last); t == tStop {
				break
			}
			switch int(id)<<4 | int(t) {
			case 1<<4 | tBinary:
				v.Max = d.bin()
			case 2<<4 | tBinary:
				v.Min = d.bin()
			case 3<<4 | tI64:
				v.NullCount = Some(d.i64())
			case 4<<4 | tI64:
				v.DistinctCount = Some(d.i64())
			case 5<<4 | tBinary:
				v.MaxValue = d.bin()
			case 6<<4 | tBinary:
				v.MinValue = d.bin()
			case 7<<4 | tTrue, 7<<4 | tFalse:
				v.IsMaxValueExact = Some(t == tTrue)
			case 8<<4 | tTrue, 8<<4 | tFalse:
				v.IsMinValueExact = Some(t == tTrue)
			case 9<<4 | tI64:
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
}

func (v *SizeStatistics) decode(d *decoder) {
	*v = SizeStatistics{}
	var last, id int16
	var seen uint32
	if d.enter() {
		for {
			var t byte
			if id, t = d.field(&last); t == tStop {
				break
			}
			switch int(id)<<4 | int(t) {
			case 1<<4 | tI64:
				v.UnencodedByteArrayDataBytes = Some(d.i64())
			case 2<<4 | tList:
				v.RepetitionLevelHistogram = decodeInts[int64](d, tI64, "i64 values")
			case 3<<4 | tList:
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
				break
			}
			switch int(id)<<4 | int(t) {
			case 1<<4 | tDouble:
				v.Xmin = d.double()
			case 2<<4 | tDouble:
				v.Xmax = d.double()
			case 3<<4 | tDouble:
				v.Ymin = d.double()
			case 4<<4 | tDouble:
				v.Ymax = d.double()
			case 5<<4 | tDouble:
				v.Zmin = Some(d.double())
			case 6<<4 | tDouble:
				v.Zmax = Some(d.double())
			case 7<<4 | tDouble:
				v.Mmin = Some(d.double())
			case 8<<4 | tDouble:
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
}

func (v *GeospatialStatistics) decode(d *decoder) {
	*v = GeospatialStatistics{}
	var last, id int16
	var seen uint32
	if d.enter() {
		for {
			var t byte
			if id, t = d.field(&last); t == tStop {
				break
			}
			switch int(id)<<4 | int(t) {
			case 1<<4 | tStruct:
				v.Bbox = new(BoundingBox)
				v.Bbox.decode(d)
			case 2<<4 | tList:
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
