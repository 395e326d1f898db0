package footer

var (
	bloomFilterHeaderInfo = structInfo{
		name:     "BloomFilterHeader",
		fields:   []string{1: "numBytes", 2: "algorithm", 3: "hash", 4: "compression"},
		types:    []byte{1: tI32, 2: tStruct, 3: tStruct, 4: tStruct},
		required: 1<<1 | 1<<2 | 1<<3 | 1<<4,
	}
	bloomAlgorithmInfo   = structInfo{name: "BloomFilterAlgorithm", fields: []string{1: "BLOCK"}}
	bloomHashInfo        = structInfo{name: "BloomFilterHash", fields: []string{1: "XXHASH"}}
	bloomCompressionInfo = structInfo{name: "BloomFilterCompression", fields: []string{1: "UNCOMPRESSED"}}
)

func (v *BloomFilterHeader) decode(d *decoder) {
	*v = BloomFilterHeader{}
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
			switch bloomFilterHeaderInfo.known(id, t) {
			case 1:
				v.NumBytes = d.i32()
			case 2:
				v.Algorithm = BloomFilterAlgorithm(bloomMember(d, &bloomAlgorithmInfo))
			case 3:
				v.Hash = BloomFilterHash(bloomMember(d, &bloomHashInfo))
			case 4:
				v.Compression = BloomFilterCompression(bloomMember(d, &bloomCompressionInfo))
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
	d.done(&bloomFilterHeaderInfo, id, seen)
}

// bloomMember reads one of the single-member bloom filter unions: 1 when
// its member is present, 0 (Unrecognized) otherwise.
func bloomMember(d *decoder, s *structInfo) int8 {
	if _, known := d.emptyUnion(s, 1); known {
		return 1
	}
	return 0
}

func (v *BloomFilterHeader) encode(e *encoder) {
	var last int16
	e.i32Field(&last, 1, v.NumBytes)
	for i, member := range [...]bool{v.Algorithm == BloomAlgorithmSplitBlock, v.Hash == BloomHashXxHash,
		v.Compression == BloomCompressionUncompressed} {
		e.field(&last, int16(2+i), tStruct)
		if member {
			var inner int16
			e.emptyStructField(&inner, 1)
		}
		e.stop()
	}
	e.stop()
}
