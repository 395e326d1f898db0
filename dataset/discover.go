package dataset

// This file turns what the caller names (directories, globs, files) into
// the list of files a dataset reads.

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// found is one discovered file and the directory its partitions are
// relative to.
type found struct {
	FileInfo
	root string // "" or a directory ending in "/"; the file's path starts with it
}

// discover lists the files paths name. Each path is a glob (when it holds
// *, ?, [ or \), a directory, or a file; files a directory or glob reaches
// are skipped when hidden ([Hidden]) or empty. The files of each path come
// sorted, paths in the order given, each file once.
func discover(ctx context.Context, src Source, paths []string, base string) ([]found, error) {
	var out []found
	seen := make(map[string]bool)
	for _, p := range paths {
		var got []found
		var err error
		if hasMeta(p) {
			got, err = discoverGlob(ctx, src, p)
		} else {
			got, err = discoverPath(ctx, src, p, base)
		}
		if err != nil {
			return nil, err
		}
		sort.Slice(got, func(i, j int) bool { return got[i].Path < got[j].Path })
		for _, f := range got {
			if !seen[f.Path] {
				seen[f.Path] = true
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// discoverPath lists p: the file p, or the files under the directory p.
func discoverPath(ctx context.Context, src Source, p, base string) ([]found, error) {
	dir := p
	if dir != "" && !strings.HasSuffix(dir, "/") {
		dir += "/"
	}
	prefix := p
	if p == "" || strings.HasSuffix(p, "/") {
		prefix = dir
	}
	var out []found
	for fi, err := range src.List(ctx, prefix) {
		if err != nil {
			return nil, err
		}
		switch {
		case fi.Path == p:
			// A file named by the caller is read even when hidden or empty.
			root := base
			if root == "" {
				root, _ = path.Split(p)
			}
			if root != "" && !strings.HasSuffix(root, "/") {
				root += "/"
			}
			if !strings.HasPrefix(p, root) {
				return nil, fmt.Errorf("%w: file %q is not under PartitionBase %q", ErrPartition, p, base)
			}
			out = append(out, found{fi, root})
		case strings.HasPrefix(fi.Path, dir):
			if fi.Size == 0 || Hidden(fi.Path[len(dir):]) {
				continue
			}
			out = append(out, found{fi, dir})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("dataset: %q: %w", p, fs.ErrNotExist)
	}
	return out, nil
}

// discoverGlob lists the files matching pattern.
func discoverGlob(ctx context.Context, src Source, pattern string) ([]found, error) {
	if _, err := path.Match(strings.ReplaceAll(pattern, "**", "*"), ""); err != nil {
		return nil, fmt.Errorf("dataset: glob %q: %w", pattern, err)
	}
	segs := strings.Split(pattern, "/")
	lit := 0
	for lit < len(segs)-1 && !hasMeta(segs[lit]) {
		lit++
	}
	root := strings.Join(segs[:lit], "/")
	if lit > 0 {
		root += "/"
	}
	var out []found
	for fi, err := range src.List(ctx, root) {
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(fi.Path, root) || fi.Size == 0 || Hidden(fi.Path[len(root):]) {
			continue
		}
		if matchGlob(segs[lit:], strings.Split(fi.Path[len(root):], "/")) {
			out = append(out, found{fi, root})
		}
	}
	return out, nil
}

// hasMeta reports whether s holds a glob metacharacter.
func hasMeta(s string) bool { return strings.ContainsAny(s, `*?[\`) }

// matchGlob matches the segments of a path against those of a pattern,
// where "**" matches any number of segments (none included) and other
// segments match as path.Match says.
func matchGlob(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 1 && pat[1] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 1 {
				return true
			}
			for i := 0; i <= len(name); i++ {
				if matchGlob(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// Hidden reports whether a dataset skips the file at rel, a path relative
// to the directory being read, as Spark and pyarrow do: some element of the
// path starts with "." (".part-0.crc", ".staging/") or with "_" and has no
// "=" in it ("_SUCCESS", "_temporary/", "_delta_log/"; "_col=1/" is a
// partition), or the file name ends in "._COPYING_" or ".crc" or
// ".tmp".
func Hidden(rel string) bool {
	for seg := range strings.SplitSeq(rel, "/") {
		if strings.HasPrefix(seg, ".") || strings.HasPrefix(seg, "_") && !strings.Contains(seg, "=") {
			return true
		}
	}
	return strings.HasSuffix(rel, "._COPYING_") || strings.HasSuffix(rel, ".crc") || strings.HasSuffix(rel, ".tmp")
}
