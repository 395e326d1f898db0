//go:build !linux

package arrowmem

// prefault does nothing outside Linux: new heap memory faults in as it is
// first written.
func prefault([]byte) {}
