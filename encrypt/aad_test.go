package encrypt

import (
	"bytes"
	"errors"
	"testing"
)

func TestModuleAAD(t *testing.T) {
	file := []byte("prefix|uniq")
	cases := []struct {
		t     ModuleType
		rg    int
		col   int
		page  int
		tail  []byte
		isErr bool
	}{
		{ModuleFooter, 9, 9, 9, []byte{0}, false},
		{ModuleColumnMetaData, 1, 2, 9, []byte{1, 1, 0, 2, 0}, false},
		{ModuleDataPage, 0x102, 0x304, 0x506, []byte{2, 2, 1, 4, 3, 6, 5}, false},
		{ModuleDictionaryPage, 1, 2, 3, []byte{3, 1, 0, 2, 0}, false},
		{ModuleDataPageHeader, 1, 2, 3, []byte{4, 1, 0, 2, 0, 3, 0}, false},
		{ModuleDictionaryPageHeader, 1, 2, 3, []byte{5, 1, 0, 2, 0}, false},
		{ModuleColumnIndex, 1, 2, 3, []byte{6, 1, 0, 2, 0}, false},
		{ModuleOffsetIndex, 1, 2, 3, []byte{7, 1, 0, 2, 0}, false},
		{ModuleBloomFilterHeader, 1, 2, 3, []byte{8, 1, 0, 2, 0}, false},
		{ModuleBloomFilterBitset, 32767, 2, -1, []byte{9, 0xff, 0x7f, 2, 0}, false},
		{ModuleDataPage, 0, 0, 32768, nil, true},
		{ModuleColumnIndex, 32768, 0, 0, nil, true},
		{ModuleColumnIndex, 0, -1, 0, nil, true},
	}
	for _, c := range cases {
		got, err := ModuleAAD([]byte("x"), file, c.t, c.rg, c.col, c.page)
		if c.isErr {
			if !errors.Is(err, ErrConfig) {
				t.Errorf("%v %d/%d/%d: err = %v, want ErrConfig", c.t, c.rg, c.col, c.page, err)
			}
			continue
		}
		want := append([]byte("x"+string(file)), c.tail...)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%v: got %x, %v; want %x", c.t, got, err, want)
		}
	}
}

func TestModuleTypeString(t *testing.T) {
	if s := ModuleDictionaryPageHeader.String(); s != "dictionary page header" {
		t.Errorf("got %q", s)
	}
	if s := ModuleType(10).String(); s != "module type 10" {
		t.Errorf("got %q", s)
	}
}
