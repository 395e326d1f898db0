package pqcli

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestURLMatchesLocal checks that every command that reads a file gives
// the same output for the fixture served over HTTP (ranged GETs on a
// loopback server) as for the local file, and that a missing object is
// an error that says so.
func TestURLMatchesLocal(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.StripPrefix("/data/", http.FileServer(http.Dir("../../testdata"))))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	defer srv.Close()
	url := srv.URL + "/data/trips.parquet"
	for _, args := range [][]string{
		{"schema"}, {"meta"}, {"meta", "--json"}, {"head"},
		{"cat", "--limit", "20", "--format", "csv"},
		{"cat", "--where", "passengers > 2", "--limit", "10"},
		{"pageindex"},
	} {
		local := runPQ(t, append(args, fixture)...)
		// meta names the file it read; the rest must match byte for byte.
		remote := bytes.ReplaceAll(runPQ(t, append(args, url)...), []byte(url), []byte(fixture))
		if !bytes.Equal(local, remote) {
			t.Errorf("pq %s: over HTTP\n%s\nlocal\n%s", strings.Join(args, " "), remote, local)
		}
	}
	var out bytes.Buffer
	if err := run([]string{"head", srv.URL + "/data/missing.parquet"}, &out); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("pq head on a missing object: %v, want a 404 error", err)
	}
	checkStats(t, url)
}

// checkStats runs pq cat --stats on url (the fixture) and checks the rows
// are those without it and the line printed after them counts the
// requests and bytes of the read.
func checkStats(t *testing.T, url string) {
	t.Helper()
	var stats bytes.Buffer
	old := statsOut
	statsOut = &stats
	defer func() { statsOut = old }()
	rows := runPQ(t, "cat", "--stats", "--columns", "trip_id", url)
	if want := runPQ(t, "cat", "--columns", "trip_id", url); !bytes.Equal(rows, want) {
		t.Errorf("pq cat --stats printed other rows than pq cat")
	}
	var reqs, fetched, used int64
	if _, err := fmt.Sscanf(stats.String(), "io: %d requests, %d bytes fetched, %d bytes used,", &reqs, &fetched, &used); err != nil {
		t.Fatalf("--stats printed %q: %v", stats.String(), err)
	}
	// The footer's first read (64 KiB) holds all of the 30 KB fixture.
	if reqs != 1 || used <= 0 || used >= fetched || fetched != 30714 {
		t.Errorf("--stats printed %q, want one request of the whole 30714-byte file, part of it used", stats.String())
	}
	if err := run([]string{"cat", "--stats", "../../testdata/*.parquet"}, new(bytes.Buffer)); !errors.Is(err, errUsage) {
		t.Errorf("--stats on a dataset: %v, want a usage error", err)
	}
}
