package footer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// TailReadSize is how many bytes ReadFooter asks for first, from the end of
// the file: enough for the footer of most files, so that opening one costs a
// single read.
const TailReadSize = 64 << 10

// Magic numbers that open and close a Parquet file.
const (
	MagicPlain     = "PAR1" // plaintext footer
	MagicEncrypted = "PARE" // encrypted footer (modular encryption)
)

// ErrEncryptedFooter reports a file whose footer is encrypted ("PARE"); it
// needs decryption keys to read.
var ErrEncryptedFooter = errors.New("footer: encrypted footer")

// Footer is a file's parsed tail: the FileMetaData, its schema tree and
// where the metadata lies in the file.
type Footer struct {
	Meta   *FileMetaData
	Schema *Schema
	// Size is the file size the footer was read against.
	Size int64
	// MetaOffset and MetaLength locate the serialized FileMetaData.
	MetaOffset int64
	MetaLength int64
}

// Tail is the raw end of a Parquet file: its closing magic and the bytes
// of its metadata, not yet parsed. For a "PAR1" file Meta is the
// FileMetaData (followed by a 28-byte signature when the file is encrypted
// with a plaintext footer); for a "PARE" file it is the FileCryptoMetaData
// followed by the encrypted FileMetaData module.
type Tail struct {
	Magic string
	Meta  []byte
	// Size is the file size the tail was read against.
	Size int64
	// MetaOffset is the file offset of Meta[0].
	MetaOffset int64
}

// ReadFooter reads and parses the footer of the size-byte Parquet file r.
//
// It issues one read of the last [TailReadSize] bytes (the whole file when
// smaller) and a second only when the metadata is longer. The FileMetaData's
// binary fields alias a buffer owned by the returned Footer.
//
// Errors wrap [ErrCorrupt] and give the offsets involved; a file whose
// footer is encrypted returns an error wrapping [ErrEncryptedFooter]; read
// failures are returned wrapped as they come from r.
func ReadFooter(r io.ReaderAt, size int64) (*Footer, error) {
	t, err := ReadTail(r, size)
	if err != nil {
		return nil, err
	}
	if t.Magic == MagicEncrypted {
		return nil, fmt.Errorf("%w: file ends with %q; reading it needs decryption keys", ErrEncryptedFooter, t.Magic)
	}
	fm := new(FileMetaData)
	if _, err := Unmarshal(t.Meta, fm); err != nil {
		return nil, fmt.Errorf("file metadata at offset %d: %w", t.MetaOffset, err)
	}
	return NewFooter(fm, t)
}

// ReadTail reads the end of the size-byte Parquet file r (see ReadFooter
// for the reads it issues) and checks its framing: the magic at both ends
// ("PAR1" or "PARE") and a metadata length that fits the file. Errors wrap
// [ErrCorrupt].
func ReadTail(r io.ReaderAt, size int64) (*Tail, error) { return ReadTailSize(r, size, TailReadSize) }

// ReadTailSize is ReadTail with a first read of the last first bytes
// instead of [TailReadSize] (at least the 8-byte trailer; the whole file
// when smaller): one request for a footer of up to first-8 bytes, a second
// for a larger one. Readers of remote objects, where every request costs
// a round trip, size it to the footers they expect.
func ReadTailSize(r io.ReaderAt, size, first int64) (*Tail, error) {
	const trailer = 8 // 4-byte metadata length + 4-byte magic
	if size < int64(len(MagicPlain))+trailer {
		return nil, fmt.Errorf("%w: file of %d bytes is too small for a Parquet file (at least 12)", ErrCorrupt, size)
	}
	tail := max(first, trailer)
	if tail > size {
		tail = size
	}
	buf := make([]byte, tail)
	if err := readFull(r, buf, size-tail); err != nil {
		return nil, fmt.Errorf("footer: reading last %d bytes at offset %d: %w", tail, size-tail, err)
	}
	magic := string(buf[tail-4:])
	if magic != MagicPlain && magic != MagicEncrypted {
		return nil, fmt.Errorf("%w: file ends with %q at offset %d, not the Parquet magic %q", ErrCorrupt, magic, size-4, MagicPlain)
	}
	if tail == size && string(buf[:4]) != magic {
		return nil, fmt.Errorf("%w: file starts with %q, not the magic %q it ends with", ErrCorrupt, buf[:4], magic)
	}
	metaLen := int64(binary.LittleEndian.Uint32(buf[tail-trailer:]))
	metaOff := size - trailer - metaLen
	if metaOff < int64(len(MagicPlain)) {
		return nil, fmt.Errorf("%w: footer length %d at offset %d exceeds the %d bytes before it", ErrCorrupt, metaLen, size-trailer, size-trailer-int64(len(MagicPlain)))
	}
	var meta []byte
	if have := tail - trailer; metaLen <= have {
		meta = buf[have-metaLen : have]
	} else {
		// Only the part of the metadata the first read missed is read.
		meta = make([]byte, metaLen)
		missing := metaLen - have
		if err := readFull(r, meta[:missing], metaOff); err != nil {
			return nil, fmt.Errorf("footer: reading %d bytes of metadata at offset %d: %w", missing, metaOff, err)
		}
		copy(meta[missing:], buf[:have])
	}
	return &Tail{Magic: magic, Meta: meta, Size: size, MetaOffset: metaOff}, nil
}

