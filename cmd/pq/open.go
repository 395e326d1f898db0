package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/quiverio/quiver/encrypt"
	"github.com/quiverio/quiver/footer"
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
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	tail, err := footer.ReadTail(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	ft, _, err := encrypt.OpenFooter(tail, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ft, nil
}
