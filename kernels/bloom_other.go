//go:build purego || !(amd64 || arm64)

package kernels

// bloomSIMD is false: this build has no block insert, and BloomInsert
// takes the portable twin.
const bloomSIMD = false

func bloomInsertSIMD(words []uint32, hashes []uint64) { bloomInsertGeneric(words, hashes) }
