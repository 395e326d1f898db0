package cloud_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/quiverio/quiver/cloud"
	"github.com/quiverio/quiver/cloud/internal/weedtest"
)

// The SeaweedFS server the S3 tests share: started by the first test that
// needs it, stopped when the tests end.
var (
	weedOnce sync.Once
	weed     *weedtest.Server
	weedSkip string // why the S3 tests skip
	weedErr  error  // why they fail
)

func TestMain(m *testing.M) {
	code := m.Run()
	if weed != nil {
		if err := weed.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping SeaweedFS:", err)
		}
	}
	os.Exit(code)
}

// s3Bucket returns the URL of a new bucket on the shared SeaweedFS server
// (its query gives endpoint, region and path-style addressing), starting
// the server the first time. It skips when the weed binary is not built,
// and fails then when QUIVER_REQUIRE_WEED is set.
func s3Bucket(t *testing.T, name string) string {
	t.Helper()
	weedOnce.Do(func() {
		bin, err := weedtest.Binary()
		if err != nil {
			if os.Getenv("QUIVER_REQUIRE_WEED") != "" {
				// CI sets this after building the binary, so a lost
				// binary fails instead of skipping quietly.
				weedErr = fmt.Errorf("QUIVER_REQUIRE_WEED is set: %w", err)
			} else {
				weedSkip = err.Error()
			}
			return
		}
		// The SDK's credential chain finds these first, and never asks
		// an instance metadata address.
		os.Setenv("AWS_ACCESS_KEY_ID", weedtest.AccessKey)
		os.Setenv("AWS_SECRET_ACCESS_KEY", weedtest.SecretKey)
		os.Setenv("AWS_EC2_METADATA_DISABLED", "true")
		os.Setenv("AWS_CONFIG_FILE", os.DevNull)
		os.Setenv("AWS_SHARED_CREDENTIALS_FILE", os.DevNull)
		start := time.Now()
		weed, weedErr = weedtest.Start(bin, os.TempDir(), 90*time.Second)
		if weedErr == nil {
			fmt.Fprintf(os.Stderr, "SeaweedFS S3 on %s, ready in %v\n", weed.Endpoint, time.Since(start).Round(time.Millisecond))
		}
	})
	if weedSkip != "" {
		t.Skip(weedSkip)
	}
	if weedErr != nil {
		t.Fatal(weedErr)
	}
	u := fmt.Sprintf("s3://%s?endpoint=%s&region=%s&use_path_style=true", name, weed.Endpoint, weedtest.Region)
	ctx := context.Background()
	b, err := cloud.OpenBucket(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var client *s3.Client
	if !b.Blob().As(&client) {
		t.Fatal("the s3 bucket gives no *s3.Client")
	}
	// A fresh server may refuse for a moment while its filer settles.
	for i := 0; ; i++ {
		_, err = client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &name})
		var owned *types.BucketAlreadyOwnedByYou
		if err == nil || errors.As(err, &owned) {
			break
		}
		if i == 50 {
			t.Fatalf("creating bucket %s: %v\nserver log:\n%s", name, err, weed.Log())
		}
		time.Sleep(200 * time.Millisecond)
	}
	return u
}
