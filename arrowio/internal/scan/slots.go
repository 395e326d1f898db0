package scan

// slots counts the goroutines at work for one read call (a ReadTable, a
// ReadRowGroup, a RecordReader) against ReadOptions.Parallelism: each
// goroutine that decodes holds a slot while it does. Row-group workers
// take one each; a filtered row group's column decode (decodeColumns)
// adds helpers only for slots that are free, so a group that is the only
// one left to decode still uses every core, and row groups decoding side
// by side never multiply to Parallelism².
type slots chan struct{}

// newSlots returns n free slots; n below 1 counts as 1.
func newSlots(n int) slots { return make(slots, max(n, 1)) }

// take waits for a free slot and holds it.
func (s slots) take() { s <- struct{}{} }

// tryTake holds a free slot if there is one and reports whether it did.
func (s slots) tryTake() bool {
	select {
	case s <- struct{}{}:
		return true
	default:
		return false
	}
}

// give frees a held slot.
func (s slots) give() { <-s }