// NewFooter checks the FileMetaData fm parsed from t (row counts, the
// schema, a column chunk per leaf in every row group) and builds its
// schema tree. Errors wrap [ErrCorrupt].
func NewFooter(fm *FileMetaData, t *Tail) (*Footer, error) {
	ft, err := newFooter(fm, Footer{Size: t.Size, MetaOffset: t.MetaOffset, MetaLength: int64(len(t.Meta))})
	if err != nil {
		return nil, fmt.Errorf("file metadata at offset %d: %w", t.MetaOffset, err)
	}
	return ft, nil
}

// FromMetadata checks fm, the FileMetaData of the size-byte file parsed
// earlier (kept from a Reader or a cache of footers), as [NewFooter]
// checks a footer read from the file, and builds its schema tree, without
// reading the file. Where the serialized metadata lies is not known, so
// the Footer's MetaOffset is the start of the file's 8-byte trailer (the
// metadata length and the magic), the end of the bytes the file's pages
// may take, and its MetaLength is 0. Errors wrap [ErrCorrupt].
func FromMetadata(fm *FileMetaData, size int64) (*Footer, error) {
	const trailer = 8
	switch {
	case fm == nil:
		return nil, fmt.Errorf("%w: no file metadata given", ErrCorrupt)
	case size < int64(len(MagicPlain))+trailer:
		return nil, fmt.Errorf("%w: file of %d bytes is too small for a Parquet file (at least 12)", ErrCorrupt, size)
	}
	ft, err := newFooter(fm, Footer{Size: size, MetaOffset: size - trailer})
	if err != nil {
		return nil, fmt.Errorf("file metadata given: %w", err)
	}
	return ft, nil
}

// newFooter checks fm and returns ft with fm and its schema tree filled
// in.
func newFooter(fm *FileMetaData, ft Footer) (*Footer, error) {
	if err := checkCounts(fm); err != nil {
		return nil, err
	}
	s, err := NewSchema(fm.Schema, fm.ColumnOrders)
	if err != nil {
		return nil, err
	}
	for i := range fm.RowGroups {
		if n := len(fm.RowGroups[i].Columns); n != len(s.Leaves) {
			return nil, fmt.Errorf("%w: row group %d has %d column chunks for %d leaf columns", ErrCorrupt, i, n, len(s.Leaves))
		}
	}
	ft.Meta, ft.Schema = fm, s
	return &ft, nil
}

// checkCounts rejects row counts no file can hold.
func checkCounts(fm *FileMetaData) error {
	if fm.NumRows < 0 {
		return fmt.Errorf("%w: FileMetaData.num_rows is negative (%d)", ErrCorrupt, fm.NumRows)
	}
	for i := range fm.RowGroups {
		if n := fm.RowGroups[i].NumRows; n < 0 {
			return fmt.Errorf("%w: row group %d: num_rows is negative (%d)", ErrCorrupt, i, n)
		}
	}
	return nil
}

// readFull fills p from r at off. io.ReaderAt may report io.EOF along with a
// full read at the end of the data; only a short read is an error.
func readFull(r io.ReaderAt, p []byte, off int64) error {
	n, err := r.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return err
}
