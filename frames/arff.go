package frames

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/credlab/credlab/internal/datasets"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// maxARFFCells bounds the values ReadARFF holds (rows x attributes).
var maxARFFCells int64 = 1 << 28

// arffAttr is one @attribute.
type arffAttr struct {
	name    string
	numeric bool
	levels  []string // nominal levels; nil for numeric, string and date
	nums    []float64
	strs    []string
}

// ReadARFF reads Weka ARFF data into a frame with one column per
// attribute, in file order, named as in the file. NUMERIC, REAL and
// INTEGER attributes become float columns; nominal ({a, b, c}), STRING and
// DATE attributes become string columns (encode them with Spec.OneHot).
// '?' is a missing value (NaN). Data rows are comma-separated values,
// optionally quoted with ' or " (a backslash escapes a quote), or sparse
// rows "{index value, ...}" with 0-based indices where an omitted numeric
// value is 0 and an omitted nominal value is the first level. A nominal
// value outside its declared levels is an error, and so is any other
// malformed line, with its number; name labels errors.
func ReadARFF(r io.Reader, name string) (dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	br := bufio.NewReaderSize(r, 1<<16)
	line := 0
	fail := func(format string, args ...any) (dataframe.DataFrame, error) {
		return none, &datasets.ParseError{File: name, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	next := func() (string, bool, error) {
		s, err := br.ReadString('\n')
		if err != nil && err != io.EOF {
			return "", false, &datasets.ParseError{File: name, Line: line + 1, Msg: "read error", Err: err}
		}
		if err == io.EOF && s == "" {
			return "", false, nil
		}
		line++
		s = strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r")
		if line == 1 {
			s = strings.TrimPrefix(s, "\ufeff")
		}
		return strings.TrimSpace(s), true, nil
	}
	var attrs []*arffAttr
	seen := map[string]bool{}
	for inData := false; !inData; {
		s, ok, err := next()
		if err != nil {
			return none, err
		}
		if !ok {
			line = 0
			return fail("no @data section")
		}
		if s == "" || s[0] == '%' {
			continue
		}
		kw, rest := s, ""
		if i := strings.IndexAny(s, " \t"); i >= 0 {
			kw, rest = s[:i], strings.TrimSpace(s[i:])
		}
		switch strings.ToLower(kw) {
		case "@relation":
		case "@attribute":
			a, msg := parseARFFAttribute(rest)
			if msg != "" {
				return fail("@attribute: %s", msg)
			}
			if seen[a.name] {
				return fail("attribute %q declared twice", a.name)
			}
			seen[a.name] = true
			attrs = append(attrs, a)
		case "@data":
			if rest != "" {
				return fail("unexpected text after @data")
			}
			inData = true
		default:
			return fail("unexpected line %s in the ARFF header (want @relation, @attribute or @data)", shorten(s))
		}
	}
	p := len(attrs)
	if p == 0 {
		return fail("no @attribute before @data")
	}
	levelIndex := make([]map[string]bool, p)
	for j, a := range attrs {
		if a.levels != nil {
			levelIndex[j] = make(map[string]bool, len(a.levels))
			for _, l := range a.levels {
				levelIndex[j][l] = true
			}
		}
	}
	set := func(j int, v string, quoted bool) string {
		a := attrs[j]
		missing := v == "?" && !quoted
		switch {
		case a.numeric && missing:
			a.nums[len(a.nums)-1] = math.NaN()
		case a.numeric:
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				return fmt.Sprintf("attribute %q: %s is not a finite number", a.name, shorten(v))
			}
			a.nums[len(a.nums)-1] = f
		case missing:
			a.strs[len(a.strs)-1] = "NaN"
		default:
			if levelIndex[j] != nil && !levelIndex[j][v] {
				return fmt.Sprintf("attribute %q: %s is not one of its levels %s", a.name, shorten(v), listNames(a.levels, 10))
			}
			a.strs[len(a.strs)-1] = v
		}
		return ""
	}
	n := 0
	for {
		s, ok, err := next()
		if err != nil {
			return none, err
		}
		if !ok {
			break
		}
		if s == "" || s[0] == '%' {
			continue
		}
		if int64(n+1)*int64(p) > maxARFFCells {
			return fail("%d rows x %d attributes exceed the limit of %d values", n+1, p, maxARFFCells)
		}
		for _, a := range attrs {
			if a.numeric {
				a.nums = append(a.nums, 0)
			} else {
				def := "NaN"
				if len(a.levels) > 0 {
					def = a.levels[0]
				}
				a.strs = append(a.strs, def)
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
				if pair.quoted || !ok {
					return fail("sparse row: %s is not an \"index value\" pair", shorten(pair.v))
				}
				idx, err := strconv.Atoi(is)
				if err != nil || idx < 0 || idx >= p {
					return fail("sparse row: index %s is not in [0, %d)", shorten(is), p)
				}
				if idx <= prev {
					return fail("sparse row: index %d after %d: indices must be strictly increasing", idx, prev)
				}
				prev = idx
				v, quoted := unquoteARFF(strings.TrimSpace(vs))
				if msg := set(idx, v, quoted); msg != "" {
					return fail("%s", msg)
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
			if msg := set(j, f.v, f.quoted); msg != "" {
				return fail("%s", msg)
			}
		}
	}
	if n == 0 {
		line = 0
		return fail("no data rows after @data")
	}
	cols := make([]series.Series, p)
	for j, a := range attrs {
		if a.numeric {
			cols[j] = series.New(a.nums, series.Float, a.name)
		} else {
			cols[j] = series.New(a.strs, series.String, a.name)
		}
	}
	df := dataframe.New(cols...)
	if df.Err != nil {
		return none, &datasets.ParseError{File: name, Msg: "building the frame", Err: df.Err}
	}
	return df, nil
}

// LoadARFF reads the ARFF file at path (".gz" decompressed); see ReadARFF.
func LoadARFF(path string) (dataframe.DataFrame, error) {
	rc, err := datasets.Open(path)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	defer rc.Close()
	return ReadARFF(rc, path)
}

// parseARFFAttribute parses "<name> <type>" (the name may be quoted).
func parseARFFAttribute(s string) (*arffAttr, string) {
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
			return nil, "attribute " + shorten(s) + " has no type"
		}
		name, typ = s[:i], s[i:]
	}
	typ = strings.TrimSpace(typ)
	if name == "" {
		return nil, "empty attribute name"
	}
	if typ == "" {
		return nil, "attribute " + shorten(name) + " has no type"
	}
	a := &arffAttr{name: name}
	lt := strings.ToLower(typ)
	switch {
	case lt == "numeric" || lt == "real" || lt == "integer":
		a.numeric = true
	case lt == "string" || lt == "date" || strings.HasPrefix(lt, "date "):
	case typ[0] == '{':
		if !strings.HasSuffix(typ, "}") {
			return nil, "nominal attribute " + shorten(name) + ": missing closing '}'"
		}
		fields, msg := splitARFF(typ[1 : len(typ)-1])
		if msg != "" {
			return nil, "nominal attribute " + shorten(name) + ": " + msg
		}
		seen := map[string]bool{}
		for _, f := range fields {
			if f.v == "" || seen[f.v] {
				return nil, "nominal attribute " + shorten(name) + ": empty or repeated level " + shorten(f.v)
			}
			seen[f.v] = true
			a.levels = append(a.levels, f.v)
		}
	default:
		return nil, "attribute " + shorten(name) + " has the unsupported type " + shorten(typ)
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

// shorten quotes a string for an error message, cut at 40 bytes.
func shorten(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strconv.Quote(s)
}

// cutSpace splits s at its first space or tab.
func cutSpace(s string) (before, after string, found bool) {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}
