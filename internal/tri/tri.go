// Package tri is SQL's three-valued logic for the brute-force evaluators
// that tests check predicates against.
package tri

// Value is a truth value of SQL: False, Unknown or True, ordered so that
// AND is min, OR is max and NOT is True minus it.
type Value int8

// Truth values.
const (
	False Value = iota
	Unknown
	True
)

// Known returns b as a Value.
func Known(b bool) Value {
	if b {
		return True
	}
	return False
}

// Not returns the negation of v: Unknown stays Unknown.
func Not(v Value) Value { return True - v }
