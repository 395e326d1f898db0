package kernels

// gatherGeneric sets dst[i] = dict[idx[i]] until an index falls outside
// dict and returns the number of values gathered.
func gatherGeneric[T any](dst, dict []T, idx []uint32) int {
	dst = dst[:len(idx)]
	for i, ix := range idx {
		if uint64(ix) >= uint64(len(dict)) {
			return i
		}
		dst[i] = dict[ix]
	}
	return len(idx)
}
