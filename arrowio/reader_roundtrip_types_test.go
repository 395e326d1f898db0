package arrowio_test

import (
	"math/rand/v2"
	"testing"

	"github.com/quiverio/quiver/arrowio/internal/arrowiotest"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// readBackType returns the Arrow type a column pqarrow wrote from type dt
// under s reads back as.
//
// With the ARROW:schema entry, dt itself, but for two types that neither
// Quiver nor pqarrow restores:
//   - a dictionary over int64 reads as int64: only dictionaries over
//     string and binary are restored;
//   - a nanosecond timestamp without a zone stored as INT96 reads as
//     timestamp[ns, tz=UTC], what INT96 maps to: the entry restores a
//     zone over "UTC", not the absence of one.
//
// Without it, the type the Parquet schema maps to:
//   - a dictionary reads as its value type (Parquet dictionaries are an
//     encoding, not a type);
//   - large_string and large_binary as string and binary;
//   - a decimal256 of precision 38 or less as decimal128 of the same
//     precision and scale (wider ones stay decimal256), whether stored as
//     INT32, INT64 or FIXED_LEN_BYTE_ARRAY;
//   - a timestamp with a zone as "UTC" in its unit (Parquet keeps only
//     isAdjustedToUTC), and an INT96 one as timestamp[ns, tz=UTC];
//   - the UUID extension as itself: pqarrow annotates it UUID, which
//     maps to the extension arrow-go registers.
//
// Decimals stored as INT32 or INT64 read back as the decimal written
// either way.
func readBackType(dt arrow.DataType, s roundTripSettings) arrow.DataType {
	switch t := dt.(type) {
	case *arrow.DictionaryType:
		if s.storeSchema && (t.ValueType.ID() == arrow.STRING || t.ValueType.ID() == arrow.BINARY) {
			return dt
		}
		return readBackType(t.ValueType, s)
	case *arrow.TimestampType:
		int96 := s.int96 && t.Unit == arrow.Nanosecond
		if t.TimeZone == "" && !int96 || t.TimeZone != "" && s.storeSchema {
			return dt
		}
		return &arrow.TimestampType{Unit: t.Unit, TimeZone: "UTC"}
	}
	if s.storeSchema {
		return dt
	}
	switch t := dt.(type) {
	case *arrow.LargeStringType:
		return arrow.BinaryTypes.String
	case *arrow.LargeBinaryType:
		return arrow.BinaryTypes.Binary
	case *arrow.Decimal256Type:
		if t.Precision <= 38 {
			return &arrow.Decimal128Type{Precision: t.Precision, Scale: t.Scale}
		}
	}
	return dt
}

// typeDeck deals roundTripTypes in shuffled rounds: each type comes once
// in every round of len(roundTripTypes) picks, so that every type turns
// up in every run, not only in most.
type typeDeck struct {
	rng  *rand.Rand
	left []int
}

// next deals the first type left in the round for which prefer holds,
// else any type for which it holds (outside the round), else the next
// type of the round.
func (d *typeDeck) next(prefer func(arrow.DataType) bool) flatType {
	if len(d.left) == 0 {
		d.left = d.rng.Perm(len(roundTripTypes))
	}
	for j := len(d.left) - 1; j >= 0; j-- {
		if i := d.left[j]; prefer(roundTripTypes[i].typ) {
			d.left = append(d.left[:j], d.left[j+1:]...)
			return roundTripTypes[i]
		}
	}
	for _, i := range d.rng.Perm(len(roundTripTypes)) {
		if prefer(roundTripTypes[i].typ) {
			return roundTripTypes[i]
		}
	}
	i := d.left[len(d.left)-1]
	d.left = d.left[:len(d.left)-1]
	return roundTripTypes[i]
}

// randomColumn returns randomArray's column of type dt, except for a
// decimal256 of precision 38 or less: randomArray draws decimal256 values
// of up to 252 bits, which only precision 76 holds (pqarrow refuses
// values too wide for an INT32 or INT64 precision and cuts them for a
// FIXED_LEN_BYTE_ARRAY one), so those take decimal128 values drawn for
// their precision, widened.
func randomColumn(t *testing.T, mem memory.Allocator, dt arrow.DataType, n int, nullFrac float64, lowCard bool, rng *rand.Rand) arrow.Array {
	t.Helper()
	if d, ok := dt.(*arrow.Decimal256Type); ok && d.Precision <= 38 {
		narrow := arrowiotest.RandomArray(t, mem, &arrow.Decimal128Type{Precision: d.Precision, Scale: d.Scale}, n, nullFrac, lowCard, rng)
		defer narrow.Release()
		return castColumn(t, mem, narrow, dt)
	}
	return arrowiotest.RandomArray(t, mem, dt, n, nullFrac, lowCard, rng)
}

// castColumn returns the values of a as type to (a itself, retained, when
// it has that type already), for the pairs this test needs: a dictionary
// to its value type (or to what castColumn takes that to), large_string
// and large_binary to string and binary, decimal128 to decimal256 and
// back, and a timestamp to another zone. It fails on a dictionary index
// out of range and on a decimal256 value decimal128 cannot hold.
func castColumn(t *testing.T, mem memory.Allocator, a arrow.Array, to arrow.DataType) arrow.Array {
	t.Helper()
	if arrow.TypeEqual(a.DataType(), to) {
		a.Retain()
		return a
	}
	vals, index := a, func(i int) int { return i }
	if d, ok := a.(*array.Dictionary); ok {
		vals, index = d.Dictionary(), d.GetValueIndex
	}
	b := array.NewBuilder(mem, to)
	defer b.Release()
	b.Reserve(a.Len())
	for i := range a.Len() {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		j := index(i)
		if j < 0 || j >= vals.Len() {
			t.Fatalf("%s slot %d: index %d, dictionary of %d values", a.DataType(), i, j, vals.Len())
		}
		if vals.IsNull(j) {
			b.AppendNull()
			continue
		}
		switch v := vals.(type) {
		case *array.String:
			b.(*array.StringBuilder).Append(v.Value(j))
		case *array.LargeString:
			b.(*array.StringBuilder).Append(v.Value(j))
		case *array.Binary:
			b.(*array.BinaryBuilder).Append(v.Value(j))
		case *array.LargeBinary:
			b.(*array.BinaryBuilder).Append(v.Value(j))
		case *array.Int64:
			b.(*array.Int64Builder).Append(v.Value(j))
		case *array.Timestamp:
			b.(*array.TimestampBuilder).Append(v.Value(j))
		case *array.Decimal128:
			b.(*array.Decimal256Builder).Append(decimal256.FromDecimal128(v.Value(j)))
		case *array.Decimal256:
			w := v.Value(j).Array()
			lo, hi := w[0], int64(w[1])
			if ext := uint64(hi >> 63); w[2] != ext || w[3] != ext {
				t.Fatalf("%s slot %d: %s does not fit decimal128", a.DataType(), i, v.ValueStr(j))
			}
			b.(*array.Decimal128Builder).Append(decimal128.New(hi, lo))
		default:
			t.Fatalf("castColumn: no cast from %s to %s", a.DataType(), to)
		}
	}
	return b.NewArray()
}

// dictValueType returns dt, or its value type when dt is a dictionary.
func dictValueType(dt arrow.DataType) arrow.DataType {
	if d, ok := dt.(*arrow.DictionaryType); ok {
		return d.ValueType
	}
	return dt
}

// recordValues returns rec with its dictionary columns decoded to their
// value types (rec itself, retained, when it has none).
func recordValues(t *testing.T, mem memory.Allocator, rec arrow.RecordBatch) arrow.RecordBatch {
	t.Helper()
	fields := rec.Schema().Fields()
	cols := make([]arrow.Array, len(fields))
	dict := false
	for i := range fields {
		_, isDict := fields[i].Type.(*arrow.DictionaryType)
		dict = dict || isDict
		fields[i].Type = dictValueType(fields[i].Type)
		cols[i] = castColumn(t, mem, rec.Column(i), fields[i].Type)
	}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	if !dict {
		rec.Retain()
		return rec
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, rec.NumRows())
}

// tableValues is recordValues for a table, chunk by chunk.
func tableValues(t *testing.T, mem memory.Allocator, tbl arrow.Table) arrow.Table {
	t.Helper()
	fields := tbl.Schema().Fields()
	data := make([][]arrow.Array, len(fields))
	dict := false
	for i := range fields {
		_, isDict := fields[i].Type.(*arrow.DictionaryType)
		dict = dict || isDict
		fields[i].Type = dictValueType(fields[i].Type)
		for _, ch := range tbl.Column(i).Data().Chunks() {
			data[i] = append(data[i], castColumn(t, mem, ch, fields[i].Type))
		}
	}
	defer func() {
		for _, chunks := range data {
			for _, c := range chunks {
				c.Release()
			}
		}
	}()
	if !dict {
		tbl.Retain()
		return tbl
	}
	return array.NewTableFromSlice(arrow.NewSchema(fields, nil), data)
}

// aspectNulls is the aspect of a column with both nulls and values (any
// column of the null type) in roundTripCoverage.
const aspectNulls = "random nulls"

// roundTripCoverage holds the aspects (random nulls, settings) each type
// of roundTripTypes was written with, by type name.
type roundTripCoverage map[string]map[string]bool

// aspects returns the aspects of a column of type dt written under s,
// with random nulls (values and nulls in one column; any column of the
// null type) or not. all gives every aspect a run must cover for dt:
// random nulls, dictionary encoding on and off, with and without the
// ARROW:schema entry, and the other storage settings give some types:
// INT96 for nanosecond timestamps, INT32 or INT64 for decimals of
// precision 18 or less.
func aspects(dt arrow.DataType, s roundTripSettings, nulls, all bool) []string {
	var out []string
	if nulls || all {
		out = append(out, aspectNulls)
	}
	if s.dictionary || all {
		out = append(out, "dictionary encoding")
	}
	if !s.dictionary || all {
		out = append(out, "no dictionary encoding")
	}
	if s.storeSchema || all {
		out = append(out, "ARROW:schema")
	}
	if !s.storeSchema || all {
		out = append(out, "no ARROW:schema")
	}
	switch t := dt.(type) {
	case *arrow.TimestampType:
		if t.Unit == arrow.Nanosecond && (s.int96 || all) {
			out = append(out, "INT96")
		}
	case arrow.DecimalType:
		if t.GetPrecision() <= 18 && (s.decimalAsInt || all) {
			out = append(out, "INT32/INT64")
		}
	}
	return out
}

// adds reports whether a column of dt written under s, with random nulls
// or not, would cover an aspect c has not seen for dt.
func (c roundTripCoverage) adds(dt arrow.DataType, s roundTripSettings, nulls bool) bool {
	for _, a := range aspects(dt, s, nulls, false) {
		if !c[dt.String()][a] {
			return true
		}
	}
	return false
}

// note records the aspects of a column of dt written under s, with
// random nulls or not.
func (c roundTripCoverage) note(dt arrow.DataType, s roundTripSettings, nulls bool) {
	m := c[dt.String()]
	if m == nil {
		m = make(map[string]bool)
		c[dt.String()] = m
	}
	for _, a := range aspects(dt, s, nulls, false) {
		m[a] = true
	}
}

// check fails for each type of roundTripTypes that c has not seen with
// each of its aspects.
func (c roundTripCoverage) check(t *testing.T) {
	t.Helper()
	for _, ft := range roundTripTypes {
		for _, a := range aspects(ft.typ, roundTripSettings{}, false, true) {
			if !c[ft.typ.String()][a] {
				t.Errorf("%s never written with %s", ft.typ, a)
			}
		}
	}
}
