package dataset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/pageindex"
)

// Environment of a split worker: TestSplitWorker reads the JSON split in
// the file splitEnv names and writes its rows, one per line, to the file
// splitOutEnv names.
const (
	splitEnv    = "QUIVER_DATASET_SPLIT"
	splitOutEnv = "QUIVER_DATASET_SPLIT_OUT"
)

// TestSplitWorker is run by TestSplitsInProcesses in a process of its own.
func TestSplitWorker(t *testing.T) {
	in := os.Getenv(splitEnv)
	if in == "" {
		t.Skip("run by TestSplitsInProcesses")
	}
	b, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	var s Split
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	rr, err := ReadSplit(context.Background(), nil, s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows := readRows(t, rr)
	if err := os.WriteFile(os.Getenv(splitOutEnv), []byte(strings.Join(rows, "\n")), 0o666); err != nil {
		t.Fatal(err)
	}
}

// A dataset read split by split, each split in a process of its own from
// its JSON, gives the rows of one scan.
func TestSplitsInProcesses(t *testing.T) {
	dir := t.TempDir()
	makePartitioned(t, dir, 6, 4000, arrowio.WriteOptions{MaxRowGroupRows: 500})
	ctx := context.Background()
	f, _ := pageindex.Parse(`(q = 0 or p = 3) and (x < 9000 or x >= 12500) and y is not null`)
	for _, enc := range []PartitionEncoding{PartitionDictionary, PartitionPlain} {
		ds, err := Open(ctx, nil, []string{dir}, Options{Filter: f, Columns: []string{"p", "x", "y"}, SplitBytes: 2000, PartitionEncoding: enc})
		if err != nil {
			t.Fatal(err)
		}
		rr, _ := ds.RecordReader(ctx)
		want := readRows(t, rr)
		splits, err := ds.Splits(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(splits) < 8 {
			t.Fatalf("%d splits", len(splits))
		}
		var got []string
		for i, s := range splits {
			b, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			var back Split
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if b2, _ := json.Marshal(back); !bytes.Equal(b, b2) {
				t.Fatalf("split does not round-trip:\n%s\n%s", b, b2)
			}
			in := filepath.Join(t.TempDir(), "split.json")
			out := filepath.Join(t.TempDir(), "rows.txt")
			if err := os.WriteFile(in, b, 0o666); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestSplitWorker$", "-test.count=1")
			cmd.Env = append(os.Environ(), splitEnv+"="+in, splitOutEnv+"="+out)
			if msg, err := cmd.CombinedOutput(); err != nil {
				if errors.Is(err, syscall.ENOEXEC) {
					// Under qemu-user without binfmt_misc the test binary
					// cannot start itself.
					t.Skipf("cannot re-execute the test binary: %v", err)
				}
				t.Fatalf("split %d: %v\n%s", i, err, msg)
			}
			rows, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) > 0 {
				got = append(got, strings.Split(string(rows), "\n")...)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("encoding %d: %d rows from splits, %d from a scan", enc, len(got), len(want))
		}
		if len(want) == 0 {
			t.Fatal("no rows")
		}
		t.Logf("encoding %d: %d rows in %d splits read by as many processes", enc, len(got), len(splits))
	}
}

// Splits leave out what partitions and statistics rule out, and cut files
// at row-group boundaries near SplitBytes.
func TestSplitsPlan(t *testing.T) {
	dir := t.TempDir()
	makePartitioned(t, dir, 3, 1000, arrowio.WriteOptions{MaxRowGroupRows: 100})
	ctx := context.Background()
	f, _ := pageindex.Parse(`p != 1 and x >= 250`)
	ds, err := Open(ctx, nil, []string{dir}, Options{Filter: f, SplitBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	splits, err := ds.Splits(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var desc []string
	for _, s := range splits {
		desc = append(desc, fmt.Sprintf("%s%v", strings.TrimPrefix(s.Path, dir+"/"), s.RowGroups))
		if s.Filter != "(x >= 250)" && s.Filter != "x >= 250" {
			t.Errorf("filter %q", s.Filter)
		}
	}
	want := []string{"p=0/q=0/part-0.parquet[2]", "p=0/q=0/part-0.parquet[3]", "p=0/q=0/part-0.parquet[4]", "p=0/q=0/part-0.parquet[5]",
		"p=0/q=0/part-0.parquet[6]", "p=0/q=0/part-0.parquet[7]", "p=0/q=0/part-0.parquet[8]", "p=0/q=0/part-0.parquet[9]"}
	for rg := range 10 {
		want = append(want, fmt.Sprintf("p=2/q=0/part-0.parquet[%d]", rg))
	}
	if !slices.Equal(desc, want) {
		t.Errorf("splits\n%q\nwant\n%q", desc, want)
	}
	ds, _ = Open(ctx, nil, []string{dir}, Options{})
	splits, _ = ds.Splits(ctx)
	if len(splits) != 3 || len(splits[0].RowGroups) != 10 || splits[0].Rows != 1000 || splits[0].Bytes <= 0 {
		t.Errorf("one split per file: %+v", splits)
	}
	sc, err := decodeSchema(splits[0].Schema)
	if err != nil || !sc.Equal(ds.Schema()) {
		t.Errorf("schema: %v %v", sc, err)
	}
	// A file that changed since the split is an error.
	s := splits[0]
	s.Size++
	rr, err := ReadSplit(ctx, nil, s, Options{})
	if err == nil {
		for rr.Next() {
		}
		err = rr.Err()
		rr.Release()
	}
	if !strings.Contains(fmt.Sprint(err), "changed") {
		t.Errorf("changed file: %v", err)
	}
}
