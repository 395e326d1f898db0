// Package cputime reads the CPU time this process has used, so that
// benchmarks on a shared machine can report CPU per operation beside wall
// time, which other processes' load inflates.
package cputime

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Process returns the CPU time this process has used (user plus system,
// all threads, the garbage collector's included), from /proc/self/stat,
// to 10 ms; ok is false where that file does not exist or does not parse.
func Process() (cpu time.Duration, ok bool) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0, false
	}
	return parseStat(string(b))
}

// parseStat reads utime and stime from the text of /proc/self/stat: the
// 12th and 13th fields after the parenthesised command name, in clock
// ticks of 1/100 s.
func parseStat(s string) (time.Duration, bool) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	fields := strings.Fields(s[i+1:])
	if len(fields) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil || utime < 0 || stime < 0 {
		return 0, false
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, true
}

// Report adds a cpu-ns/op metric to b: the CPU time used since start (a
// reading of Process taken before the loop, with its ok) divided by b.N.
// It reports nothing when either reading failed.
func Report(b *testing.B, start time.Duration, ok bool) {
	if end, ok2 := Process(); ok && ok2 && b.N > 0 {
		b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
	}
}
