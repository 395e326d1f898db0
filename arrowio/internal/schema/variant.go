package schema

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/quiverio/quiver/arrowio/internal/errs"
	"github.com/quiverio/quiver/footer"
)

// A VARIANT group (VariantEncoding.md, VariantShredding.md) reads as
// arrow-go's extensions.VariantType over the struct the group maps to, as
// arrow-go's pqarrow reads it: metadata, value and typed_value in the
// file's order, a shredded object as a struct of non-null {value,
// typed_value} structs, a shredded array as a list of non-null such
// structs.
//
// Where the file's repetitions are looser than that type allows, the
// mapping tightens the Arrow side rather than refusing the group:
//   - an optional metadata is non-nullable, and a null one is corrupt;
//   - a required typed_value, or a required value beside a typed_value
//     below the top level, is nullable (and holds no null);
//   - an optional field group of a shredded object is non-nullable, and
//     a null one reads as the field missing (value and typed_value both
//     null), which is what the group's absence says (VariantShredding.md
//     has the group required; parquet-testing's case-084-INVALID writes
//     it optional);
//   - an optional element of a shredded array is non-nullable, and a null
//     one is corrupt (an array has no missing elements).
//
// A group the type still cannot hold (no metadata, a value that is not
// binary, a fourth field, a typed_value that is a map, ...) reads as the
// struct it is, with the annotation in the PARQUET:logical_type field
// metadata, as every VARIANT group does under Options.VariantStorage.
//
// A typed_value leaf whose type is not one VariantShredding.md allows
// (an unsigned or INT96 integer, a FIXED_LEN_BYTE_ARRAY that is not a
// UUID or decimal, float16, a time other than micros, a timestamp other
// than micros or nanos, a decimal wider than 38 digits, a JSON, ENUM or
// BSON byte array) still gives the type, as in pqarrow, but reading the
// field is an error (Plan.Project): its values would reconstruct as
// Variant values of some other type, or not at all.

// variantShape records how a VARIANT group's plans change to fit the
// extension type: the new Arrow field of each plan touched, and which
// plans become non-nullable with a null corrupt (nullCorrupt) or present
// whenever their parent is (lower).
type variantShape struct {
	field       map[*FieldPlan]arrow.Field
	nullCorrupt []*FieldPlan
	lower       []*FieldPlan
}

// variant makes p, the struct plan of a VARIANT group, a VariantType when
// its structure allows one, and otherwise leaves it the annotated struct.
func (b *planBuilder) variant(p *FieldPlan) {
	if b.opts.VariantStorage {
		return
	}
	s := variantShape{field: make(map[*FieldPlan]arrow.Field)}
	kids := make([]arrow.Field, len(p.Children))
	for i, c := range p.Children {
		f := c.Field
		switch c.Field.Name {
		case "metadata":
			if f.Nullable {
				f.Nullable = false
				s.nullCorrupt = append(s.nullCorrupt, c)
			}
		case "typed_value":
			f.Nullable = true
			f.Type = s.typed(c)
		}
		s.field[c] = f
		kids[i] = f
	}
	vt, err := extensions.NewVariantType(arrow.StructOf(kids...))
	if err != nil {
		return
	}
	for c, f := range s.field {
		c.Field = f
	}
	for _, c := range s.nullCorrupt {
		c.NullCorrupt = true
	}
	for _, c := range s.lower {
		c.DefLevel--
	}
	p.Field.Type = vt
	p.Field.Metadata = metadataOf(fieldIDMeta(p.Node)...)
	p.Err = shreddingError(p)
}

// typed returns the Arrow type shredded value t (a typed_value) takes in
// the variant type: an object's fields and an array's elements become
// non-nullable {value, typed_value} structs.
func (s *variantShape) typed(t *FieldPlan) arrow.DataType {
	switch t.Kind {
	case KindStruct:
		fields := make([]arrow.Field, len(t.Children))
		for i, c := range t.Children {
			f := c.Field
			f.Type = s.pair(c, f.Nullable)
			if f.Nullable {
				f.Nullable = false
				s.lower = append(s.lower, c)
			}
			s.field[c] = f
			fields[i] = f
		}
		return arrow.StructOf(fields...)
	case KindList:
		e := t.Children[0]
		f := e.Field
		f.Type = s.pair(e, false)
		if f.Nullable {
			f.Nullable = false
			s.nullCorrupt = append(s.nullCorrupt, e)
		}
		s.field[e] = f
		return arrow.ListOfField(f)
	}
	return t.Field.Type
}

