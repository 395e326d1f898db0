package footer

// logicalKinds maps LogicalType union field ids to kinds; logicalIDs is the
// inverse.
var (
	logicalKinds = [...]LogicalKind{1: LogicalString, 2: LogicalMap, 3: LogicalList, 4: LogicalEnum,
		5: LogicalDecimal, 6: LogicalDate, 7: LogicalTime, 8: LogicalTimestamp, 10: LogicalInteger,
		11: LogicalUnknown, 12: LogicalJSON, 13: LogicalBSON, 14: LogicalUUID, 15: LogicalFloat16,
		16: LogicalVariant, 17: LogicalGeometry, 18: LogicalGeography, 19: LogicalFile}
	logicalIDs = func() (ids [LogicalUnrecognized]int16) {
		for id, k := range logicalKinds {
			ids[k] = int16(id)
		}
		ids[LogicalNone] = 0
		return ids
	}()
)

var logicalTypeInfo = structInfo{
	name: "LogicalType",
	fields: []string{1: "STRING", 2: "MAP", 3: "LIST", 4: "ENUM", 5: "DECIMAL", 6: "DATE", 7: "TIME",
		8: "TIMESTAMP", 10: "INTEGER", 11: "UNKNOWN", 12: "JSON", 13: "BSON", 14: "UUID", 15: "FLOAT16",
		16: "VARIANT", 17: "GEOMETRY", 18: "GEOGRAPHY", 19: "FILE"},
}

// decode reads the union. A member this package does not know becomes
// LogicalUnrecognized; a known member with a non-struct wire type is skipped;
// when several members are present the last one wins.
func (v *LogicalType) decode(d *decoder) {
	*v = LogicalType{}
	var last, id int16
	if d.enter() {
		for {
			var t byte
			if id, t = d.field(&last); t == tStop {
				if id, t = d.fieldSlow(&last); t == tStop {
					break
				}
			}
			var k LogicalKind
			if id > 0 && int(id) < len(logicalKinds) {
				k = logicalKinds[id]
			}
			switch {
			case k == LogicalNone:
				d.skip(t)
				*v = LogicalType{Kind: LogicalUnrecognized, UnknownField: id}
			case t != tStruct:
				d.skip(t)
			default:
				*v = LogicalType{Kind: k}
				switch k {
				case LogicalDecimal:
					v.Decimal.decode(d)
				case LogicalTime:
					v.Time.decode(d)
				case LogicalTimestamp:
					v.Timestamp.decode(d)
				case LogicalInteger:
					v.Integer.decode(d)
				case LogicalVariant:
					v.Variant.decode(d)
				case LogicalGeometry:
					v.Geometry.decode(d)
				case LogicalGeography:
					v.Geography.decode(d)
				default:
					d.skipStruct()
				}
			}
			if d.err != nil {
				break
			}
		}
	}
	d.done(&logicalTypeInfo, id, 0)
}

// encode writes the member named by Kind; LogicalNone (or a Kind out of
// range) writes an empty union.
func (v *LogicalType) encode(e *encoder) {
	var last int16
	switch k := v.Kind; {
	case k == LogicalUnrecognized:
		e.emptyStructField(&last, v.UnknownField)
	case k > LogicalNone && k < LogicalUnrecognized:
		e.field(&last, logicalIDs[k], tStruct)
		switch k {
		case LogicalDecimal:
			v.Decimal.encode(e)
		case LogicalTime:
			v.Time.encode(e)
		case LogicalTimestamp:
			v.Timestamp.encode(e)
		case LogicalInteger:
			v.Integer.encode(e)
		case LogicalVariant:
			v.Variant.encode(e)
		case LogicalGeometry:
			v.Geometry.encode(e)
		case LogicalGeography:
			v.Geography.encode(e)
		default:
			e.stop()
		}
	}
	e.stop()
}

var decimalTypeInfo = structInfo{
	name:     "DecimalType",
	fields:   []string{1: "scale", 2: "precision"},
	types:    []byte{1: tI32, 2: tI32},
	required: 1<<1 | 1<<2,
}

