package encrypt

import (
	"encoding/binary"
	"fmt"
	"math"
)

// ModuleType identifies the kind of an encrypted module in its AAD.
type ModuleType byte

// The module types of the specification's AAD suffix.
const (
	ModuleFooter               ModuleType = 0
	ModuleColumnMetaData       ModuleType = 1
	ModuleDataPage             ModuleType = 2
	ModuleDictionaryPage       ModuleType = 3
	ModuleDataPageHeader       ModuleType = 4
	ModuleDictionaryPageHeader ModuleType = 5
	ModuleColumnIndex          ModuleType = 6
	ModuleOffsetIndex          ModuleType = 7
	ModuleBloomFilterHeader    ModuleType = 8
	ModuleBloomFilterBitset    ModuleType = 9
)

// String returns the module type's name as the specification writes it.
func (t ModuleType) String() string {
	names := [...]string{"footer", "ColumnMetaData", "data page", "dictionary page", "data page header",
		"dictionary page header", "ColumnIndex", "OffsetIndex", "bloom filter header", "bloom filter bitset"}
	if int(t) < len(names) {
		return names[t]
	}
	return fmt.Sprintf("module type %d", byte(t))
}

// hasPageOrdinal reports whether t's AAD ends with a page ordinal.
func (t ModuleType) hasPageOrdinal() bool {
	return t == ModuleDataPage || t == ModuleDataPageHeader
}

// MaxOrdinal is the largest row-group, column or page ordinal an AAD can
// hold (a 2-byte little-endian short).
const MaxOrdinal = math.MaxInt16

// ModuleAAD appends to dst the AAD of a module: the file AAD (the AAD
// prefix followed by the file's unique identifier), the module type and,
// for every module but the footer, the row-group and column ordinals and,
// for data pages and their headers, the page ordinal. Ordinals above
// [MaxOrdinal] or below zero are an error wrapping [ErrConfig]; the
// ordinals a module type does not use are ignored.
func ModuleAAD(dst, fileAAD []byte, t ModuleType, rowGroup, column, page int) ([]byte, error) {
	dst = append(dst, fileAAD...)
	dst = append(dst, byte(t))
	if t == ModuleFooter {
		return dst, nil
	}
	ords := []int{rowGroup, column, page}
	if !t.hasPageOrdinal() {
		ords = ords[:2]
	}
	for i, o := range ords {
		if o < 0 || o > MaxOrdinal {
			what := [...]string{"row group", "column", "page"}[i]
			return nil, fmt.Errorf("%w: %s ordinal %d does not fit the AAD's 2 bytes (at most %d)", ErrConfig, what, o, MaxOrdinal)
		}
		dst = binary.LittleEndian.AppendUint16(dst, uint16(o))
	}
	return dst, nil
}
