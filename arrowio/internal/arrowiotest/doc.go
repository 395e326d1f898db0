// Package arrowiotest holds what the tests of arrowio and of its internal
// packages share: random Arrow arrays of every flat type, files written
// by Quiver's Writer and by arrow-go's pqarrow, reads into tables, and
// comparisons of what was read with what was written.
//
// It imports arrowio, so only external test packages (arrowio_test,
// scan_test, ...) may use it: a package's own tests (package scan)
// importing it would make an import cycle. Code outside tests never
// imports it.
package arrowiotest
