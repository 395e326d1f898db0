// Package geoarrow holds the GeoArrow "geoarrow.wkb" Arrow extension type,
// which Arrow C++, arrow-rs, GDAL and DuckDB recognise for geometries
// stored as well-known binary (WKB), and the WKB scanning that Parquet's
// geospatial statistics need.
//
// Parquet GEOMETRY and GEOGRAPHY columns read as WKBType: binary storage
// holding one WKB value per row, with the column's CRS (and, for
// GEOGRAPHY, its edge interpolation) in the extension metadata:
//
//	Parquet GEOMETRY(crs) / GEOGRAPHY(crs, algorithm)
//	  <-> geoarrow.wkb{"crs": ..., "edges": "spherical"} over binary
//
// Scan walks one WKB value without building geometries: it checks every
// count against the bytes that remain and bounds nesting, so hostile input
// gives an error, never a panic or a large allocation. Its Box and geometry
// type codes are what GeospatialStatistics store for GEOMETRY columns.
// SphericalBounds walks the same way for GEOGRAPHY columns with spherical
// edges, whose great-circle arcs reach past their vertices' latitudes and
// may cross the antimeridian: its Box is the one Parquet stores for them,
// with Xmin > Xmax for a box that wraps.
package geoarrow
