package dataset

// This file holds the interfaces a dataset reads files through and writes
// them through, and their local-filesystem implementation.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// FileInfo describes one file of a listing.
type FileInfo struct {
	// Path is the file's name in its Source: slash-separated, starting
	// with the prefix that listed it.
	Path string
	// Size is the file's length in bytes.
	Size int64
	// ModTime is the file's modification time, when the Source knows it;
	// the footer cache uses it, with Path and Size, to tell versions of a
	// file apart.
	ModTime time.Time
}

// File is a file open for reading: random access and its size. *os.File
// does not have Size; [Local] returns a File over one. cloud.Object and
// httprange.File have all three methods.
type File interface {
	io.ReaderAt
	io.Closer
	Size() int64
}

// Source is where a dataset's files live: a local filesystem, a bucket,
// anything that can list files under a prefix and open one for random
// access. It must be safe for concurrent use.
//
// Paths are slash-separated. List has object-store semantics: it yields
// every file (never a directory) whose path starts with prefix, at any
// depth, so "a/b" lists "a/b", "a/b/c" and "a/bc/d" alike; [Open] asks for
// "dir/" when it means a directory. Open and List are called with paths
// built from what the caller passed to [Open] and from what List yielded.
//
// The cloud module's Bucket.Dataset implements it (and [Sink]) for S3,
// GCS, Azure and file:// buckets.
type Source interface {
	// Open opens the file at path. ctx bounds the call and, for sources
	// that honour it, the reads of the returned File.
	Open(ctx context.Context, path string) (File, error)
	// List yields the files whose path starts with prefix, in any order.
	// An error ends the sequence.
	List(ctx context.Context, prefix string) iter.Seq2[FileInfo, error]
}

// Sink is where [Write] puts a dataset's files. Nothing Create starts may
// be visible to readers at its path before [Upload.Commit]. It must be
// safe for concurrent use.
type Sink interface {
	// Create starts a new file at path (slash-separated).
	Create(ctx context.Context, path string) (Upload, error)
}

// Upload is a file being written to a [Sink]. Exactly one of Commit and
// Abort ends it.
type Upload interface {
	io.Writer
	// Commit makes the file appear at its path, all at once. A file that
	// already exists there is an error wrapping fs.ErrExist (where the
	// sink can tell) and is left as it was.
	Commit() error
	// Abort discards what was written; nothing appears at the path.
	Abort() error
}

// Local is the local filesystem as a [Source] and a [Sink]. Paths are the
// operating system's paths (relative to the working directory, or
// absolute) written with slashes.
var Local LocalFS

// LocalFS is the type of [Local].
type LocalFS struct{}

type localFile struct {
	*os.File
	size int64
}

func (f localFile) Size() int64 { return f.size }

// Open opens the file at path.
func (LocalFS) Open(ctx context.Context, name string) (File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.FromSlash(name))
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("is a directory")}
	}
	return localFile{f, st.Size()}, nil
}

// List yields the regular files whose slash-separated path starts with
// prefix. A prefix ending in "/" (or "" for the working directory) is a
// directory walked to any depth; otherwise the walk starts in prefix's
// parent directory and enters only the entries whose path starts with
// prefix. Yielded paths start with prefix as given (not cleaned). A
// directory that does not exist yields nothing; other errors end the
// sequence.
func (LocalFS) List(ctx context.Context, prefix string) iter.Seq2[FileInfo, error] {
	return func(yield func(FileInfo, error) bool) {
		dir, _ := path.Split(prefix) // dir keeps its trailing slash, "" for the working directory
		root := filepath.FromSlash(dir)
		if root == "" {
			root = "."
		}
		clean := filepath.Clean(root)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			rel, rerr := filepath.Rel(clean, filepath.Clean(p))
			if rerr != nil {
				return rerr
			}
			name := dir + filepath.ToSlash(rel)
			if rel == "." {
				name = dir
			}
			if err != nil {
				if p == root && errors.Is(err, fs.ErrNotExist) {
					return fs.SkipAll
				}
				return err
			}
			if d.IsDir() {
				// Enter a directory only when files under it may match.
				if rel != "." && !strings.HasPrefix(name+"/", prefix) && !strings.HasPrefix(prefix, name+"/") {
					return fs.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() && d.Type()&fs.ModeSymlink == 0 || !strings.HasPrefix(name, prefix) {
				return nil
			}
			info, err := d.Info()
			if d.Type()&fs.ModeSymlink != 0 {
				info, err = os.Stat(p)
				if err == nil && !info.Mode().IsRegular() {
					return nil
				}
			}
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil // removed since the directory was read
				}
				return err
			}
			if !yield(FileInfo{Path: name, Size: info.Size(), ModTime: info.ModTime()}, nil) {
				return errStop
			}
			return nil
		})
		if err != nil && err != errStop {
			yield(FileInfo{}, fmt.Errorf("dataset: list %q: %w", prefix, err))
		}
	}
}

var errStop = errors.New("stop")

// Create starts writing the file at path under a hidden temporary name in
// the same directory (".name.tmp-RANDOM", which [Open] and other readers
// skip), creating directories as needed. Commit links it to path, which
// fails if path exists, and removes the temporary name; on filesystems
// without hard links it renames instead, after checking that path does not
// exist. Files are not synced to disk: Commit makes a file visible whole,
// it does not make it durable across a crash.
func (LocalFS) Create(ctx context.Context, name string) (Upload, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	final := filepath.FromSlash(name)
	dir, base := filepath.Split(final)
	if base == "" {
		return nil, fmt.Errorf("dataset: create %q: no file name", name)
	}
	if dir != "" {
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return nil, err
		}
	}
	var rnd [8]byte
	rand.Read(rnd[:])
	tmp := filepath.Join(dir, "."+base+".tmp-"+hex.EncodeToString(rnd[:]))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return nil, err
	}
	return &localUpload{f: f, tmp: tmp, final: final}, nil
}

type localUpload struct {
	f          *os.File
	tmp, final string
	done       bool
}

func (u *localUpload) Write(p []byte) (int, error) { return u.f.Write(p) }

func (u *localUpload) Commit() error {
	if u.done {
		return errors.New("dataset: upload already ended")
	}
	u.done = true
	if err := u.f.Close(); err != nil {
		os.Remove(u.tmp)
		return err
	}
	err := os.Link(u.tmp, u.final)
	if err != nil && !errors.Is(err, fs.ErrExist) && linkUnsupported(err) {
		if _, serr := os.Lstat(u.final); serr == nil {
			err = &fs.PathError{Op: "commit", Path: u.final, Err: fs.ErrExist}
		} else {
			err = os.Rename(u.tmp, u.final)
		}
	}
	os.Remove(u.tmp)
	return err
}

// linkUnsupported reports whether a link error means the filesystem has
// no hard links (FAT, some network and FUSE filesystems).
func linkUnsupported(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.EOPNOTSUPP) ||
		errors.Is(err, syscall.EXDEV) || errors.Is(err, syscall.EMLINK)
}

func (u *localUpload) Abort() error {
	if u.done {
		return nil
	}
	u.done = true
	u.f.Close()
	return os.Remove(u.tmp)
}
