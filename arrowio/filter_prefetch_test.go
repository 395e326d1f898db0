package arrowio_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/internal/latency"
	"github.com/quiverio/quiver/pageindex"
)

// TestFilteredReadFetchesAhead reads one id of each of 8 row groups
// through Open behind 20 ms a request, one row group at a time
// (Parallelism 1), and checks the rows are those of the unfiltered read
// at those ids, with the predicate's pages of every row group fetched
// ahead: at most one round trip for the page indexes (none for those the
// footer's read holds), one for the predicate's pages of all the row
// groups, and one for each row group's other columns, where reading the
// predicate's pages group by group costs two a row group.
func TestFilteredReadFetchesAhead(t *testing.T) {
	const groups = 8
	file := plannerFile(t, groups, arrowio.WriteOptions{DataPageRows: 1000})
	all, err := readBatches(bytes.NewReader(file), int64(len(file)), arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer all.Release()
	var ids []pageindex.Literal
	var rows []int64
	for g := range groups {
		id := int64(g*20000 + 777 + 1000*g)
		ids, rows = append(ids, pageindex.Int(id)), append(rows, id)
	}
	opts := arrowio.ReadOptions{Filter: pageindex.In("id", ids...), Parallelism: 1}
	for _, call := range []string{"RecordReader", "ReadTable"} {
		src := latency.New(bytes.NewReader(file), 20*time.Millisecond, 0)
		rd := mustOpen(t, src, len(file), opts)
		begin := src.Stats()
		start := time.Now()
		var got arrow.Table
		if call == "RecordReader" {
			got = batchesOf(t, rd)
		} else if got, err = rd.ReadTable(context.Background()); err != nil {
			t.Fatal(err)
		}
		elapsed := time.Since(start)
		if got.NumRows() != int64(len(rows)) {
			t.Fatalf("%s: %d rows, want %d", call, got.NumRows(), len(rows))
		}
		for k, id := range rows {
			g, w := tableRow(got, int64(k)), tableRow(all, id)
			if !sameValues(g, w) {
				t.Errorf("%s: row %d differs from the unfiltered read's row %d", call, k, id)
			}
			g.Release()
			w.Release()
		}
		got.Release()
		ss, io := src.Stats(), rd.IOStats()
		rounds := ss.Rounds - begin.Rounds
		t.Logf("%s: %d round trips after the footer, %d requests, %v (IOStats %+v)", call, rounds, ss.Requests-begin.Requests, elapsed.Round(time.Millisecond), io)
		if rounds > groups+2 {
			t.Errorf("%s: %d round trips after the footer, want at most %d", call, rounds, groups+2)
		}
		if io.Requests != ss.Requests || io.BytesFetched != ss.Bytes || io.BytesUsed > io.BytesFetched {
			t.Errorf("%s: IOStats %+v disagree with the source's %+v", call, io, ss)
		}
		if err := rd.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// tableRow returns row i of tbl as a table.
func tableRow(tbl arrow.Table, i int64) arrow.Table {
	cols := make([]arrow.Column, tbl.NumCols())
	for c := range cols {
		ch := array.NewChunkedSlice(tbl.Column(c).Data(), i, i+1)
		cols[c] = *arrow.NewColumn(tbl.Schema().Field(c), ch)
		ch.Release()
	}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	return array.NewTable(tbl.Schema(), cols, 1)
}
