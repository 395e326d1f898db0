package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// runPageIndex prints the ColumnIndex and OffsetIndex of every column
// chunk (or of one column's chunks): one line per page.
func runPageIndex(args []string, out io.Writer) error {
	fs := newFlags("pageindex")
	column := fs.String("column", "", "only this column (dotted path)")
	file, err := parseFile(fs, args)
	if err != nil {
		return err
	}
	ft, f, err := openWithFooter(file)
	if err != nil {
		return err
	}
	defer f.Close()
	leaves, err := selectLeaves(ft, *column)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	defer tw.Flush()
	for g := range ft.Meta.RowGroups {
		rg := &ft.Meta.RowGroups[g]
		for _, leaf := range leaves {
			cc := &rg.Columns[leaf.Column]
			fmt.Fprintf(tw, "row group %d, column %s:\n", g, leaf.DottedPath())
			var ci footer.ColumnIndex
			var oi footer.OffsetIndex
			hasCI, err := pageindex.ReadIndex(f, cc.ColumnIndexOffset, cc.ColumnIndexLength, ft.MetaOffset, &ci)
			if err != nil {
				return fmt.Errorf("row group %d, column %s: column index: %w", g, leaf.DottedPath(), err)
			}
			hasOI, err := pageindex.ReadIndex(f, cc.OffsetIndexOffset, cc.OffsetIndexLength, ft.MetaOffset, &oi)
			if err != nil {
				return fmt.Errorf("row group %d, column %s: offset index: %w", g, leaf.DottedPath(), err)
			}
			if !hasCI && !hasOI {
				fmt.Fprintln(tw, "  no page index")
				continue
			}
			if hasCI {
				fmt.Fprintf(tw, "  boundary order %s\n", ci.BoundaryOrder)
			}
			fmt.Fprintln(tw, "  page\toffset\tsize\tfirst row\tnulls\tmin\tmax")
			pages := max(len(oi.PageLocations), len(ci.NullPages))
			for p := range pages {
				cells := []string{strconv.Itoa(p), "", "", "", "", "", ""}
				if p < len(oi.PageLocations) {
					loc := oi.PageLocations[p]
					cells[1], cells[2], cells[3] = strconv.FormatInt(loc.Offset, 10), strconv.Itoa(int(loc.CompressedPageSize)), strconv.FormatInt(loc.FirstRowIndex, 10)
				}
				if p < len(ci.NullCounts) {
					cells[4] = strconv.FormatInt(ci.NullCounts[p], 10)
				}
				switch {
				case p < len(ci.NullPages) && ci.NullPages[p]:
					cells[5], cells[6] = "(all null)", "(all null)"
				case p < len(ci.MinValues) && p < len(ci.MaxValues):
					cells[5], cells[6] = leaf.FormatValue(ci.MinValues[p]), leaf.FormatValue(ci.MaxValues[p])
				}
				fmt.Fprintln(tw, "  "+strings.Join(cells, "\t"))
			}
		}
	}
	return nil
}

// openWithFooter opens path and parses its footer; the caller closes the
// file.
func openWithFooter(path string) (*footer.Footer, *os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err == nil {
		var ft *footer.Footer
		if ft, err = footer.ReadFooter(f, st.Size()); err == nil {
			return ft, f, nil
		}
		err = fmt.Errorf("%s: %w", path, err)
	}
	f.Close()
	return nil, nil, err
}

// selectLeaves returns the leaf named path, or every leaf when path is "".
func selectLeaves(ft *footer.Footer, path string) ([]*footer.Node, error) {
	if path == "" {
		return ft.Schema.Leaves, nil
	}
	leaf := ft.Schema.LeafByPath(path)
	if leaf == nil {
		return nil, fmt.Errorf("%w: no leaf column %q", errUsage, path)
	}
	return []*footer.Node{leaf}, nil
}

// runBloom says, for each row group, whether a column's bloom filter may
// hold a value.
func runBloom(args []string, out io.Writer) error {
	fs := newFlags("bloom")
	column := fs.String("column", "", "the column (dotted path)")
	value := fs.String("value", "", "the value to look up, as text: a number for numeric columns")
	file, err := parseFile(fs, args)
	if err != nil {
		return err
	}
	if *column == "" {
		return fmt.Errorf("%w: bloom needs --column", errUsage)
	}
	ft, f, err := openWithFooter(file)
	if err != nil {
		return err
	}
	defer f.Close()
	leaves, err := selectLeaves(ft, *column)
	if err != nil {
		return err
	}
	leaf := leaves[0]
	h, err := bloomHash(leaf, *value)
	if err != nil {
		return err
	}
	for g := range ft.Meta.RowGroups {
		md := ft.Meta.RowGroups[g].Columns[leaf.Column].MetaData
		off, ok := footer.Optional[int64]{}, false
		if md != nil {
			off, ok = md.BloomFilterOffset, md.BloomFilterOffset.Set
		}
		if !ok {
			fmt.Fprintf(out, "row group %d: no bloom filter\n", g)
			continue
		}
		bf, err := pageindex.ReadBloom(f, off.Value, md.BloomFilterLength.Or(0), ft.MetaOffset)
		if errors.Is(err, pageindex.ErrUnsupported) {
			fmt.Fprintf(out, "row group %d: %v\n", g, err)
			continue
		}
		if err != nil {
			return fmt.Errorf("row group %d: %w", g, err)
		}
		verdict := "absent"
		if bf.Check(h) {
			verdict = "maybe present"
		}
		fmt.Fprintf(out, "row group %d: %s (%d-byte filter)\n", g, verdict, bf.NumBytes())
	}
	return nil
}

// bloomHash returns the bloom hash of text as a value of leaf's physical
// type.
func bloomHash(leaf *footer.Node, text string) (uint64, error) {
	bad := func(err error) (uint64, error) {
		return 0, fmt.Errorf("%w: --value %q for %s column %s: %v", errUsage, text, leaf.Physical, leaf.DottedPath(), err)
	}
	switch leaf.Physical {
	case footer.TypeInt32:
		v, err := strconv.ParseInt(text, 0, 64)
		if err != nil {
			return bad(err)
		}
		if v < -1<<31 || v > 1<<32-1 {
			return bad(errors.New("out of range"))
		}
		return pageindex.HashInt32(int32(uint32(v))), nil
	case footer.TypeInt64:
		v, err := strconv.ParseInt(text, 0, 64)
		if err != nil {
			u, uerr := strconv.ParseUint(text, 0, 64)
			if uerr != nil {
				return bad(err)
			}
			v = int64(u)
		}
		return pageindex.HashInt64(v), nil
	case footer.TypeFloat:
		v, err := strconv.ParseFloat(text, 32)
		if err != nil {
			return bad(err)
		}
		return pageindex.HashFloat32(float32(v)), nil
	case footer.TypeDouble:
		v, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return bad(err)
		}
		return pageindex.HashFloat64(v), nil
	case footer.TypeByteArray, footer.TypeFixedLenByteArray:
		return pageindex.HashBytes([]byte(text)), nil
	}
	return bad(errors.New("no bloom filter for this type"))
}
