// Package page walks the pages of one column chunk: an Iterator locates
// each page header (checking every declared size against the bytes that
// remain), verifies its CRC when asked, decrypts it when the column is
// encrypted, skips index and unknown page types, and hands out Raw pages;
// SplitData decompresses a data page and splits it into its repetition
// levels, definition levels and values for the column readers.
//
//	chunk bytes (in memory, or windows read from the file)
//	  -> Iterator.Next -> Raw (header + stored payload)
//	  -> SplitData (codec.Decompressor, v1/v2 layout) -> Data{levels, values}
//
// It also knows the quirks of old writers that change where a chunk ends
// (UnderstatesChunkSize).
package page
