package datasets

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// ARFFAttribute is one column of an ARFF file, as declared and as read.
type ARFFAttribute struct {
	Name string
	Type string // the declared type, such as "numeric" or "{red, green}"
	Line int    // the line of its @attribute declaration
	// Numeric is set for NUMERIC, REAL and INTEGER attributes, whose values
	// are in Nums (NaN for a missing value '?'); the values of nominal,
	// STRING and DATE attributes are in Strs ("NaN" when missing).
	Numeric bool
	Levels  []string // nominal levels; nil for the other types
	Nums    []float64
	Strs    []string
	// MissingLine is the line of the first missing value, 0 if none.
	MissingLine int
}

// ReadARFFColumns reads Weka ARFF data from r, named name in errors, into
// one ARFFAttribute per @attribute, in file order. It is the one ARFF
// parser: ReadARFF and frames.ReadARFF are built on it.
//
// The header holds "@relation", "@attribute <name> <type>" and "@data"
// lines (keywords in any case; names may be quoted with ' or "); lines
// starting with '%' are comments. Data rows are comma-separated values,
// optionally quoted with ' or " (a backslash escapes a quote), or sparse
// rows "{index value, ...}" with 0-based indices where an omitted numeric
// value is 0 and an omitted nominal value is the first level. '?' is a
// missing value. A numeric value that is not a finite number is a
// *CellError with its line, column (the attribute's 1-based position) and
// row, or a missing value with Options.BadAsMissing (which also reads an
// empty numeric field as missing). A nominal value outside its levels, a
// string or nominal value with a control character (such as NUL) and any
// other malformed line is a *ParseError with its line (and its column for
// a value). With numericOnly, a non-numeric attribute is an error at its
// declaration. More than MaxElements values are refused, and so is data
// over the memory limit (credlab.EffectiveMemoryLimit, internal/memlimit), counting
// Options.NumBytes and StrBytes per value for the caller, with a
// *errs.TooLargeError. At most one opt is used.
func ReadARFFColumns(r io.Reader, name string, numericOnly bool, opt ...Options) ([]*ARFFAttribute, int, error) {
	o := options(opt)
	lr := newLineReader(r, name)
	fail := func(format string, args ...any) ([]*ARFFAttribute, int, error) {
		return nil, 0, lr.errorf(format, args...)
	}
	var attrs []*ARFFAttribute
	seen := map[string]bool{}
	for inData := false; !inData; {
		s, ok := lr.next()
		if !ok {
			if lr.err != nil {
				return nil, 0, lr.err
			}
			return nil, 0, errorf(name, 0, "no @data section")
		}
		s = strings.TrimSpace(s)
		if s == "" || s[0] == '%' {
			continue
		}
		kw, rest := splitKeyword(s)
		switch strings.ToLower(kw) {
		case "@relation":
		case "@attribute":
			a, msg := parseARFFAttribute(rest)
			if msg != "" {
				return fail("@attribute: %s", msg)
			}
			a.Line = lr.line
			if numericOnly && !a.Numeric {
				if a.Levels != nil {
					return fail("attribute %s is nominal %s: only numeric attributes are supported; encode or drop it first", quote(a.Name), quote(a.Type))
				}
				return fail("attribute %s has type %s: only numeric attributes are supported", quote(a.Name), quote(a.Type))
			}
			if seen[a.Name] {
				return fail("attribute %s declared twice", quote(a.Name))
			}
			seen[a.Name] = true
			attrs = append(attrs, a)
		case "@data":
			if rest != "" {
				return fail("unexpected text after @data")
			}
			inData = true
		default:
			return fail("unexpected line %s in the ARFF header (want @relation, @attribute or @data)", quote(s))
		}
	}
	p := len(attrs)
	if p == 0 {
		return fail("no @attribute before @data")
	}
	// levelIndex maps each nominal value to its level, so that the columns
	// hold the declared strings and not pieces of the lines.
	levelIndex := make([]map[string]string, p)
	// rowBytes is the memory of a row: its values in the columns, with
	// room for the columns to grow (twice their size), and the caller's.
	rowBytes := 0.0
	hasStrings := false
	for j, a := range attrs {
		if a.Levels != nil {
			levelIndex[j] = make(map[string]string, len(a.Levels))
			for _, l := range a.Levels {
				levelIndex[j][l] = l
			}
		}
		if a.Numeric {
			rowBytes += 2*8 + o.NumBytes
		} else {
			rowBytes += 2*16 + o.StrBytes
			hasStrings = true
		}
	}
	strBytes := 0 // the bytes of the string values held
	limit := memoryLimit()
	n := 0
	set := func(j int, v string, quoted bool) error {
		a := attrs[j]
		missing := v == "?" && !quoted
		bad := func() error {
			if o.BadAsMissing {
				a.Nums[n-1] = math.NaN()
				if a.MissingLine == 0 {
					a.MissingLine = lr.line
				}
				return nil
			}
			return &CellError{File: name, Line: lr.line, Column: j + 1, Name: a.Name, Row: n - 1, Value: v}
		}
		cellError := func(format string, args ...any) error {
			return &ParseError{File: name, Line: lr.line, Column: j + 1, Name: a.Name, Msg: fmt.Sprintf(format, args...)}
		}
		if missing && a.MissingLine == 0 {
			a.MissingLine = lr.line
		}
		switch {
		case a.Numeric && missing:
			a.Nums[n-1] = math.NaN()
		case a.Numeric:
			if v == "" {
				if o.BadAsMissing {
					return bad()
				}
				return cellError("row %d: empty field (a missing value is '?')", n-1)
			}
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				// A syntax error, an overflow (strconv.ErrRange: 1e999) or
				// an explicit infinity or NaN: not a finite number.
				return bad()
			}
			a.Nums[n-1] = f
		case missing:
			a.Strs[n-1] = "NaN"
		case levelIndex[j] != nil:
			l, ok := levelIndex[j][v]
			if !ok {
				return cellError("row %d: %s is not one of its levels %s", n-1, quote(v), QuoteNames(a.Levels, 10))
			}
			a.Strs[n-1] = l
		default:
			if HasControl(v) {
				return cellError("row %d: the value %s contains a control character (is this a binary file?)", n-1, quote(v))
			}
			v = strings.Clone(v) // not the whole line
			strBytes += len(v)
			a.Strs[n-1] = v
		}
		return nil
	}
	for {
		s, ok := lr.next()
		if !ok {
			break
		}
		s = strings.TrimSpace(s)
		if s == "" || s[0] == '%' {
			continue
		}
		if err := checkSize(name, int64(n+1), int64(p)); err != nil {
			err.(*ParseError).Line = lr.line
			return nil, 0, err
		}
		need := float64(n+1) * rowBytes
		if hasStrings {
			need += float64(strBytes + len(s))
		}
		if need > float64(limit) {
			return nil, 0, PartialTooLarge("ARFF", name, n+1, p, need, limit)
		}
		for _, a := range attrs {
			if a.Numeric {
				a.Nums = append(a.Nums, 0)
			} else {
				def := "NaN"
				if len(a.Levels) > 0 {
					def = a.Levels[0]
				}
				a.Strs = append(a.Strs, def)
			}
		}
		n++
		if s[0] == '{' {
			if !strings.HasSuffix(s, "}") {
				return fail("sparse row: missing closing '}'")
			}
			body := strings.TrimSpace(s[1 : len(s)-1])
			if body == "" {
				continue
			}
			prev := -1
			pairs, msg := splitARFF(body)
			if msg != "" {
				return fail("sparse row: %s", msg)
			}
			for _, pair := range pairs {
				is, vs, ok := cutSpace(strings.TrimSpace(pair.v))
				vs = strings.TrimSpace(vs)
				if pair.quoted || !ok || (vs != "" && vs[0] != '\'' && vs[0] != '"' && strings.ContainsAny(vs, " \t")) {
					return fail("sparse row: %s is not an \"index value\" pair", quote(pair.v))
				}
				idx, err := strconv.Atoi(is)
				if err != nil || idx < 0 || idx >= p {
					return fail("sparse row: index %s is not in [0, %d)", quote(is), p)
				}
				if idx <= prev {
					return fail("sparse row: index %d after %d: indices must be strictly increasing", idx, prev)
				}
				prev = idx
				v, quoted := unquoteARFF(vs)
				if err := set(idx, v, quoted); err != nil {
					return nil, 0, err
				}
			}
			continue
		}
		fields, msg := splitARFF(s)
		if msg != "" {
			return fail("%s", msg)
		}
		if len(fields) != p {
			return fail("%d values, want %d (one per @attribute)", len(fields), p)
		}
		for j, f := range fields {
			if err := set(j, f.v, f.quoted); err != nil {
				return nil, 0, err
			}
		}
	}
	if lr.err != nil {
		return nil, 0, lr.err
	}
	if n == 0 {
		return nil, 0, errorf(name, 0, "no data rows after @data")
	}
	return attrs, n, nil
}

