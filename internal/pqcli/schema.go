package pqcli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/quiverio/quiver/dataset"
	"github.com/quiverio/quiver/footer"
)

// runSchema prints a file's Parquet schema, or a dataset's Arrow schema
// (its files' unified columns, then the partition keys).
func runSchema(args []string, out io.Writer) error {
	fs := newFlags("schema")
	keys := addKeyFlags(fs)
	file, err := parseFile(fs, args)
	if err != nil {
		return err
	}
	if isDataset(file) {
		ds, err := openDataset(context.Background(), file, dataset.Options{})
		if err != nil {
			return err
		}
		writeArrowFields(out, ds.Schema())
		return nil
	}
	ft, err := readFooter(file, keys)
	if err != nil {
		return err
	}
	writeSchema(out, ft.Schema)
	return nil
}

// writeSchema prints s in the Parquet message syntax, each field followed
// by a comment with its levels (and, for leaves, its column index).
func writeSchema(w io.Writer, s *footer.Schema) {
	fmt.Fprintf(w, "message %s {\n", s.Root.Name)
	for _, c := range s.Root.Children {
		writeNode(w, c, 1)
	}
	fmt.Fprintln(w, "}")
}

func writeNode(w io.Writer, n *footer.Node, depth int) {
	indent := strings.Repeat("  ", depth)
	rep := strings.ToLower(n.Repetition.String())
	annot := annotation(n)
	levels := fmt.Sprintf("def=%d rep=%d", n.MaxDef, n.MaxRep)
	if !n.IsLeaf() {
		fmt.Fprintf(w, "%s%s group %s%s { // %s\n", indent, rep, n.Name, annot, levels)
		for _, c := range n.Children {
			writeNode(w, c, depth+1)
		}
		fmt.Fprintf(w, "%s}\n", indent)
		return
	}
	typ := strings.ToLower(n.Physical.String())
	if n.Physical == footer.TypeFixedLenByteArray {
		typ = fmt.Sprintf("fixed_len_byte_array(%d)", n.TypeLength)
	}
	fmt.Fprintf(w, "%s%s %s %s%s; // %s column=%d\n", indent, rep, typ, n.Name, annot, levels, n.Column)
}

// annotation renders a node's logical type, or its converted type when it
// has no logical type, as " (X)"; the field id follows as " = N".
func annotation(n *footer.Node) string {
	var s string
	if lt := n.Logical(); lt.Kind != footer.LogicalNone {
		s = " (" + lt.String() + ")"
	} else if ct, ok := n.Converted().Get(); ok {
		s = " (" + ct.String()
		if ct == footer.ConvertedDecimal {
			s += fmt.Sprintf("(%d,%d)", n.Element.Precision.Or(0), n.Element.Scale.Or(0))
		}
		s += ")"
	}
	if id, ok := n.Element.FieldID.Get(); ok {
		s += fmt.Sprintf(" = %d", id)
	}
	return s
}

// writeArrowFields prints each field of s on a line of its own: name and
// Arrow type.
func writeArrowFields(w io.Writer, s *arrow.Schema) {
	for _, f := range s.Fields() {
		fmt.Fprintf(w, "  %s: %s\n", f.Name, f.Type)
	}
}
