package dataset

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// touch creates files (with content, so they are not skipped as empty)
// under dir.
func touch(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

func TestHidden(t *testing.T) {
	for rel, want := range map[string]bool{
		"part-0.parquet":                    false,
		"year=2024/part-0.parquet":          false,
		"_col=1/part-0.parquet":             false,
		"_SUCCESS":                          true,
		"_common_metadata":                  true,
		".part-0.parquet.crc":               true,
		"part-0.parquet.crc":                true,
		"_temporary/0/part-0.parquet":       true,
		"year=2024/.staging/part-0.parquet": true,
		"_delta_log/0000.json":              true,
		"part-0.parquet._COPYING_":          true,
		"x.parquet.tmp":                     true,
	} {
		if got := Hidden(rel); got != want {
			t.Errorf("Hidden(%q) = %v, want %v", rel, got, want)
		}
	}
}

func TestMatchGlob(t *testing.T) {
	for _, tc := range []struct {
		pat, name string
		want      bool
	}{
		{"*.parquet", "a.parquet", true},
		{"*.parquet", "d/a.parquet", false},
		{"**/*.parquet", "a.parquet", true},
		{"**/*.parquet", "d/e/a.parquet", true},
		{"**", "d/e/a.parquet", true},
		{"d/**/x/*.parquet", "d/x/a.parquet", true},
		{"d/**/x/*.parquet", "d/1/2/x/a.parquet", true},
		{"d/**/x/*.parquet", "d/1/2/y/a.parquet", false},
		{"year=202[34]/*/*.parquet", "year=2024/m=1/a.parquet", true},
		{"year=202[34]/*/*.parquet", "year=2022/m=1/a.parquet", false},
		{"**/**/a.parquet", "a.parquet", true},
	} {
		if got := matchGlob(strings.Split(tc.pat, "/"), strings.Split(tc.name, "/")); got != tc.want {
			t.Errorf("matchGlob(%q, %q) = %v, want %v", tc.pat, tc.name, got, tc.want)
		}
	}
}

func TestDiscover(t *testing.T) {
	dir := filepath.ToSlash(t.TempDir())
	touch(t, dir,
		"ds/year=2023/part-0.parquet",
		"ds/year=2024/part-0.parquet",
		"ds/year=2024/part-1.parquet",
		"ds/year=2024/_SUCCESS",
		"ds/year=2024/.part-1.parquet.crc",
		"ds/_temporary/0/part-9.parquet",
		"ds/year=2024/.hidden/part-2.parquet",
		"ds2/part-0.parquet",
		"other/a.parquet",
		"other/b.txt",
	)
	if err := os.WriteFile(filepath.Join(dir, "ds/year=2024/empty.parquet"), nil, 0o666); err != nil {
		t.Fatal(err)
	}
	paths := func(fs []found) (out []string) {
		for _, f := range fs {
			out = append(out, strings.TrimPrefix(f.Path, dir+"/")+"@"+strings.TrimPrefix(f.root, dir))
		}
		return out
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		paths []string
		want  []string
	}{
		{"dir", []string{dir + "/ds"}, []string{"ds/year=2023/part-0.parquet@/ds/", "ds/year=2024/part-0.parquet@/ds/", "ds/year=2024/part-1.parquet@/ds/"}},
		{"dir/", []string{dir + "/ds/"}, []string{"ds/year=2023/part-0.parquet@/ds/", "ds/year=2024/part-0.parquet@/ds/", "ds/year=2024/part-1.parquet@/ds/"}},
		{"glob", []string{dir + "/ds/*/part-0.parquet"}, []string{"ds/year=2023/part-0.parquet@/ds/", "ds/year=2024/part-0.parquet@/ds/"}},
		{"doublestar", []string{dir + "/**/*.parquet"}, []string{"ds/year=2023/part-0.parquet@/", "ds/year=2024/part-0.parquet@/", "ds/year=2024/part-1.parquet@/", "ds2/part-0.parquet@/", "other/a.parquet@/"}},
		{"files", []string{dir + "/other/a.parquet", dir + "/ds2/part-0.parquet", dir + "/other/a.parquet"}, []string{"other/a.parquet@/other/", "ds2/part-0.parquet@/ds2/"}},
		{"hidden named", []string{dir + "/ds/year=2024/_SUCCESS"}, []string{"ds/year=2024/_SUCCESS@/ds/year=2024/"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := discover(ctx, Local, tc.paths, "")
			if err != nil {
				t.Fatal(err)
			}
			if p := paths(got); !slices.Equal(p, tc.want) {
				t.Errorf("got  %q\nwant %q", p, tc.want)
			}
		})
	}
	if _, err := discover(ctx, Local, []string{dir + "/nope"}, ""); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing path: %v", err)
	}
	// PartitionBase applies to files named one by one.
	got, err := discover(ctx, Local, []string{dir + "/ds/year=2024/part-0.parquet"}, dir+"/ds")
	if err != nil || len(got) != 1 || got[0].root != dir+"/ds/" {
		t.Errorf("PartitionBase: %+v, %v", got, err)
	}
	if _, err := discover(ctx, Local, []string{dir + "/ds2/part-0.parquet"}, dir+"/ds"); !errors.Is(err, ErrPartition) {
		t.Errorf("file outside PartitionBase: %v", err)
	}
}

// A relative path lists with relative names, and a prefix that is not a
// directory lists only the entries that start with it.
func TestLocalList(t *testing.T) {
	dir := t.TempDir()
	touch(t, dir, "a/x.parquet", "ab/y.parquet", "b/z.parquet")
	t.Chdir(dir)
	var got []string
	for fi, err := range Local.List(context.Background(), "a") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fi.Path)
	}
	slices.Sort(got)
	if want := []string{"a/x.parquet", "ab/y.parquet"}; !slices.Equal(got, want) {
		t.Errorf("List(a) = %q, want %q", got, want)
	}
	got = got[:0]
	for fi, err := range Local.List(context.Background(), "./a/") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fi.Path)
	}
	if want := []string{"./a/x.parquet"}; !slices.Equal(got, want) {
		t.Errorf("List(./a/) = %q, want %q", got, want)
	}
}
