package kernels

// impl names one implementation of a kernel so that tests and benchmarks can
// run every implementation usable on this CPU side by side. Each dispatched
// kernel keeps a slice of these, the portable twin first.
type impl[F any] struct {
	name string
	fn   F
}