// ReadARFF reads Weka ARFF data with numeric attributes from r, named name
// in errors (see ReadARFFColumns for the format). The target column is the
// attribute named target (matched exactly, then ignoring case), or the last
// attribute when target is empty; the other attributes, in file order, are
// the columns of X. A nominal, string or date attribute is reported with
// its name and line, since this function builds numeric matrices only (use
// frames.ReadARFF for those); a missing value '?' is an error.
func ReadARFF(r io.Reader, name, target string) (*mat.Dense, []float64, error) {
	// The matrix of all attributes, then X and y: 16 bytes a value.
	attrs, n, err := ReadARFFColumns(r, name, true, Options{NumBytes: 16})
	if err != nil {
		return nil, nil, err
	}
	p := len(attrs)
	if p < 2 {
		return nil, nil, errorf(name, 0, "%d attributes: need at least one feature and a target", p)
	}
	names := make([]string, p)
	for j, a := range attrs {
		names[j] = a.Name
		if a.MissingLine > 0 {
			return nil, nil, errorf(name, a.MissingLine, "attribute %s: missing value \"?\"", quote(a.Name))
		}
	}
	tcol := p - 1
	if target != "" {
		if tcol = findName(names, target); tcol < 0 {
			return nil, nil, errorf(name, 0, "no attribute named %s (attributes: %s)", quote(target), strings.Join(names, ", "))
		}
	}
	data := make([]float64, n*p)
	for j, a := range attrs {
		for i, v := range a.Nums {
			data[i*p+j] = v
		}
	}
	x, y := splitTarget(data, n, p, tcol)
	return x, y, nil
}

