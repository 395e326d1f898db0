//go:build duckdb_arrow

package duckdb_test

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/cdata"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/interop/duckdb"
)

// Run SQL in DuckDB over a Parquet file that Quiver reads: DuckDB scans
// the Arrow batches in Quiver's memory.
func ExampleRegisterView() {
	ctx := context.Background()
	path := writeCities()
	defer os.RemoveAll(filepath.Dir(path))

	r, err := arrowio.OpenFile(path, arrowio.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()

	db, err := sql.Open("duckdb", "") // in memory; the package registers the driver
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx) // the view belongs to one connection
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()

	rr, err := r.RecordReader(ctx)
	if err != nil {
		log.Fatal(err)
	}
	release, err := duckdb.RegisterView(ctx, conn, "cities", rr)
	rr.Release() // the view holds its own reference
	if err != nil {
		log.Fatal(err)
	}
	defer release() // runs before r.Close

	rows, err := conn.QueryContext(ctx, `
		SELECT country, count(*), sum(population)
		FROM cities GROUP BY country ORDER BY country`)
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var country string
		var n, pop int64
		if err := rows.Scan(&country, &n, &pop); err != nil {
			log.Fatal(err)
		}
		fmt.Println(country, n, pop)
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// NO 2 994000
	// PE 2 10552000
}

// Export a Quiver reader as an Arrow C stream, the interface any Arrow
// consumer takes, whatever its language. Here the consumer is arrow-go's
// importer, which wraps the C arrays without copying them, and the
// imported reader then goes to DuckDB.
func ExampleExportStream() {
	ctx := context.Background()
	path := writeCities()
	defer os.RemoveAll(filepath.Dir(path))

	r, err := arrowio.OpenFile(path, arrowio.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()

	// A consumer outside Go would get a zeroed stream from C.calloc.
	var stream cdata.CArrowArrayStream
	if err := duckdb.ExportStream(ctx, r, &stream); err != nil {
		log.Fatal(err)
	}
	imported, err := cdata.ImportCRecordReader(&stream, nil) // takes the stream over
	if err != nil {
		log.Fatal(err)
	}
	rr := imported.(array.RecordReader)

	db, err := sql.Open("duckdb", "")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	release, err := duckdb.RegisterView(ctx, conn, "cities", rr)
	rr.Release()
	if err != nil {
		log.Fatal(err)
	}
	defer release()

	var city string
	var pop int64
	err = conn.QueryRowContext(ctx, "SELECT city, population FROM cities WHERE country = 'PE' ORDER BY population DESC LIMIT 1").Scan(&city, &pop)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(city, pop)
	// Output:
	// Lima 10092000
}

// writeCities writes a small Parquet file with Quiver's writer into a new
// temporary directory and returns its path.
func writeCities() string {
	dir, err := os.MkdirTemp("", "quiver-duckdb-example")
	if err != nil {
		log.Fatal(err)
	}
	path := filepath.Join(dir, "cities.parquet")
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "city", Type: arrow.BinaryTypes.String},
		{Name: "country", Type: arrow.BinaryTypes.String},
		{Name: "population", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"Oslo", "Lima", "Bergen", "Arequipa"}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"NO", "PE", "NO", "PE"}, nil)
	b.Field(2).(*array.Int64Builder).AppendValues([]int64{709000, 10092000, 285000, 460000}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()

	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	w, err := arrowio.NewWriter(f, schema, arrowio.WriteOptions{})
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
	return path
}
