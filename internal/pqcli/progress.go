package pqcli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progress draws a one-line progress bar on a terminal while a conversion
// runs: the share of the input done (rows of a Parquet input, bytes of a
// text input), rows written and time taken. A nil writer draws nothing.
type progress struct {
	w     io.Writer
	total int64 // rows or bytes the input holds (0: unknown)
	bytes bool  // total counts input bytes, read counts them
	read  int64 // input bytes read so far
	rows  int64
	start time.Time
	last  time.Time
	drawn bool
}

// newProgress returns the progress bar for a --progress mode: "auto"
// draws on stderr when it is a terminal.
func newProgress(mode string, stderr *os.File) (*progress, error) {
	p := &progress{start: time.Now()}
	switch mode {
	case "always":
		p.w = stderr
	case "never":
	case "auto":
		if st, err := stderr.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.w = stderr
		}
	default:
		return nil, fmt.Errorf("%w: --progress %q: want auto, always or never", errUsage, mode)
	}
	return p, nil
}

// update records rows written so far and redraws at most ten times a
// second.
func (p *progress) update(rows int64) {
	p.rows = rows
	if p.w == nil {
		return
	}
	if now := time.Now(); now.Sub(p.last) >= 100*time.Millisecond {
		p.last = now
		p.draw(now)
	}
}

// finish draws the final state and ends the line.
func (p *progress) finish() {
	if p.w == nil || !p.drawn {
		return
	}
	p.draw(time.Now())
	fmt.Fprintln(p.w)
}

func (p *progress) draw(now time.Time) {
	const width = 30
	done := p.rows
	if p.bytes {
		done = p.read
	}
	frac := 0.0
	if p.total > 0 {
		frac = min(float64(done)/float64(p.total), 1)
	}
	filled := int(frac * width)
	fmt.Fprintf(p.w, "\r[%s%s] %3.0f%%  %d rows  %s", strings.Repeat("#", filled), strings.Repeat(".", width-filled),
		100*frac, p.rows, now.Sub(p.start).Round(100*time.Millisecond))
	p.drawn = true
}
