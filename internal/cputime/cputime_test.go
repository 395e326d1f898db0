package cputime

import (
	"fmt"
	"os"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	// A command name holding ") " and spaces must not shift the fields.
	line := "4242 (a) b (c) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 17 0 0 20 0 3 0 12345 0 0"
	got, ok := parseStat(line)
	if want := 267 * 10 * time.Millisecond; !ok || got != want {
		t.Fatalf("parseStat = %v, %v; want %v, true", got, ok, want)
	}
	for _, bad := range []string{"", "1 (x) S 1 2", "1 (x) S 1 2 3 4 5 6 7 8 9 x 1", "1 (x) S 1 2 3 4 5 6 7 8 9 -5 1"} {
		if _, ok := parseStat(bad); ok {
			t.Errorf("parseStat(%q) ok", bad)
		}
	}
}

func TestProcessGrows(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skipf("no /proc/self/stat here: %v", err)
	}
	start, ok := Process()
	if !ok {
		t.Fatal("Process failed where /proc/self/stat exists")
	}
	// Spin until the clock has advanced 20 ms, within 10 s of wall time
	// (2 s when it reads zero: no clock).
	x := 0
	deadline := time.Now().Add(10 * time.Second)
	if start == 0 {
		deadline = time.Now().Add(2 * time.Second)
	}
	for end, _ := Process(); end-start < 20*time.Millisecond; end, _ = Process() {
		if time.Now().After(deadline) {
			if end == 0 {
				// qemu-user (the arm64 tests) emulates /proc/self/stat
				// with no CPU time at all; a kernel never reports none
				// after seconds of spinning.
				t.Skip("/proc/self/stat reports no CPU time here (an emulator's), so there is no clock to test")
			}
			t.Fatalf("CPU time went from %v to %v in 10 s of spinning", start, end)
		}
		for i := range 1 << 20 {
			x += i
		}
	}
	_ = x
}

// A benchmark reads the CPU clock before its loop and reports CPU per
// operation after it.
func ExampleProcess() {
	start, ok := Process()
	end, ok2 := Process()
	fmt.Println(!ok || !ok2 || end >= start)
	// Output: true
}