// pair returns the Arrow type of p, an object field's or an array
// element's group of value and typed_value. Both become nullable when
// both are there, or when the group reads null as missing (lowered).
func (s *variantShape) pair(p *FieldPlan, lowered bool) arrow.DataType {
	if p.Kind != KindStruct {
		return p.Field.Type
	}
	both := len(p.Children) == 2
	fields := make([]arrow.Field, len(p.Children))
	for i, c := range p.Children {
		f := c.Field
		if both || lowered {
			f.Nullable = true
		}
		if c.Field.Name == "typed_value" {
			f.Type = s.typed(c)
		}
		s.field[c] = f
		fields[i] = f
	}
	return arrow.StructOf(fields...)
}

// shreddingError returns the error reading variant plan p gives when a
// typed_value leaf below it has a type VariantShredding.md does not allow,
// or nil.
func shreddingError(p *FieldPlan) error {
	var walk func(f *FieldPlan, shredded bool) *FieldPlan
	walk = func(f *FieldPlan, shredded bool) *FieldPlan {
		if f.Kind == KindLeaf {
			if shredded && !shreddedLeaf(f) {
				return f
			}
			return nil
		}
		for _, c := range f.Children {
			if bad := walk(c, shredded || c.Field.Name == "typed_value"); bad != nil {
				return bad
			}
		}
		return nil
	}
	bad := walk(p, false)
	if bad == nil {
		return nil
	}
	return fmt.Errorf("%w: VARIANT column %q: shredded value %q of Parquet type %s reads as %s, which is not a shredded type VariantShredding.md allows (SchemaOptions.VariantStorage reads the group as its storage struct)",
		errs.ErrUnsupported, p.Node.DottedPath(), bad.Node.DottedPath(), describeLeaf(bad.Node), bad.Field.Type)
}

// shreddedLeaf reports whether typed_value leaf f has one of the types of
// VariantShredding.md's "Shredded Value Types" table, as the mapping
// reads them (with what an ARROW:schema entry may restore over them).
func shreddedLeaf(f *FieldPlan) bool {
	phys := f.Node.Physical
	switch t := storageOf(f.Field.Type).(type) {
	case *arrow.BooleanType, *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type,
		*arrow.Float32Type, *arrow.Float64Type, *arrow.Date32Type:
		return true
	case arrow.DecimalType:
		return t.GetPrecision() <= maxDecimal128Precision
	case *arrow.Time64Type:
		return t.Unit == arrow.Microsecond
	case *arrow.TimestampType:
		return phys == footer.TypeInt64 && (t.Unit == arrow.Microsecond || t.Unit == arrow.Nanosecond)
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		// STRING, not the ENUM or JSON the mapping also reads as string.
		ct, ok := f.Node.Converted().Get()
		return phys == footer.TypeByteArray && (f.Node.Logical().Kind == footer.LogicalString ||
			f.Node.Logical().Kind == footer.LogicalNone && ok && ct == footer.ConvertedUTF8)
	case *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.BinaryViewType:
		// Unannotated, not BSON.
		_, converted := f.Node.Converted().Get()
		return phys == footer.TypeByteArray && f.Node.Logical().Kind == footer.LogicalNone && !converted
	case *arrow.FixedSizeBinaryType:
		return f.Node.Logical().Kind == footer.LogicalUUID && t.ByteWidth == 16
	}
	return false
}

// describeLeaf names leaf n's physical type and annotation for errors.
func describeLeaf(n *footer.Node) string {
	s := n.Physical.String()
	if n.Physical == footer.TypeFixedLenByteArray {
		s = fmt.Sprintf("%s(%d)", s, n.TypeLength)
	}
	if lt := n.Logical(); lt.Kind != footer.LogicalNone {
		s += " " + lt.String()
	} else if ct, ok := n.Converted().Get(); ok {
		s += " " + ct.String()
	}
	return s
}

// isVariant reports whether t is arrow-go's variant extension type.
func isVariant(t arrow.DataType) bool {
	ext, ok := t.(arrow.ExtensionType)
	return ok && extensions.IsVariantExtensionName(ext.ExtensionName())
}

// plansError returns the first Err of a plan below plans that still reads
// as a variant (a projection that pruned the variant to its storage
// reads the columns as they are).
func plansError(plans []*FieldPlan) error {
	for _, p := range plans {
		if p.Err != nil && isVariant(p.Field.Type) {
			return p.Err
		}
		if err := plansError(p.Children); err != nil {
			return err
		}
	}
	return nil
}
