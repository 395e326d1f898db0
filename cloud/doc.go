// Package cloud opens Parquet files in object stores as [io.ReaderAt]s
// for arrowio.Open, and lists the objects under a prefix for datasets:
// [Bucket.Dataset] is a bucket as a dataset.Source and dataset.Sink, and
// [OpenDataset] opens the hive-partitioned dataset under a URL such as
// s3://bucket/sales/.
// It lives in a module of its own so that the core module never depends on
// a cloud SDK.
//
// One adapter over gocloud.dev/blob covers S3 (and S3-compatible servers),
// Google Cloud Storage, Azure Blob Storage and local directories: an
// [Object] is a key of a [Bucket] whose ReadAt opens a ranged reader for
// exactly the bytes asked for. Credentials come from each SDK's usual
// chain (environment, profiles, instance metadata); bucket URLs take
// gocloud's query options, e.g.
//
//	s3://bucket/dir/file.parquet?region=eu-west-1
//	s3://bucket/file.parquet?endpoint=http://127.0.0.1:8333&use_path_style=true&region=us-east-1
//	gs://bucket/dir/file.parquet
//	azblob://container/dir/file.parquet?storage_account=acct
//
// [Open] takes any of those, http(s) URLs (read by the core module's
// source/httprange), file:// URLs and plain paths, and returns a [File].
//
// Reads are pinned to the version [Bucket.Open] saw: S3 and Azure reads
// send If-Match with its ETag, GCS reads a generation precondition, and
// every read checks the object's size, so an object replaced while it is
// read fails with [ErrChanged] rather than mixing bytes of two versions.
package cloud
