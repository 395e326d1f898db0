package pageindex_test

import (
	"fmt"
	"log"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/quiverio/quiver/pageindex"
)

// Parse a predicate from text, or build the same one from its parts.
func ExampleParse() {
	p, err := pageindex.Parse(`price >= 10 and (city = "Oslo" or city is null) and not name prefix "tmp"`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p)
	fmt.Println(pageindex.Columns(p))
	q := pageindex.And(
		pageindex.GreaterEq("price", pageindex.Int(10)),
		pageindex.Or(pageindex.Eq("city", pageindex.String("Oslo")), pageindex.IsNull("city")),
		pageindex.Not(pageindex.HasPrefix("name", "tmp")),
	)
	fmt.Println(q.String() == p.String())
	// Output:
	// (price >= 10) and ((city = "Oslo") or (city is null)) and (not (name prefix "tmp"))
	// [price city name]
	// true
}

// Size a bloom filter for 10 000 distinct values at a 1% false-positive
// rate, fill it and query it.
func ExampleBloom() {
	b := pageindex.NewBloom(pageindex.BloomBytes(10_000, 0.01))
	for i := range int64(10_000) {
		b.Insert(pageindex.HashInt64(i))
	}
	fmt.Println(b.NumBytes(), b.Check(pageindex.HashInt64(42)))
	// Output:
	// 16384 true
}

// Compare a DECIMAL column with exact decimal literals, parsed or built
// from an Arrow decimal128 value.
func ExampleParseDecimal() {
	price, err := pageindex.ParseDecimal("12.50")
	if err != nil {
		log.Fatal(err)
	}
	p := pageindex.And(pageindex.GreaterEq("price", price),
		pageindex.Less("price", pageindex.Decimal128(decimal128.FromI64(1999), 2)))
	fmt.Println(p)
	q, err := pageindex.Parse("price >= 12.50 and price < 19.99")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(q.String() == p.String())
	// Output:
	// (price >= 12.50) and (price < 19.99)
	// true
}

// Filter dates, times and timestamps with SQL's typed literals, or build
// the same literals from time values. A string compared with a DATE,
// TIME or TIMESTAMP column is read as one when bound.
func ExampleTimestamp() {
	p, err := pageindex.Parse(`day = DATE '2023-11-14' and at >= TIMESTAMP '2023-11-14 10:00:00.0005' and at < TIMESTAMPTZ '2023-11-14 12:00:00+01:00' and clock > TIME '09:30'`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p)
	t := time.Date(2023, 11, 14, 10, 0, 0, 500_000, time.UTC)
	q := pageindex.And(
		pageindex.Eq("day", pageindex.Date(t)),
		pageindex.GreaterEq("at", pageindex.Timestamp(t)),
		pageindex.Less("at", pageindex.TimestampTZ(time.Date(2023, 11, 14, 12, 0, 0, 0, time.FixedZone("CET", 3600)))),
		pageindex.Greater("clock", pageindex.TimeOfDay(9*time.Hour+30*time.Minute)),
	)
	fmt.Println(q.String() == p.String())
	_, err = pageindex.Parse(`day = DATE '2023-02-29'`)
	fmt.Println(err)
	// Output:
	// (day = DATE '2023-11-14') and (at >= TIMESTAMP '2023-11-14 10:00:00.0005') and (at < TIMESTAMPTZ '2023-11-14 11:00:00+00:00') and (clock > TIME '09:30:00')
	// true
	// pageindex: invalid predicate: offset 20: bad DATE literal "2023-02-29": day 29 is not 1 to 28
}

// Take a predicate apart: its AND-ed conjuncts, then each one's form,
// column and literals or terms.
func ExampleInspect() {
	p, err := pageindex.Parse(`year = 2024 and (day in (DATE '2024-03-01', '2024-03-02') and not (fare < 10 or tip is null))`)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range pageindex.Conjuncts(p) {
		switch parts := pageindex.Inspect(c); parts.Form {
		case pageindex.FormCompare:
			year, _ := parts.Literals[0].Int64()
			fmt.Println(parts.Column, parts.Op, year)
		case pageindex.FormIn:
			fmt.Println(parts.Column, parts.Form, parts.Literals)
		case pageindex.FormNot:
			fmt.Println(parts.Form, parts.Terms[0], "reads", pageindex.Columns(c))
		}
	}
	// Output:
	// year = 2024
	// day in [DATE '2024-03-01' "2024-03-02"]
	// not (fare < 10) or (tip is null) reads [fare tip]
}
