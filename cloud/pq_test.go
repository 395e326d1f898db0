package cloud_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quiverio/quiver/cloud/internal/pqopen"
	"github.com/quiverio/quiver/internal/pqcli"
)

// TestPQOverS3 runs the cloud build of pq (pqcli with pqopen's openers) on
// an s3:// URL of SeaweedFS: schema, meta, head and a filtered cat print
// what they print for the same file read locally, and without the
// openers (the core build) the URL is a local path that does not exist.
func TestPQOverS3(t *testing.T) {
	local := filepath.Join("..", "testdata", "trips.parquet")
	data, err := os.ReadFile(local)
	if err != nil {
		t.Fatal(err)
	}
	bu := s3Bucket(t, "quiver-pq")
	put(t, openBucket(t, bu), "dir/trips.parquet", data)
	remote := objectURL(t, bu, "dir/trips.parquet")
	for _, args := range [][]string{
		{"schema"},
		{"head"},
		{"cat", "--where", "fare > 20", "--columns", "vendor,fare", "--limit", "50"},
		{"meta", "--json"},
	} {
		var want, got bytes.Buffer
		if err := pqcli.Run(append(args, local), &want); err != nil {
			t.Fatalf("pq %s %s: %v", strings.Join(args, " "), local, err)
		}
		if err := pqcli.Run(append(args, remote), &got, pqopen.Openers()...); err != nil {
			t.Fatalf("pq %s %s: %v", strings.Join(args, " "), remote, err)
		}
		w, g := withoutFileLine(want.String()), withoutFileLine(got.String())
		if g != w || len(w) == 0 {
			t.Errorf("pq %s over S3 printed\n%s\nlocally\n%s", strings.Join(args, " "), g, w)
		}
	}
	if err := pqcli.Run([]string{"head", remote}, &bytes.Buffer{}); err == nil {
		t.Error("pq without the cloud openers read an s3:// URL")
	}
}

// withoutFileLine drops the line of pq meta --json that names the file.
func withoutFileLine(s string) string {
	lines := strings.Split(s, "\n")
	return strings.Join(slices.DeleteFunc(lines, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), `"file":`) }), "\n")
}
