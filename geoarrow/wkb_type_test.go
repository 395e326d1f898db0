package geoarrow

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestWKBType(t *testing.T) {
	md := Metadata{CRS: []byte(`{"id":{"authority":"EPSG","code":4326}}`), CRSType: "projjson", Edges: "spherical"}
	typ, err := NewWKBType(arrow.BinaryTypes.LargeBinary, md)
	if err != nil {
		t.Fatal(err)
	}
	if got := arrow.GetExtensionType(ExtensionName); got == nil {
		t.Fatal("geoarrow.wkb is not registered")
	}
	back, err := (&WKBType{}).Deserialize(arrow.BinaryTypes.LargeBinary, typ.Serialize())
	if err != nil {
		t.Fatal(err)
	}
	if !typ.ExtensionEquals(back) || string(back.(*WKBType).Metadata().CRS) != string(md.CRS) {
		t.Errorf("round trip: %s became %s", typ, back)
	}
	plain, _ := NewWKBType(arrow.BinaryTypes.LargeBinary, Metadata{})
	if typ.ExtensionEquals(plain) || plain.Serialize() != "{}" {
		t.Errorf("metadata ignored by ExtensionEquals, or empty metadata serialized as %s", plain.Serialize())
	}
	if _, err := (&WKBType{}).Deserialize(arrow.BinaryTypes.Binary, `{"crs": "OGC:CRS84", "future_key": [1]}`); err != nil {
		t.Errorf("unknown keys are not ignored: %v", err)
	}
	for _, bad := range []string{`{"crs": }`, `[1]`, `{"edges": 5}`} {
		if _, err := (&WKBType{}).Deserialize(arrow.BinaryTypes.Binary, bad); err == nil {
			t.Errorf("metadata %s accepted", bad)
		}
	}
	if _, err := NewWKBType(arrow.BinaryTypes.String, Metadata{}); err == nil {
		t.Error("string storage accepted")
	}
	if _, err := NewWKBType(arrow.BinaryTypes.Binary, Metadata{CRS: []byte("EPSG:4326")}); err == nil {
		t.Error("a CRS that is not JSON accepted")
	}

	b := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	defer b.Release()
	pt := newWKB(false).u32(1).f(30, 10).b
	b.Append(pt)
	b.AppendNull()
	storage := b.NewArray()
	defer storage.Release()
	bin, _ := NewWKBType(arrow.BinaryTypes.Binary, md)
	arr := array.NewExtensionArrayWithStorage(bin, storage).(*WKBArray)
	defer arr.Release()
	if string(arr.Value(0)) != string(pt) || arr.IsValid(1) {
		t.Errorf("WKBArray values: %x, valid(1) %v", arr.Value(0), arr.IsValid(1))
	}
}
