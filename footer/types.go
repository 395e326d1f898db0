package footer

// Optional is an optional thrift scalar field: Value is meaningful only when
// Set is true. It is a plain value, so optional fields cost no allocation.
type Optional[T any] struct {
	Value T
	Set   bool
}

// Some returns an Optional holding v.
func Some[T any](v T) Optional[T] { return Optional[T]{Value: v, Set: true} }

// Get returns the value and whether it is set.
func (o Optional[T]) Get() (T, bool) { return o.Value, o.Set }

// Or returns the value when it is set and def otherwise.
func (o Optional[T]) Or(def T) T {
	if o.Set {
		return o.Value
	}
	return def
}
