package schema

import (
	"fmt"
	"strings"
	"testing"

	"github.com/quiverio/quiver/footer"
)

// Test helpers that write Parquet schemas compactly: el builds one
// SchemaElement from a spec and modifiers, and testPlan maps a list of
// them (root first) through footer.NewSchema and newSchemaPlan.

const (
	req = footer.RepetitionRequired
	opt = footer.RepetitionOptional
	rpt = footer.RepetitionRepeated
)

// elMod changes a SchemaElement under construction.
type elMod func(*footer.SchemaElement)

// leafEl returns a leaf element.
func leafEl(name string, rep footer.FieldRepetitionType, phys footer.Type, mods ...elMod) footer.SchemaElement {
	e := footer.SchemaElement{Name: name, RepetitionType: footer.Some(rep), Type: footer.Some(phys)}
	if phys == footer.TypeFixedLenByteArray {
		e.TypeLength = footer.Some(int32(16))
	}
	for _, m := range mods {
		m(&e)
	}
	return e
}

// groupEl returns a group element of n children.
func groupEl(name string, rep footer.FieldRepetitionType, n int32, mods ...elMod) footer.SchemaElement {
	e := footer.SchemaElement{Name: name, RepetitionType: footer.Some(rep), NumChildren: footer.Some(n)}
	for _, m := range mods {
		m(&e)
	}
	return e
}

// rootEl returns a root element of n children.
func rootEl(n int32) footer.SchemaElement {
	return footer.SchemaElement{Name: "schema", NumChildren: footer.Some(n)}
}

func logical(lt footer.LogicalType) elMod {
	return func(e *footer.SchemaElement) { e.LogicalType = lt }
}

func kind(k footer.LogicalKind) elMod { return logical(footer.LogicalType{Kind: k}) }

func converted(ct footer.ConvertedType) elMod {
	return func(e *footer.SchemaElement) { e.ConvertedType = footer.Some(ct) }
}

func length(n int32) elMod {
	return func(e *footer.SchemaElement) { e.TypeLength = footer.Some(n) }
}

func fieldID(id int32) elMod {
	return func(e *footer.SchemaElement) { e.FieldID = footer.Some(id) }
}

func precision(p, s int32) elMod {
	return func(e *footer.SchemaElement) { e.Precision, e.Scale = footer.Some(p), footer.Some(s) }
}

func decimalLT(p, s int32) elMod {
	return logical(footer.LogicalType{Kind: footer.LogicalDecimal, Decimal: footer.DecimalType{Precision: p, Scale: s}})
}

func intLT(width int8, signed bool) elMod {
	return logical(footer.LogicalType{Kind: footer.LogicalInteger, Integer: footer.IntType{BitWidth: width, IsSigned: signed}})
}

func timeLT(u footer.TimeUnit, utc bool) elMod {
	return logical(footer.LogicalType{Kind: footer.LogicalTime, Time: footer.TimeType{Unit: u, IsAdjustedToUTC: utc}})
}

func timestampLT(u footer.TimeUnit, utc bool) elMod {
	return logical(footer.LogicalType{Kind: footer.LogicalTimestamp, Timestamp: footer.TimestampType{Unit: u, IsAdjustedToUTC: utc}})
}

// testPlan maps elems (root first) with opts and kv, failing t on error.
func testPlan(t testing.TB, opts Options, kv []footer.KeyValue, elems ...footer.SchemaElement) *Plan {
	t.Helper()
	s, err := footer.NewSchema(elems, nil)
	if err != nil {
		t.Fatalf("footer.NewSchema: %v", err)
	}
	return NewPlan(s, kv, opts)
}

// dumpPlan renders plans one node a line: name, kind, Arrow type and
// nullability, levels, and the column of leaves.
func dumpPlan(plans []*FieldPlan) string {
	var b strings.Builder
	var walk func(p *FieldPlan, depth int)
	walk = func(p *FieldPlan, depth int) {
		kinds := [...]string{"leaf", "struct", "list", "map"}
		null := ""
		if p.Field.Nullable {
			null = "?"
		}
		fmt.Fprintf(&b, "%s%s %s %s%s def=%d rep=%d slot=%d", strings.Repeat("  ", depth), p.Field.Name,
			kinds[p.Kind], p.Field.Type, null, p.DefLevel, p.RepLevel, p.SlotDefLevel)
		if p.Kind == KindList || p.Kind == KindMap {
			fmt.Fprintf(&b, " elem=%d/%d", p.ElemDefLevel, p.ElemRepLevel)
		}
		if p.Kind == KindLeaf {
			fmt.Fprintf(&b, " col=%d", p.Column)
		}
		if p.NullCorrupt {
			b.WriteString(" nullCorrupt")
		}
		b.WriteByte('\n')
		for _, c := range p.Children {
			walk(c, depth+1)
		}
	}
	for _, p := range plans {
		walk(p, 0)
	}
	return b.String()
}