// LoadARFF reads the ARFF file at path (gzip-compressed if the name ends in
// ".gz"); see ReadARFF.
func LoadARFF(path, target string) (*mat.Dense, []float64, error) {
	type xy struct {
		x *mat.Dense
		y []float64
	}
	r, err := load(path, func(r io.Reader, name string) (xy, error) {
		x, y, err := ReadARFF(r, name, target)
		return xy{x, y}, err
	})
	return r.x, r.y, err
}

// splitKeyword splits "@keyword rest" at the first space or tab.
func splitKeyword(line string) (kw, rest string) {
	i := strings.IndexAny(line, " \t")
	if i < 0 {
		return line, ""
	}
	return line[:i], strings.TrimSpace(line[i:])
}

// QuoteNames quotes up to max names for a message, with the count when
// there are more.
func QuoteNames(names []string, max int) string {
	q := make([]string, 0, min(len(names), max))
	for i, n := range names {
		if i == max {
			q = append(q, fmt.Sprintf("... (%d in all)", len(names)))
			break
		}
		q = append(q, strconv.Quote(n))
	}
	return strings.Join(q, ", ")
}

// findName returns the index of name in names, matched exactly or, if that
// fails, ignoring case when only one name matches; -1 if none.
func findName(names []string, name string) int {
	for i, a := range names {
		if a == name {
			return i
		}
	}
	found := -1
	for i, a := range names {
		if strings.EqualFold(a, name) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// splitTarget moves column tcol of the n x p row-major data into y and
// returns the remaining n x (p-1) matrix.
func splitTarget(data []float64, n, p, tcol int) (*mat.Dense, []float64) {
	d := p - 1
	x := make([]float64, n*d)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		row := data[i*p : (i+1)*p]
		y[i] = row[tcol]
		copy(x[i*d:], row[:tcol])
		copy(x[i*d+tcol:], row[tcol+1:])
	}
	return dense(n, d, x), y
}

// parseARFFAttribute parses "<name> <type>" (the name may be quoted).
func parseARFFAttribute(s string) (*ARFFAttribute, string) {
	if s == "" {
		return nil, "missing attribute name"
	}
	var name, typ string
	if q := s[0]; q == '\'' || q == '"' {
		end := strings.IndexByte(s[1:], q)
		if end < 0 {
			return nil, "unterminated quoted attribute name"
		}
		name, typ = s[1:1+end], s[2+end:]
	} else {
		i := strings.IndexAny(s, " \t{")
		if i < 0 {
			return nil, "attribute " + quote(s) + " has no type"
		}
		name, typ = s[:i], s[i:]
	}
	typ = strings.TrimSpace(typ)
	if name == "" {
		return nil, "empty attribute name"
	}
	if p := NameProblem(name); p != "" {
		return nil, "attribute name " + quote(name) + " " + p
	}
	if typ == "" {
		return nil, "attribute " + quote(name) + " has no type"
	}
	a := &ARFFAttribute{Name: name, Type: typ}
	lt := strings.ToLower(typ)
	switch {
	case lt == "numeric" || lt == "real" || lt == "integer":
		a.Numeric = true
	case lt == "string" || lt == "date" || strings.HasPrefix(lt, "date "):
	case typ[0] == '{':
		if !strings.HasSuffix(typ, "}") {
			return nil, "nominal attribute " + quote(name) + ": missing closing '}'"
		}
		fields, msg := splitARFF(typ[1 : len(typ)-1])
		if msg != "" {
			return nil, "nominal attribute " + quote(name) + ": " + msg
		}
		seen := map[string]bool{}
		for _, f := range fields {
			if f.v == "" || seen[f.v] {
				return nil, "nominal attribute " + quote(name) + ": empty or repeated level " + quote(f.v)
			}
			if HasControl(f.v) {
				return nil, "nominal attribute " + quote(name) + ": the level " + quote(f.v) + " contains a control character (is this a binary file?)"
			}
			seen[f.v] = true
			a.Levels = append(a.Levels, f.v)
		}
	default:
		return nil, "attribute " + quote(name) + " has the unsupported type " + quote(typ)
	}
	return a, ""
}

type arffField struct {
	v      string
	quoted bool
}

// splitARFF splits a comma-separated list whose values may be quoted with
// ' or " (with backslash escapes inside quotes); unquoted values are
// trimmed.
func splitARFF(s string) ([]arffField, string) {
	var out []arffField
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i < len(s) && (s[i] == '\'' || s[i] == '"') {
			q := s[i]
			var b strings.Builder
			i++
			for {
				if i >= len(s) {
					return nil, "unterminated quote"
				}
				c := s[i]
				i++
				if c == '\\' && i < len(s) {
					b.WriteByte(s[i])
					i++
					continue
				}
				if c == q {
					break
				}
				b.WriteByte(c)
			}
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			if i < len(s) && s[i] != ',' {
				return nil, "text after a closing quote"
			}
			out = append(out, arffField{b.String(), true})
		} else {
			j := strings.IndexByte(s[i:], ',')
			if j < 0 {
				j = len(s) - i
			}
			out = append(out, arffField{strings.TrimSpace(s[i : i+j]), false})
			i += j
		}
		if i >= len(s) {
			return out, ""
		}
		i++ // the comma
	}
}

// unquoteARFF strips one pair of quotes (with escapes) from a sparse value.
func unquoteARFF(s string) (string, bool) {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') {
		f, msg := splitARFF(s)
		if msg == "" && len(f) == 1 {
			return f[0].v, true
		}
	}
	return s, false
}

// cutSpace splits s at its first space or tab.
func cutSpace(s string) (before, after string, found bool) {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}
