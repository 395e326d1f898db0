package cloud_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/cloud"
)

// ExampleOpen opens a Parquet object by URL: s3://, gs://, azblob://,
// http(s):// or, as here so that the example runs anywhere, file://.
func ExampleOpen() {
	path, err := filepath.Abs("../testdata/trips.parquet")
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	f, err := cloud.Open(ctx, "file://"+filepath.ToSlash(path))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	rd, err := arrowio.Open(f, f.Size(), arrowio.ReadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rd.Close()
	fmt.Println(rd.NumRows(), "rows in", rd.NumRowGroups(), "row groups")
	// Output: 1000 rows in 2 row groups
}

// ExampleBucket_List lists the objects under a prefix of a bucket (a local
// directory here; an S3, GCS or Azure bucket URL works the same way).
func ExampleBucket_List() {
	dir, err := os.MkdirTemp("", "bucket")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	for _, name := range []string{"year=2024/a.parquet", "year=2024/b.parquet", "year=2025/c.parquet"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("PAR1"), 0o644)
	}
	ctx := context.Background()
	b, err := cloud.OpenBucket(ctx, "file://"+filepath.ToSlash(dir))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	for obj, err := range b.List(ctx, "year=2024/") {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(obj.Key, obj.Size)
	}
	// Output:
	// year=2024/a.parquet 4
	// year=2024/b.parquet 4
}
