// Package footer holds the Go form of every structure in parquet.thrift and
// a hand-written Thrift compact protocol codec for them.
//
// [Unmarshal] decodes a FileMetaData, PageHeader, ColumnIndex, OffsetIndex,
// BloomFilterHeader, FileCryptoMetaData or any other [Message] from its
// compact-protocol bytes; [Marshal] appends the encoding of one.
//
// Conventions shared by all types:
//   - Required thrift fields are plain values.
//   - Optional scalars are [Optional] values; optional strings are
//     Optional[string].
//   - Optional binary fields are []byte, nil when absent; a present empty
//     binary decodes as a non-nil empty slice.
//   - Optional lists are nil when absent and a non-nil empty slice when present
//     but empty.
//   - Optional structs are pointers.
//   - Enum values and union members this package does not know are kept (as
//     their number or field id), never rejected.
//
// Decoded []byte fields alias the input buffer (no copy), so the caller must
// keep that buffer unchanged for as long as the decoded value is used.
// Strings are copied, and repeated strings within one Unmarshal call (column
// path elements, key-value keys) share one copy.
//
// Malformed input is reported by an error wrapping [ErrCorrupt] that names
// the structure and field involved; no input makes the decoder panic or
// allocate much more than the size of the input.
package footer
