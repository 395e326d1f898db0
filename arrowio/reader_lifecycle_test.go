package arrowio_test

import (
	"context"
	"errors"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverio/quiver/arrowio"
)

const tripsFixture = "../testdata/trips.parquet"

// settleGoroutines waits briefly for goroutines to exit and returns the
// count.
func settleGoroutines(want int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 100 && n > want; i++ {
		time.Sleep(5 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

func TestRecordReaderPartialConsumptionReleasesEverything(t *testing.T) {
	before := runtime.NumGoroutine()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	rd, err := arrowio.OpenFile(tripsFixture, arrowio.ReadOptions{Allocator: mem, BatchSize: 100, Parallelism: 4})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := rd.RecordReader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !rr.Next() {
		t.Fatal(rr.Err())
	}
	kept := rr.RecordBatch()
	kept.Retain()
	rr.Next()
	// Stop early: Release must wait for the prefetch and free the batch.
	rr.Release()
	if err := rd.Close(); err != nil {
		t.Fatal(err)
	}
	if kept.NumRows() != 100 {
		t.Errorf("kept batch has %d rows", kept.NumRows())
	}
	kept.Release()
	mem.AssertSize(t, 0)
	if n := settleGoroutines(before); n > before {
		t.Errorf("%d goroutines after Close, %d before", n, before)
	}
}

func TestCancelStopsRecordReader(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	rd, err := arrowio.OpenFile(tripsFixture, arrowio.ReadOptions{BatchSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	rr, err := rd.RecordReader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if !rr.Next() {
		t.Fatal(rr.Err())
	}
	cancel()
	n := 0
	for rr.Next() {
		n++
	}
	if !errors.Is(rr.Err(), context.Canceled) {
		t.Errorf("Err() = %v after cancel, want context.Canceled", rr.Err())
	}
	// A cancelled reader finishes the batch it was decoding at most.
	if n > 1 {
		t.Errorf("%d batches after cancel", n)
	}
}

func TestCancelledReadTable(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rd, err := arrowio.OpenFile(tripsFixture, arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if _, err := rd.ReadTable(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadTable with a cancelled context: %v", err)
	}
}

func TestCloseTwiceAndUseAfterClose(t *testing.T) {
	rd, err := arrowio.OpenFile(tripsFixture, arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := rd.Close(); err != nil {
		t.Fatal(err)
	}
	if err := rd.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := rd.ReadTable(context.Background()); !errors.Is(err, arrowio.ErrClosed) {
		t.Errorf("ReadTable after Close: %v", err)
	}
	if _, err := rd.RecordReader(context.Background()); !errors.Is(err, arrowio.ErrClosed) {
		t.Errorf("RecordReader after Close: %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := arrowio.OpenFile(tripsFixture, arrowio.ReadOptions{Columns: []string{"no_such"}}); !errors.Is(err, arrowio.ErrUnknownColumn) {
		t.Errorf("unknown column: %v", err)
	}
	if _, err := arrowio.OpenFile(tripsFixture, arrowio.ReadOptions{RowGroups: []int{2}}); err == nil {
		t.Error("row group 2 of 2 accepted")
	}
	if _, err := arrowio.OpenFile("no/such/file.parquet", arrowio.ReadOptions{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	rd, err := arrowio.OpenFile(tripsFixture, arrowio.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if _, err := rd.ReadRowGroup(context.Background(), -1); err == nil {
		t.Error("row group -1 read")
	}
}
