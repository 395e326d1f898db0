package schema

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"

	"github.com/quiverio/quiver/arrowio/internal/errs"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// ipcContinuation is the marker that opens an IPC message since Arrow 0.15;
// older writers start with the metadata length directly.
const ipcContinuation = 0xFFFFFFFF

// DecodeArrowSchema decodes an ARROW:schema value: base64 (padded, or
// unpadded as some writers emit) of an IPC stream whose first message is
// a Schema, with or without the continuation marker. The bytes are framed
// and verified here before arrow-go's ipc package parses them, so a
// malformed value returns an error wrapping [ErrCorrupt], never a panic or
// an allocation beyond the value's size.
func DecodeArrowSchema(value string) (s *arrow.Schema, err error) {
	raw, err := base64.StdEncoding.DecodeString(value)
	if err != nil {
		if raw, err = base64.RawStdEncoding.DecodeString(value); err != nil {
			return nil, fmt.Errorf("%w: ARROW:schema is not base64: %w", errs.ErrCorrupt, err)
		}
	}
	meta, body, err := ipcFrame(raw)
	if err != nil {
		return nil, err
	}
	bodyLen, err := fbVerify(meta)
	if err != nil {
		return nil, fmt.Errorf("%w: ARROW:schema: %w", errs.ErrCorrupt, err)
	}
	if bodyLen < 0 || bodyLen > int64(len(body)) {
		return nil, fmt.Errorf("%w: ARROW:schema message declares a %d-byte body, %d bytes follow", errs.ErrCorrupt, bodyLen, len(body))
	}
	defer func() {
		// The verified bytes keep the ipc package inside the buffer; this
		// guards what verification cannot see, such as an extension type's
		// Deserialize given garbage metadata.
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("%w: ARROW:schema: %v", errs.ErrCorrupt, r)
		}
	}()
	mr := ipc.NewMessageReader(bytes.NewReader(raw), ipc.WithMetadataSizeLimit(int64(len(meta))), ipc.WithBodySizeLimit(int64(len(body))+1))
	rd, err := ipc.NewReaderFromMessageReader(mr)
	if err != nil {
		return nil, fmt.Errorf("%w: ARROW:schema: %w", errs.ErrCorrupt, err)
	}
	defer rd.Release()
	return rd.Schema(), nil
}

// ipcFrame splits the first IPC message of raw into its metadata
// flatbuffer and the bytes after it, checking the declared length.
func ipcFrame(raw []byte) (meta, rest []byte, err error) {
	if len(raw) < 4 {
		return nil, nil, fmt.Errorf("%w: ARROW:schema of %d bytes holds no IPC message", errs.ErrCorrupt, len(raw))
	}
	p := raw
	if binary.LittleEndian.Uint32(p) == ipcContinuation {
		p = p[4:]
		if len(p) < 4 {
			return nil, nil, fmt.Errorf("%w: ARROW:schema ends after the continuation marker", errs.ErrCorrupt)
		}
	}
	n := int64(int32(binary.LittleEndian.Uint32(p)))
	p = p[4:]
	if n < 4 || n > int64(len(p)) {
		return nil, nil, fmt.Errorf("%w: ARROW:schema message declares %d metadata bytes, %d follow", errs.ErrCorrupt, n, len(p))
	}
	return p[:n], p[n:], nil
}
