package page

import (
	"testing"
)

func TestUnderstatesChunkSize(t *testing.T) {
	for s, want := range map[string]bool{
		"parquet-mr":                               true,
		"parquet-mr version 1.2.8":                 true,
		"parquet-mr version 1.2.9":                 false,
		"parquet-mr version 1.1.0 (build abc)":     true,
		"parquet-mr version 1.10.1 (build abc)":    false,
		"parquet-mr version 1.2.8-SNAPSHOT":        true,
		"parquet-cpp-arrow version 14.0.0":         false,
		"":                                         false,
		"parquet-mr version x.y":                   false,
		"impala version 1.0 (build 12) parquet-mr": false,
	} {
		if got := UnderstatesChunkSize(s); got != want {
			t.Errorf("understatesChunkSize(%q) = %v, want %v", s, got, want)
		}
	}
}
