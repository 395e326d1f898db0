package datasets

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestGenerateDeterministic checks that two generations of every dataset
// are equal value for value, have the declared row and batch counts, and
// leak nothing.
func TestGenerateDeterministic(t *testing.T) {
	for _, d := range All() {
		t.Run(d.Name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			a := d.Generate(mem, Small)
			defer release(a)
			b := d.Generate(mem, Small)
			defer release(b)
			if len(a) != d.RowGroups {
				t.Fatalf("%d batches, want %d", len(a), d.RowGroups)
			}
			var rows int64
			for i := range a {
				if !a[i].Schema().Equal(d.Schema) {
					t.Fatalf("batch %d schema %s, want %s", i, a[i].Schema(), d.Schema)
				}
				if !array.RecordEqual(a[i], b[i]) {
					t.Fatalf("batch %d differs between two generations", i)
				}
				rows += a[i].NumRows()
			}
			if rows != int64(d.Rows(Small)) {
				t.Fatalf("%d rows, want %d", rows, d.Rows(Small))
			}
			if ArrowBytes(a) < rows {
				t.Fatalf("ArrowBytes %d below one byte per row (%d rows)", ArrowBytes(a), rows)
			}
		})
	}
}

// TestSortedKeys checks the sort orders the generators promise across
// batch boundaries: lineitem order keys, taxi pickups (up to 1.2 s of
// jitter), nested ids and string event ids.
func TestSortedKeys(t *testing.T) {
	for _, tc := range []struct {
		d     *Dataset
		col   int
		slack int64
	}{{Lineitem, 0, 0}, {Taxi, 0, 1_200_000}, {Nested, 0, 0}} {
		recs := tc.d.Generate(memory.DefaultAllocator, Small)
		prev := int64(-1 << 62)
		for _, r := range recs {
			var vals []int64
			switch c := r.Column(tc.col).(type) {
			case *array.Int64:
				vals = c.Int64Values()
			case *array.Timestamp:
				for _, v := range c.TimestampValues() {
					vals = append(vals, int64(v))
				}
			}
			for _, v := range vals {
				if v+tc.slack < prev {
					t.Fatalf("%s column %d: %d after %d", tc.d.Name, tc.col, v, prev)
				}
				prev = max(prev, v)
			}
		}
		release(recs)
	}
	recs := Strings.Generate(memory.DefaultAllocator, Small)
	defer release(recs)
	prev := ""
	for _, r := range recs {
		ids := r.Column(0).(*array.String)
		for i := range ids.Len() {
			if ids.Value(i) <= prev {
				t.Fatalf("event_id %q after %q", ids.Value(i), prev)
			}
			prev = ids.Value(i)
		}
	}
}

// TestNullFractions checks that the nullable columns carry about the null
// share their doc comments promise.
func TestNullFractions(t *testing.T) {
	for _, tc := range []struct {
		d      *Dataset
		col    string
		lo, hi float64
	}{
		{Lineitem, "l_comment", 0.08, 0.12},
		{Lineitem, "l_returned", 0.03, 0.07},
		{Taxi, "rate_code", 0.03, 0.07},
		{Strings, "tag", 0.17, 0.23},
		{Nested, "tags", 0.03, 0.07},
	} {
		recs := tc.d.Generate(memory.DefaultAllocator, Small)
		idx := tc.d.Schema.FieldIndices(tc.col)[0]
		var nulls, rows int
		for _, r := range recs {
			nulls += r.Column(idx).NullN()
			rows += int(r.NumRows())
		}
		release(recs)
		if f := float64(nulls) / float64(rows); f < tc.lo || f > tc.hi {
			t.Errorf("%s.%s: null fraction %.3f outside [%.2f, %.2f]", tc.d.Name, tc.col, f, tc.lo, tc.hi)
		}
	}
}

func TestSizeFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want Size
		err  bool
	}{{"", Full, false}, {"full", Full, false}, {"small", Small, false}, {"tiny", "", true}} {
		t.Setenv(SizeEnv, tc.env)
		got, err := SizeFromEnv()
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("%s=%q: got %q, %v; want %q, error %v", SizeEnv, tc.env, got, err, tc.want, tc.err)
		}
	}
}

func TestByName(t *testing.T) {
	for _, d := range All() {
		if ByName(d.Name) != d {
			t.Errorf("ByName(%q) did not return the dataset", d.Name)
		}
	}
	if ByName("nope") != nil {
		t.Error("ByName of an unknown name is not nil")
	}
}

func release(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}
