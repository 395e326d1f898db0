// Package pageindex skips what a query does not need. It holds split-block
// bloom filters (sizing, insert, check, reading and writing them), the
// predicates a reader filters with ([Predicate]: comparisons, IN, IS NULL,
// prefix match, AND, OR, NOT in SQL's three-valued logic, on typed
// literals, exact decimals and SQL's DATE, TIME and TIMESTAMP literals
// included, on columns of every physical type and annotation, and
// [Intersects], a bounding-box test on GEOMETRY and GEOGRAPHY columns;
// [Inspect] and [Conjuncts] take them apart), their evaluation against
// min/max statistics, geospatial statistics and bloom filters (a
// tri-state [Match]), row ranges
// ([Ranges]) built from a column chunk's ColumnIndex and OffsetIndex, the
// pages and bytes a reader decodes for such rows ([AlignToPages],
// [PageBytes], [Positions]), and the construction of those indexes for a
// writer ([IndexBuilder]).
//
// The package knows Parquet metadata (package footer) and reads Arrow
// arrays to evaluate a predicate row by row ([Bound.Select]); it builds no
// arrays.
package pageindex