func (v *DecimalType) decode(d *decoder) {
	*v = DecimalType{}
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
			switch decimalTypeInfo.known(id, t) {
			case 1:
				v.Scale = d.i32()
			case 2:
				v.Precision = d.i32()
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
	d.done(&decimalTypeInfo, id, seen)
}

func (v *DecimalType) encode(e *encoder) {
	var last int16
	e.i32Field(&last, 1, v.Scale)
	e.i32Field(&last, 2, v.Precision)
	e.stop()
}

var (
	timeTypeInfo = structInfo{
		name:     "TimeType",
		fields:   []string{1: "isAdjustedToUTC", 2: "unit"},
		types:    []byte{1: tTrue, 2: tStruct},
		required: 1<<1 | 1<<2,
	}
	timestampTypeInfo = structInfo{
		name:     "TimestampType",
		fields:   timeTypeInfo.fields,
		types:    timeTypeInfo.types,
		required: timeTypeInfo.required,
	}
	timeUnitInfo = structInfo{
		name:   "TimeUnit",
		fields: []string{1: "MILLIS", 2: "MICROS", 3: "NANOS"},
	}
)

func (v *TimeType) decode(d *decoder) { v.decodeAs(d, &timeTypeInfo) }

func (v *TimestampType) decode(d *decoder) { (*TimeType)(v).decodeAs(d, &timestampTypeInfo) }

func (v *TimeType) encode(e *encoder) {
	var last int16
	e.boolField(&last, 1, v.IsAdjustedToUTC)
	e.field(&last, 2, tStruct)
	v.Unit.encode(e)
	e.stop()
}

func (v *TimestampType) encode(e *encoder) { (*TimeType)(v).encode(e) }

// decodeAs reads a TimeType or, with s describing it, a TimestampType: the
// two share one layout.
func (v *TimeType) decodeAs(d *decoder, s *structInfo) {
	*v = TimeType{}
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
			switch s.known(id, t) {
			case 1:
				v.IsAdjustedToUTC = t == tTrue
			case 2:
				v.Unit.decode(d)
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
	d.done(s, id, seen)
}

// decode reads the TimeUnit union; members other than MILLIS, MICROS and
// NANOS, and an empty union, give TimeUnitUnrecognized.
func (u *TimeUnit) decode(d *decoder) {
	*u = TimeUnitUnrecognized
	if id, known := d.emptyUnion(&timeUnitInfo, 3); known {
		*u = TimeUnit(id)
	}
}

// encode writes the TimeUnit union; TimeUnitUnrecognized (or any value
// other than the three units) writes an empty union.
func (u *TimeUnit) encode(e *encoder) {
	if *u >= TimeUnitMillis && *u <= TimeUnitNanos {
		var last int16
		e.emptyStructField(&last, int16(*u))
	}
	e.stop()
}

var intTypeInfo = structInfo{
	name:     "IntType",
	fields:   []string{1: "bitWidth", 2: "isSigned"},
	types:    []byte{1: tByte, 2: tTrue},
	required: 1<<1 | 1<<2,
}

func (v *IntType) decode(d *decoder) {
	*v = IntType{}
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
			switch intTypeInfo.known(id, t) {
			case 1:
				v.BitWidth = d.i8()
			case 2:
				v.IsSigned = t == tTrue
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
	d.done(&intTypeInfo, id, seen)
}

func (v *IntType) encode(e *encoder) {
	var last int16
	e.i8Field(&last, 1, v.BitWidth)
	e.boolField(&last, 2, v.IsSigned)
	e.stop()
}

var variantTypeInfo = structInfo{
	name:   "VariantType",
	fields: []string{1: "specification_version"},
	types:  []byte{1: tByte},
}

func (v *VariantType) decode(d *decoder) {
	*v = VariantType{}
	var last, id int16
	if d.enter() {
		for {
			var t byte
			if id, t = d.field(&last); t == tStop {
				if id, t = d.fieldSlow(&last); t == tStop {
					break
				}
			}
			if variantTypeInfo.known(id, t) == 1 {
				v.SpecificationVersion = Some(d.i8())
			} else {
				d.skip(t)
			}
			if d.err != nil {
				break
			}
		}
	}
	d.done(&variantTypeInfo, id, 0)
}

func (v *VariantType) encode(e *encoder) {
	var last int16
	optI8(e, &last, 1, v.SpecificationVersion)
	e.stop()
}

var geometryTypeInfo = structInfo{
	name:   "GeometryType",
	fields: []string{1: "crs"},
	types:  []byte{1: tBinary},
}

func (v *GeometryType) decode(d *decoder) {
	*v = GeometryType{}
	var last, id int16
	if d.enter() {
		for {
			var t byte
			if id, t = d.field(&last); t == tStop {
				if id, t = d.fieldSlow(&last); t == tStop {
					break
				}
			}
			if geometryTypeInfo.known(id, t) == 1 {
				v.CRS = Some(d.str())
			} else {
				d.skip(t)
			}
			if d.err != nil {
				break
			}
		}
	}
	d.done(&geometryTypeInfo, id, 0)
}

func (v *GeometryType) encode(e *encoder) {
	var last int16
	optStr(e, &last, 1, v.CRS)
	e.stop()
}

var geographyTypeInfo = structInfo{
	name:   "GeographyType",
	fields: []string{1: "crs", 2: "algorithm"},
	types:  []byte{1: tBinary, 2: tI32},
}

func (v *GeographyType) decode(d *decoder) {
	*v = GeographyType{}
	var last, id int16
	if d.enter() {
		for {
			var t byte
			if id, t = d.field(&last); t == tStop {
				if id, t = d.fieldSlow(&last); t == tStop {
					break
				}
			}
			switch geographyTypeInfo.known(id, t) {
			case 1:
				v.CRS = Some(d.str())
			case 2:
				v.Algorithm = Some(EdgeInterpolationAlgorithm(d.i32()))
			default:
				d.skip(t)
			}
			if d.err != nil {
				break
			}
		}
	}
	d.done(&geographyTypeInfo, id, 0)
}

func (v *GeographyType) encode(e *encoder) {
	var last int16
	optStr(e, &last, 1, v.CRS)
	optI32(e, &last, 2, v.Algorithm)
	e.stop()
}

var columnOrderInfo = structInfo{
	name:   "ColumnOrder",
	fields: []string{1: "TYPE_ORDER", 2: "IEEE_754_TOTAL_ORDER", 3: "INT96_TIMESTAMP_ORDER"},
}

// decode reads the ColumnOrder union; the last member present wins.
func (v *ColumnOrder) decode(d *decoder) {
	*v = ColumnOrder{}
	switch id, known := d.emptyUnion(&columnOrderInfo, 3); {
	case known:
		v.Kind = ColumnOrderKind(id)
	case id != 0:
		*v = ColumnOrder{Kind: ColumnOrderUnrecognized, UnknownField: id}
	}
}

// encode writes the member named by Kind; the zero Kind (or one out of
// range) writes an empty union.
func (v *ColumnOrder) encode(e *encoder) {
	var last int16
	switch {
	case v.Kind == ColumnOrderUnrecognized:
		e.emptyStructField(&last, v.UnknownField)
	case v.Kind >= ColumnOrderTypeDefined && v.Kind <= ColumnOrderInt96Timestamp:
		e.emptyStructField(&last, int16(v.Kind))
	}
	e.stop()
}

// emptyUnion reads a union whose members are empty structs numbered 1 to n
// (TimeUnit, ColumnOrder, the bloom filter unions). It returns the field id
// of the last member present and whether that member is one of the n known
// ones; a known id with a non-struct wire type is skipped and ignored, and
// an empty union gives (0, false).
func (d *decoder) emptyUnion(s *structInfo, n int16) (member int16, known bool) {
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
			case id >= 1 && id <= n && t == tStruct:
				member, known = id, true
				d.skipStruct()
			case id >= 1 && id <= n:
				d.skip(t)
			default:
				member, known = id, false
				d.skip(t)
			}
			if d.err != nil {
				break
			}
		}
	}
	d.done(s, id, 0)
	return member, known
}
