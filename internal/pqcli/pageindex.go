package pqcli

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/quiverio/quiver/arrowio"
	"github.com/quiverio/quiver/footer"
	"github.com/quiverio/quiver/pageindex"
)

// runPageIndex prints the ColumnIndex and OffsetIndex of every column
// chunk (or of one column's chunks): one line per page.
func runPageIndex(args []string, out io.Writer) error {
	fs := newFlags("pageindex")
	column := fs.String("column", "", "only this column (dotted path)")
	keys := addKeyFlags(fs)
	file, err := parseFile(fs, args)
	if err != nil {
		return err
	}
	rd, leaves, err := openLeaves(file, keys, *column)
	if err != nil {
		return err
	}
	defer rd.Close()
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	defer tw.Flush()
	for g := range rd.NumRowGroups() {
		for _, leaf := range leaves {
			fmt.Fprintf(tw, "row group %d, column %s:\n", g, leaf.DottedPath())
			pci, poi, err := rd.PageIndex(g, leaf.DottedPath())
			if err != nil {
				return err
			}
			if pci == nil && poi == nil {
				fmt.Fprintln(tw, "  no page index")
				continue
			}
			var ci footer.ColumnIndex
			var oi footer.OffsetIndex
			if pci != nil {
				ci = *pci
				fmt.Fprintf(tw, "  boundary order %s\n", ci.BoundaryOrder)
			}
			if poi != nil {
				oi = *poi
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

// openLeaves opens path, decrypting with the key flags' configuration,
// and returns its reader with the leaf named column, or every leaf when
// column is "".
func openLeaves(path string, keys *keyFlags, column string) (*reader, []*footer.Node, error) {
	cfg, err := keys.config()
	if err != nil {
		return nil, nil, err
	}
	rd, err := openReader(path, arrowio.ReadOptions{Decryption: cfg})
	if err != nil {
		return nil, nil, err
	}
	schema, err := footer.NewSchema(rd.Metadata().Schema, rd.Metadata().ColumnOrders)
	if err != nil {
		rd.Close()
		return nil, nil, err
	}
	if column == "" {
		return rd, schema.Leaves, nil
	}
	leaf := schema.LeafByPath(column)
	if leaf == nil {
		rd.Close()
		return nil, nil, fmt.Errorf("%w: no leaf column %q", errUsage, column)
	}
	return rd, []*footer.Node{leaf}, nil
}

// runBloom says, for each row group, whether a column's bloom filter may
// hold a value.
func runBloom(args []string, out io.Writer) error {
	fs := newFlags("bloom")
	column := fs.String("column", "", "the column (dotted path)")
	value := fs.String("value", "", "the value to look up, as text: a number for numeric columns")
	keys := addKeyFlags(fs)
	file, err := parseFile(fs, args)
	if err != nil {
		return err
	}
	if *column == "" {
		return fmt.Errorf("%w: bloom needs --column", errUsage)
	}
	rd, leaves, err := openLeaves(file, keys, *column)
	if err != nil {
		return err
	}
	defer rd.Close()
	leaf := leaves[0]
	h, err := bloomHash(leaf, *value)
	if err != nil {
		return err
	}
	for g := range rd.NumRowGroups() {
		bf, err := rd.BloomFilter(g, leaf.DottedPath())
		if errors.Is(err, pageindex.ErrUnsupported) {
			fmt.Fprintf(out, "row group %d: %v\n", g, err)
			continue
		}
		if err != nil {
			return err
		}
		if bf == nil {
			fmt.Fprintf(out, "row group %d: no bloom filter\n", g)
			continue
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
