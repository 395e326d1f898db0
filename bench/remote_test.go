package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	parquetgo "github.com/parquet-go/parquet-go"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/bench/datasets"
	"github.com/quiverio/quiver/bench/pqfiles"
	"github.com/quiverio/quiver/internal/latency"
	"github.com/quiverio/quiver/pageindex"
)

// Reads from an object store: lineitem dict-snappy (4 M rows, 8 columns,
// 114 MB at the full size) held in memory behind a latency.ReaderAt whose
// every request costs a round trip of 5, 20 or 80 ms plus its bytes at
// 100 MB/s, requests overlapping freely, as ranged GETs to S3 do. Each
// reader reads the same bytes through the same kind of source.

// remoteBandwidth is the bandwidth of one request, in bytes per second.
const remoteBandwidth = 100e6

// remoteColumns are the two columns of the projected read.
var remoteColumns = []string{"l_extendedprice", "l_shipdate"}

// remoteFile returns the bytes of lineitem dict-snappy at the selected
// size, and its path.
func remoteFile(b *testing.B) ([]byte, string) {
	b.Helper()
	set := files(b, datasets.Lineitem)
	var path string
	for _, c := range pqfiles.Configs(datasets.Lineitem) {
		if c.Name == "dict-snappy" {
			path = set.Path(c)
		}
	}
	buf, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return buf, path
}

// remoteRead is one reader's read of a query over src (size bytes), or
// of the local file at path when src is nil; it returns the rows read and
// the bytes its reader held fetched ahead at the peak (-1 when it does not
// tell).
type remoteRead func(src io.ReaderAt, size int64, path string, q remoteQuery) (rows, peak int64, err error)

// remoteQuery is what a read selects: nil columns for all, and a filter
// (quiver only).
type remoteQuery struct {
	name    string
	columns []string
	filter  pageindex.Predicate
}

// remoteImpls are the readers of BenchmarkRemote; local reads the file
// from disk (page cache) with quiver's defaults, the time to approach.
var remoteImpls = []struct {
	name   string
	local  bool
	lookup bool // reads the filtered query
	read   remoteRead
}{
	{"local", true, true, readQuiverRemote(arrowio.IOOptions{})},
	{"quiver", false, true, readQuiverRemote(arrowio.IOOptions{})},
	{"pqarrow-parallel", false, false, readPqarrowRemote(false)},
	{"pqarrow-parallel-buffered", false, false, readPqarrowRemote(true)},
	{"parquetgo-async", false, false, readParquetGoRemote},
}

// BenchmarkRemote times whole-file, two-column and point-lookup reads of
// lineitem dict-snappy behind 5, 20 and 80 ms of latency per request by
// quiver (default IOOptions), pqarrow (Parallel, with and without
// BufferedStream) and parquet-go (ReadModeAsync, 4 MiB read buffer), and
// by quiver from the local file. Besides time it reports requests,
// MB fetched and MB held ahead at the peak (quiver's IOStats; for the
// others, the most bytes their requests had in flight) per read.
func BenchmarkRemote(b *testing.B) {
	file, path := remoteFile(b)
	key := lookupKey(b, path)
	queries := []remoteQuery{
		{name: "whole"},
		{name: "2cols", columns: remoteColumns},
		{name: "lookup", filter: pageindex.Eq("l_orderkey", pageindex.Int(key))},
	}
	for _, lat := range []time.Duration{5 * time.Millisecond, 20 * time.Millisecond, 80 * time.Millisecond} {
		for _, q := range queries {
			for _, impl := range remoteImpls {
				if (q.filter != nil && !impl.lookup) || (impl.local && lat != 20*time.Millisecond) {
					continue
				}
				name := fmt.Sprintf("latency=%dms/query=%s/impl=%s", lat.Milliseconds(), q.name, impl.name)
				b.Run(name, func(b *testing.B) {
					benchRemote(b, file, path, lat, q, impl.local, impl.read)
				})
			}
		}
	}
}

// BenchmarkRemoteSweep reads the whole file and two columns behind 80 ms
// with quiver under IOOptions around the defaults, to choose them. (The
// hole limit matters only where wanted ranges lie apart by less than the
// limit: a filtered read's pages; this file's projected chunks touch or
// lie megabytes apart.)
func BenchmarkRemoteSweep(b *testing.B) {
	file, path := remoteFile(b)
	for _, q := range []remoteQuery{{name: "whole"}, {name: "2cols", columns: remoteColumns}} {
		for _, hole := range []int64{64 << 10, 1 << 20} {
			for _, rangeLimit := range []int64{2 << 20, 8 << 20, 32 << 20} {
				for _, conc := range []int{4, 16, 64} {
					ioOpts := arrowio.IOOptions{HoleLimit: hole, RangeLimit: rangeLimit, Concurrency: conc}
					name := fmt.Sprintf("query=%s/hole=%dK/range=%dM/conc=%d", q.name, hole>>10, rangeLimit>>20, conc)
					b.Run(name, func(b *testing.B) {
						benchRemote(b, file, path, 80*time.Millisecond, q, false, readQuiverRemote(ioOpts))
					})
				}
			}
		}
	}
}

