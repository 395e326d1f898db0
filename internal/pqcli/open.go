package pqcli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/source/httprange"
)

// newFlags returns a flag set for subcommand name whose errors go to
// stderr and which reports misuse as errUsage.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("pq "+name, flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	return fs
}

// parseFile parses args into fs and returns its single FILE argument.
// Flags may come before or after the file name.
func parseFile(fs *flag.FlagSet, args []string) (string, error) {
	var file string
	for {
		if err := fs.Parse(args); err != nil {
			return "", fmt.Errorf("%w: %v", errUsage, err)
		}
		if fs.NArg() == 0 {
			break
		}
		if file != "" {
			return "", fmt.Errorf("%w: %s takes one FILE, got %q and %q", errUsage, fs.Name(), file, fs.Arg(0))
		}
		file, args = fs.Arg(0), fs.Args()[1:]
	}
	if file == "" {
		return "", fmt.Errorf("%w: %s needs a FILE", errUsage, fs.Name())
	}
	return file, nil
}

// readFooter opens path and parses its footer, decrypting it with the
// keys the flags give when the file is encrypted.
func readFooter(path string, keys *keyFlags) (*footer.Footer, error) {
	cfg, err := keys.config()
	if err != nil {
		return nil, err
	}
	f, size, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tail, err := footer.ReadTail(f, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	ft, _, err := encrypt.OpenFooter(tail, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ft, nil
}

// Input is what pq reads a Parquet file from: a local file, an http(s)
// URL read by ranged GETs, or what an Opener opens.
type Input interface {
	io.ReaderAt
	io.Closer
}

// An Opener opens the files of a URL scheme pq does not read itself:
// Open returns the file at url ("SCHEME://...") and its size.
type Opener struct {
	Scheme string
	Open   func(ctx context.Context, url string) (Input, int64, error)
}

// extra holds the openers of the running command (see Run).
var extra []Opener

// opener returns the Opener of name's scheme, or nil.
func opener(name string) *Opener {
	for i := range extra {
		if strings.HasPrefix(name, extra[i].Scheme+"://") {
			return &extra[i]
		}
	}
	return nil
}

// isURL reports whether name is an http(s) URL, or one of an Opener's
// scheme, rather than a local path.
func isURL(name string) bool {
	return strings.HasPrefix(name, "http://") || strings.HasPrefix(name, "https://") || opener(name) != nil
}

// openInput opens name, a local path or a URL, and returns its size.
func openInput(name string) (Input, int64, error) {
	if o := opener(name); o != nil {
		return o.Open(context.Background(), name)
	}
	if isURL(name) {
		f, err := httprange.Open(context.Background(), name, httprange.Options{})
		if err != nil {
			return nil, 0, err
		}
		return f, f.Size(), nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, st.Size(), nil
}

// reader is an arrowio.Reader whose Close also closes what openReader
// opened for it.
type reader struct {
	*arrowio.Reader
	input io.Closer // nil when arrowio.OpenFile owns the file
}

func (r *reader) Close() error {
	err := r.Reader.Close()
	if r.input != nil {
		err = errors.Join(err, r.input.Close())
	}
	return err
}

// openReader is arrowio.OpenFile for a local path, and arrowio.Open over
// ranged GETs for an http(s) URL or over what an Opener opens.
func openReader(name string, opts arrowio.ReadOptions) (*reader, error) {
	if !isURL(name) {
		rd, err := arrowio.OpenFile(name, opts)
		if err != nil {
			return nil, err
		}
		return &reader{Reader: rd}, nil
	}
	f, size, err := openInput(name)
	if err != nil {
		return nil, err
	}
	rd, err := arrowio.Open(f, size, opts)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", f, err)
	}
	return &reader{Reader: rd, input: f}, nil
}
