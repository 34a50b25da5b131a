package datasets

import (
	"io"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// ReadARFF reads Weka ARFF data from r, named name in errors. The target
// column is the attribute named target (matched exactly, then ignoring
// case), or the last attribute when target is empty; the other attributes,
// in file order, are the columns of X.
//
// The header holds "@relation", "@attribute <name> <type>" and "@data"
// lines (keywords in any case; names may be quoted with ' or "); lines
// starting with '%' are comments. Every attribute must be numeric (NUMERIC,
// REAL or INTEGER): a nominal, string, date or relational attribute is
// reported with its name and line, since this package builds numeric
// matrices only; convert or drop such columns first. Data rows are
// comma-separated values, optionally quoted, or sparse rows
// "{<index> <value>, ...}" with 0-based indices where absent values are 0.
// A missing value '?' is an error.
func ReadARFF(r io.Reader, name, target string) (*mat.Dense, []float64, error) {
	lr := newLineReader(r, name)
	var attrs []string
	inData := false
	for !inData {
		line, ok := lr.next()
		if !ok {
			if lr.err != nil {
				return nil, nil, lr.err
			}
			return nil, nil, errorf(name, 0, "no @data section")
		}
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '%' {
			continue
		}
		kw, rest := splitKeyword(line)
		switch strings.ToLower(kw) {
		case "@relation":
		case "@attribute":
			an, typ, err := parseAttribute(rest)
			if err != "" {
				return nil, nil, lr.errorf("@attribute: %s", err)
			}
			lt := strings.ToLower(typ)
			switch {
			case lt == "numeric" || lt == "real" || lt == "integer":
			case strings.HasPrefix(typ, "{"):
				return nil, nil, lr.errorf("attribute %s is nominal %s: only numeric attributes are supported; encode or drop it first", quote(an), quote(typ))
			default:
				return nil, nil, lr.errorf("attribute %s has type %s: only numeric attributes are supported", quote(an), quote(typ))
			}
			attrs = append(attrs, an)
		case "@data":
			if strings.TrimSpace(rest) != "" {
				return nil, nil, lr.errorf("unexpected text after @data")
			}
			inData = true
		default:
			return nil, nil, lr.errorf("unexpected line %s in the ARFF header (want @relation, @attribute or @data)", quote(line))
		}
	}
	p := len(attrs)
	if p < 2 {
		return nil, nil, errorf(name, 0, "%d attributes: need at least one feature and a target", p)
	}
	tcol := p - 1
	if target != "" {
		tcol = findName(attrs, target)
		if tcol < 0 {
			return nil, nil, errorf(name, 0, "no attribute named %s (attributes: %s)", quote(target), strings.Join(attrs, ", "))
		}
	}
	var data []float64 // all p values of each row
	n := 0
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '%' {
			continue
		}
		if err := checkSize(name, int64(n+1), int64(p)); err != nil {
			err.(*ParseError).Line = lr.line
			return nil, nil, err
		}
		row := make([]float64, p)
		if line[0] == '{' {
			if err := parseSparseARFF(line, row, attrs); err != "" {
				return nil, nil, lr.errorf("%s", err)
			}
		} else {
			fields := strings.Split(line, ",")
			if len(fields) != p {
				return nil, nil, lr.errorf("%d values, want %d (one per @attribute)", len(fields), p)
			}
			for j, f := range fields {
				v, msg := parseValue(unquote(strings.TrimSpace(f)))
				if msg != "" {
					return nil, nil, lr.errorf("attribute %s: %s", quote(attrs[j]), msg)
				}
				row[j] = v
			}
		}
		data = append(data, row...)
		n++
	}
	if lr.err != nil {
		return nil, nil, lr.err
	}
	if n == 0 {
		return nil, nil, errorf(name, 0, "no data rows after @data")
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

// parseAttribute splits "<name> <type>"; the name may be quoted.
func parseAttribute(s string) (name, typ, problem string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", "", "missing attribute name"
	}
	if q := s[0]; q == '\'' || q == '"' {
		end := strings.IndexByte(s[1:], q)
		if end < 0 {
			return "", "", "unterminated quoted attribute name"
		}
		name, typ = s[1:1+end], s[2+end:]
	} else {
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			return "", "", "attribute " + quote(s) + " has no type"
		}
		name, typ = s[:i], s[i:]
	}
	typ = strings.TrimSpace(typ)
	if typ == "" {
		return "", "", "attribute " + quote(name) + " has no type"
	}
	return name, typ, ""
}

// parseSparseARFF fills row from "{i v, j w}" with 0-based indices.
func parseSparseARFF(line string, row []float64, attrs []string) string {
	if !strings.HasSuffix(line, "}") {
		return "sparse row: missing closing '}'"
	}
	body := strings.TrimSpace(line[1 : len(line)-1])
	if body == "" {
		return ""
	}
	prev := -1
	for _, pair := range strings.Split(body, ",") {
		f := strings.Fields(pair)
		if len(f) != 2 {
			return "sparse row: " + quote(strings.TrimSpace(pair)) + " is not an \"index value\" pair"
		}
		idx, err := strconv.Atoi(f[0])
		if err != nil || idx < 0 || idx >= len(row) {
			return "sparse row: index " + quote(f[0]) + " is not in [0, " + strconv.Itoa(len(row)) + ")"
		}
		if idx <= prev {
			return "sparse row: index " + f[0] + " after " + strconv.Itoa(prev) + ": indices must be strictly increasing"
		}
		prev = idx
		v, msg := parseValue(unquote(f[1]))
		if msg != "" {
			return "attribute " + quote(attrs[idx]) + ": " + msg
		}
		row[idx] = v
	}
	return ""
}

// unquote strips one pair of matching single or double quotes.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
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
