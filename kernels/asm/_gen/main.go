// Command _gen writes Quiver's amd64 assembly kernels with avo, and the
// lookup tables the hand-written arm64 kernels read.
//
// Each output file comes from one run, selected by -kernel:
//
//	go run . -kernel unpack -out ../unpack_amd64.s -stubs ../unpack_amd64.go -pkg asm
//	go run . -kernel tables-arm64 -tables ../unpack_tables_arm64.s
//
// The go:generate lines below regenerate everything; CI re-runs them and
// fails when the checked-in files differ.
package main

//go:generate go run . -kernel unpack -out ../unpack_amd64.s -stubs ../unpack_amd64.go -pkg asm
//go:generate go run . -kernel tables-arm64 -tables ../unpack_tables_arm64.s

import (
	"flag"
	"fmt"
	"os"

	. "github.com/mmcloughlin/avo/build"
)

func main() {
	kernel := flag.String("kernel", "", "which kernel file to generate: unpack, tables-arm64")
	tables := flag.String("tables", "", "output path of the arm64 tables (with -kernel tables-arm64)")
	flag.Parse()
	if *kernel == "tables-arm64" {
		if err := writeARM64Tables(*tables); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	build, ok := map[string]func(){
		"unpack": unpack,
	}[*kernel]
	if !ok {
		fmt.Fprintf(os.Stderr, "unknown -kernel %q\n", *kernel)
		os.Exit(2)
	}
	ConstraintExpr("!purego")
	build()
	Generate()
}
