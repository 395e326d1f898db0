package kernels

// deltaPrefixSumGeneric turns the unpacked deltas in v (each still missing
// minDelta) into values, continuing from last, and returns the last value.
func deltaPrefixSumGeneric[T uint32 | uint64](v []T, last, minDelta T) T {
	for i, d := range v {
		last += d + minDelta
		v[i] = last
	}
	return last
}
