// Package kernels holds the hot loops of Quiver's Parquet reader and writer:
// bit packing, the RLE/bit-packing hybrid, definition levels to validity
// bitmaps, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
// BYTE_STREAM_SPLIT, PLAIN, dictionary gathers, spacing and statistics.
//
// Every kernel works over caller-owned slices and never allocates. Input is
// untrusted: a kernel checks every length against the bytes it was given and
// returns an error wrapping [ErrCorrupt] (or [ErrShortBuffer] when the
// caller's destination is too small) instead of panicking or reading past
// the end of a slice.
//
// Where a routine has an assembly implementation in package asm, the choice
// is made once, at package initialisation, from golang.org/x/sys/cpu feature
// flags; the portable Go twin of every routine is always compiled and is the
// only path with the purego build tag.
//
// The package knows nothing of Parquet metadata or Arrow types beyond plain
// byte, integer and bitmap buffers.
package kernels
