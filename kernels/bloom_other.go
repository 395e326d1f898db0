//go:build purego || !(amd64 || arm64)

package kernels

// bloomSIMD is false: this build has no block kernels, and the entries
// take the portable twins.
const bloomSIMD = false

func bloomInsertSIMD(words []uint32, hashes []uint64) { bloomInsertGeneric(words, hashes) }

func bloomCheckSIMD(words []uint32, hashes []uint64, out []bool) int {
	return bloomCheckGeneric(words, hashes, out)
}
