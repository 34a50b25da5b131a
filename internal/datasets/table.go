package datasets

import (
	"io"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// HeaderMode says whether a table's first line names its columns.
type HeaderMode int

const (
	// HeaderAuto treats the first line as a header when none of its fields
	// is a number.
	HeaderAuto HeaderMode = iota
	// HeaderNone: every line is data.
	HeaderNone
	// HeaderFirst: the first non-blank, non-comment line is a header.
	HeaderFirst
)

// TableOptions configures ReadTable. The zero value reads a whitespace- or
// comma-separated table, detects a header line, and takes the last column
// as the target.
type TableOptions struct {
	// Sep separates fields. Zero detects it from the first line: ',' if it
	// contains a comma, else ';' if it contains a semicolon, else runs of
	// spaces and tabs. ' ' means runs of spaces and tabs.
	Sep rune
	// Header says whether the first line names the columns.
	Header HeaderMode
	// Target is the 1-based column of the target; 0 means the last column.
	Target int
	// TargetName, if set, selects the target column by its header name
	// (exactly, then ignoring case) and overrides Target.
	TargetName string
	// NoTarget makes every column a feature; the returned y is nil.
	NoTarget bool
}

// ReadTable reads a numeric table from r, named name in errors: one example
// per line, the same number of fields on every line, '#' starting a comment
// line. Fields may be enclosed in double or single quotes, but a quoted
// field may not contain the separator. Every data field must be a finite
// number; empty fields, "?" and "NA" are reported as missing values.
//
// The TIC 2000 files (coil2000) are tab-separated: ticdata2000.txt reads
// with the zero TableOptions (86 columns, the last, CARAVAN, the target) and
// ticeval2000.txt and tictgts2000.txt with NoTarget.
//
// Data over the memory limit (credlab.EffectiveMemoryLimit, internal/memlimit) is refused
// with a *errs.TooLargeError as its rows are read.
func ReadTable(r io.Reader, name string, opt TableOptions) (*mat.Dense, []float64, error) {
	if opt.Target < 0 {
		return nil, nil, errorf(name, 0, "target column %d: must be 1-based, or 0 for the last column", opt.Target)
	}
	if opt.NoTarget && (opt.Target != 0 || opt.TargetName != "") {
		return nil, nil, errorf(name, 0, "NoTarget set together with a target column")
	}
	lr := newLineReader(r, name)
	limit := memoryLimit()
	sep := opt.Sep
	var (
		header []string
		ncol   = -1
		first  = true
		data   []float64
		n      int
	)
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' {
			continue
		}
		if sep == 0 {
			sep = detectSep(t)
		}
		fields := splitFields(t, sep)
		if first {
			first = false
			isHeader := opt.Header == HeaderFirst
			if opt.Header == HeaderAuto {
				isHeader = true
				for _, f := range fields {
					if _, msg := parseValue(f); msg == "" {
						isHeader = false
						break
					}
				}
			}
			if isHeader {
				header = fields
				ncol = len(fields)
				continue
			}
		}
		if ncol < 0 {
			ncol = len(fields)
		}
		if len(fields) != ncol {
			what := "the first row"
			if header != nil {
				what = "the header"
			}
			return nil, nil, lr.errorf("%d fields, want %d as in %s", len(fields), ncol, what)
		}
		if err := checkSize(name, int64(n+1), int64(ncol)); err != nil {
			err.(*ParseError).Line = lr.line
			return nil, nil, err
		}
		// The values, with room to grow (twice their size), then X and y.
		if need := float64(n+1) * float64(ncol) * 24; need > float64(limit) {
			return nil, nil, PartialTooLarge("table", name, n+1, ncol, need, limit)
		}
		for j, f := range fields {
			v, msg := parseValue(f)
			if msg != "" {
				col := ""
				if header != nil {
					col = " (" + quote(header[j]) + ")"
				}
				return nil, nil, lr.errorf("column %d%s: %s", j+1, col, msg)
			}
			data = append(data, v)
		}
		n++
	}
	if lr.err != nil {
		return nil, nil, lr.err
	}
	if n == 0 {
		return nil, nil, errorf(name, 0, "no data rows")
	}
	if opt.NoTarget {
		return dense(n, ncol, data), nil, nil
	}
	if ncol < 2 {
		return nil, nil, errorf(name, 0, "%d column: need at least one feature and a target (or set NoTarget)", ncol)
	}
	tcol := ncol - 1
	switch {
	case opt.TargetName != "":
		if header == nil {
			return nil, nil, errorf(name, 0, "target %s selected by name, but the table has no header line", quote(opt.TargetName))
		}
		if tcol = findName(header, opt.TargetName); tcol < 0 {
			return nil, nil, errorf(name, 0, "no column named %s in the header", quote(opt.TargetName))
		}
	case opt.Target > 0:
		if opt.Target > ncol {
			return nil, nil, errorf(name, 0, "target column %d, but the table has %d columns", opt.Target, ncol)
		}
		tcol = opt.Target - 1
	}
	x, y := splitTarget(data, n, ncol, tcol)
	return x, y, nil
}

// LoadTable reads the table file at path (gzip-compressed if the name ends
// in ".gz"); see ReadTable.
func LoadTable(path string, opt TableOptions) (*mat.Dense, []float64, error) {
	type xy struct {
		x *mat.Dense
		y []float64
	}
	r, err := load(path, func(r io.Reader, name string) (xy, error) {
		x, y, err := ReadTable(r, name, opt)
		return xy{x, y}, err
	})
	return r.x, r.y, err
}

func detectSep(line string) rune {
	switch {
	case strings.ContainsRune(line, ','):
		return ','
	case strings.ContainsRune(line, ';'):
		return ';'
	}
	return ' '
}

// splitFields splits a trimmed line and unquotes each field.
func splitFields(line string, sep rune) []string {
	var fields []string
	if sep == ' ' {
		fields = strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' })
	} else {
		fields = strings.Split(line, string(sep))
	}
	for i, f := range fields {
		fields[i] = unquote(strings.TrimSpace(f))
	}
	return fields
}

// unquote strips one pair of matching single or double quotes.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
