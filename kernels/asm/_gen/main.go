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
//go:generate go run . -kernel bss -out ../bss_amd64.s -stubs ../bss_amd64.go -pkg asm
//go:generate go run . -kernel delta -out ../delta_amd64.s -stubs ../delta_amd64.go -pkg asm
//go:generate go run . -kernel gather -out ../gather_amd64.s -stubs ../gather_amd64.go -pkg asm
//go:generate go run . -kernel levels -out ../levels_amd64.s -stubs ../levels_amd64.go -pkg asm
//go:generate go run . -kernel bloom -out ../bloom_amd64.s -stubs ../bloom_amd64.go -pkg asm
//go:generate go run . -kernel minmax -out ../minmax_amd64.s -stubs ../minmax_amd64.go -pkg asm
//go:generate go run . -kernel tables-arm64 -tables ../unpack_tables_arm64.s

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"

	. "github.com/mmcloughlin/avo/build"
)

func main() {
	kernel := flag.String("kernel", "", "which kernel file to generate: unpack, bss, delta, gather, levels, bloom, minmax, tables-arm64")
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
		"bss":    bss,
		"delta":  delta,
		"gather": gather,
		"levels": levels,
		"bloom":  bloom,
		"minmax": minmax,
	}[*kernel]
	if !ok {
		fmt.Fprintf(os.Stderr, "unknown -kernel %q\n", *kernel)
		os.Exit(2)
	}
	ConstraintExpr("!purego")
	build()
	Generate()
	if err := checkVEXRegisters(flag.Lookup("out").Value.String()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// vexOnly matches vector registers 16-31, which avo's allocator may hand out
// (they exist with AVX-512) but VEX-encoded AVX2 instructions cannot name.
var vexOnly = regexp.MustCompile(`\b[XY](1[6-9]|2[0-9]|3[01])\b`)

// checkVEXRegisters fails when the generated assembly at path uses a vector
// register the AVX2 kernels cannot encode.
func checkVEXRegisters(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if loc := vexOnly.FindIndex(src); loc != nil {
		line := 1 + strings.Count(string(src[:loc[0]]), "\n")
		return fmt.Errorf("%s:%d: register %s needs AVX-512; reduce register pressure", path, line, src[loc[0]:loc[1]])
	}
	return nil
}