// benchRemote times read over file behind lat, or of the local path.
func benchRemote(b *testing.B, file []byte, path string, lat time.Duration, q remoteQuery, local bool, read remoteRead) {
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	var reqs, fetched, peak int64
	for b.Loop() {
		var src *latency.ReaderAt
		var ra io.ReaderAt
		if !local {
			src = latency.New(bytes.NewReader(file), lat, remoteBandwidth)
			ra = src
		}
		rows, held, err := read(ra, int64(len(file)), path, q)
		if err != nil {
			b.Fatal(err)
		}
		if rows == 0 {
			b.Fatal("no rows read")
		}
		if src != nil {
			st := src.Stats()
			reqs += st.Requests
			fetched += st.Bytes
			if held < 0 {
				held = st.MaxInFlightBytes
			}
			peak = max(peak, held)
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(reqs)/n, "requests/op")
	b.ReportMetric(float64(fetched)/n/1e6, "MBfetched/op")
	b.ReportMetric(float64(peak)/1e6, "MBpeak")
}

// lookupKey returns an l_orderkey from the middle of the file.
func lookupKey(b *testing.B, path string) int64 {
	b.Helper()
	rd, err := arrowio.OpenFile(path, arrowio.ReadOptions{Columns: []string{"l_orderkey"}})
	if err != nil {
		b.Fatal(err)
	}
	defer rd.Close()
	rec, err := rd.ReadRowGroup(context.Background(), rd.NumRowGroups()/2)
	if err != nil {
		b.Fatal(err)
	}
	defer rec.Release()
	return rec.Column(0).(interface{ Value(int) int64 }).Value(int(rec.NumRows() / 2))
}

// readQuiverRemote reads the query with arrowio.Open over src (OpenFile
// of path when src is nil) and ReadTable, with io and otherwise the
// defaults.
func readQuiverRemote(ioOpts arrowio.IOOptions) remoteRead {
	return func(src io.ReaderAt, size int64, path string, q remoteQuery) (int64, int64, error) {
		opts := arrowio.ReadOptions{Columns: q.columns, Filter: q.filter, IO: ioOpts}
		var rd *arrowio.Reader
		var err error
		if src == nil {
			rd, err = arrowio.OpenFile(path, opts)
		} else {
			rd, err = arrowio.Open(src, size, opts)
		}
		if err != nil {
			return 0, 0, err
		}
		defer rd.Close()
		tbl, err := rd.ReadTable(context.Background())
		if err != nil {
			return 0, 0, err
		}
		defer tbl.Release()
		if q.filter != nil && tbl.NumRows() == 0 {
			return 0, 0, fmt.Errorf("the lookup found no row")
		}
		return max(tbl.NumRows(), 1), rd.IOStats().PeakBuffered, nil
	}
}

// readPqarrowRemote reads the query with pqarrow over src: Parallel on,
// BatchSize 65536, and BufferedStream with 1 MiB buffers when buffered
// (otherwise each column chunk is one ReadAt).
func readPqarrowRemote(buffered bool) remoteRead {
	return func(src io.ReaderAt, size int64, _ string, q remoteQuery) (int64, int64, error) {
		props := parquet.NewReaderProperties(memory.DefaultAllocator)
		props.BufferedStreamEnabled = buffered
		props.BufferSize = 1 << 20
		rdr, err := file.NewParquetReader(io.NewSectionReader(src, 0, size), file.WithReadProps(props))
		if err != nil {
			return 0, 0, err
		}
		defer rdr.Close()
		fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 65536, Parallel: true}, memory.DefaultAllocator)
		if err != nil {
			return 0, 0, err
		}
		var tbl arrow.Table
		if q.columns == nil {
			tbl, err = fr.ReadTable(context.Background())
		} else {
			var leaves []int
			for _, c := range q.columns {
				leaves = append(leaves, rdr.MetaData().Schema.ColumnIndexByName(c))
			}
			tbl, err = fr.ReadRowGroups(context.Background(), leaves, pick(all, rdr.NumRowGroups()))
		}
		if err != nil {
			return 0, 0, err
		}
		defer tbl.Release()
		return tbl.NumRows(), -1, nil
	}
}

// readParquetGoRemote reads the query with parquet-go over src, in
// ReadModeAsync with 4 MiB read buffers (its documentation's advice for
// network storage), through its columnar page reads (readParquetGoFile).
func readParquetGoRemote(src io.ReaderAt, size int64, _ string, q remoteQuery) (int64, int64, error) {
	pf, err := parquetgo.OpenFile(src, size, parquetgo.FileReadMode(parquetgo.ReadModeAsync), parquetgo.ReadBufferSize(4<<20))
	if err != nil {
		return 0, 0, err
	}
	var leaves []int
	for _, c := range q.columns {
		lc, ok := pf.Schema().Lookup(c)
		if !ok {
			return 0, 0, fmt.Errorf("parquetgo: no column %q", c)
		}
		leaves = append(leaves, lc.ColumnIndex)
	}
	rows, err := readParquetGoFile(pf, leaves, all, &pgBuffers{})
	return rows, -1, err
}
