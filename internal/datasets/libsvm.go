package datasets

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/credlab/credlab/internal/errs"
	"gonum.org/v1/gonum/mat"
)

// ReadLIBSVM reads LIBSVM (svmlight) sparse data from r, named name in
// errors, into a dense n x d matrix and n labels.
//
// Each non-blank line is "<label> <index>:<value> ...": the label is any
// finite number (for example +1, -1, 0, 3.5) and indices are 1-based and
// strictly increasing; absent features are zero. Text after '#' is a
// comment, and "qid:<n>" tokens are ignored.
//
// d is the number of features. With d > 0 an index above d is an error;
// with d == 0 it is the largest index seen. Set d explicitly when a test
// file may lack the last features of its training file (a9a.t stops at 122
// of 123).
//
// A label or value that is not a finite number is a *CellError naming the
// column as frames does ("y" for the label, "x<index>" for a feature), or
// a missing value (NaN) with Options.BadAsMissing. The dense matrix (with
// Options.NumBytes per value for the caller) is checked against the memory
// limit (credlab.EffectiveMemoryLimit, internal/memlimit) before it is allocated, and the
// sparse entries as they are read: a *errs.TooLargeError refuses it.
// At most one opt is used.
func ReadLIBSVM(r io.Reader, name string, d int, opt ...Options) (*mat.Dense, []float64, error) {
	o := options(opt)
	if d < 0 {
		return nil, nil, errorf(name, 0, "d = %d features: must be positive, or 0 to infer it", d)
	}
	type entry struct {
		col int
		val float64
	}
	var (
		labels  []float64
		entries []entry
		rowEnd  []int // rowEnd[i] = end of row i in entries
		maxIdx  int
		maxLine int // the line of maxIdx
	)
	limit := memoryLimit()
	lr := newLineReader(r, name)
	// cell parses a label (idx 0) or a value, with its field number.
	cell := func(s string, idx int64, field int) (float64, error) {
		v, msg := parseValue(s)
		if msg == "" {
			return v, nil
		}
		if o.BadAsMissing {
			return math.NaN(), nil
		}
		col := "y"
		if idx > 0 {
			col = fmt.Sprintf("x%d", idx)
		}
		return 0, &CellError{File: name, Line: lr.line, Column: field, Name: col, Row: len(labels), Value: s}
	}
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if strings.Contains(fields[0], ":") {
			return nil, nil, lr.errorf("missing label: the line starts with the pair %s", quote(fields[0]))
		}
		// The sparse entries, labels and row ends held so far, with room
		// for their slices to grow (twice their size), before this row.
		held := 2 * (float64(len(entries)+len(fields))*16 + float64(len(labels)+1)*16)
		if held > float64(limit) {
			return nil, nil, PartialTooLarge("LIBSVM", name, len(labels)+1, max(d, maxIdx), held, limit)
		}
		y, err := cell(fields[0], 0, 1)
		if err != nil {
			return nil, nil, err
		}
		prev := 0
		for k, f := range fields[1:] {
			is, vs, found := strings.Cut(f, ":")
			if !found {
				return nil, nil, lr.errorf("%s is not an index:value pair", quote(f))
			}
			if is == "qid" {
				continue
			}
			idx, err := strconv.ParseInt(is, 10, 64)
			if err != nil {
				return nil, nil, lr.errorf("feature index %s is not an integer", quote(is))
			}
			if idx < 1 {
				return nil, nil, lr.errorf("feature index %d: indices are 1-based", idx)
			}
			if idx <= int64(prev) {
				return nil, nil, lr.errorf("feature index %d after %d: indices must be strictly increasing", idx, prev)
			}
			if d > 0 && idx > int64(d) {
				return nil, nil, lr.errorf("feature index %d exceeds d = %d", idx, d)
			}
			if idx > MaxElements {
				return nil, nil, lr.errorf("feature index %d exceeds the limit of %d values (datasets.MaxElements)", idx, MaxElements)
			}
			v, err := cell(vs, idx, k+2)
			if err != nil {
				return nil, nil, err
			}
			prev = int(idx)
			if v != 0 {
				entries = append(entries, entry{col: prev - 1, val: v})
			}
		}
		if prev > maxIdx {
			maxIdx, maxLine = prev, lr.line
		}
		labels = append(labels, y)
		rowEnd = append(rowEnd, len(entries))
		if err := checkSize(name, int64(len(labels)), int64(max(d, maxIdx))); err != nil {
			err.(*ParseError).Line = lr.line
			return nil, nil, err
		}
	}
	if lr.err != nil {
		return nil, nil, lr.err
	}
	if len(labels) == 0 {
		return nil, nil, errorf(name, 0, "no data rows")
	}
	inferred := d == 0
	if inferred {
		d = maxIdx
		if d == 0 {
			return nil, nil, errorf(name, 0, "no feature index in any of the %d rows: cannot infer d; pass d explicitly", len(labels))
		}
	}
	n := len(labels)
	// The dense matrix and the labels, as the caller converts them, beside
	// the sparse entries still held.
	need := float64(n)*float64(d+1)*(8+o.NumBytes) + float64(cap(entries))*16 + float64(cap(rowEnd))*8
	if need > float64(limit) {
		hint := "raise the memory limit, or use fewer rows"
		if inferred {
			hint = fmt.Sprintf("the largest feature index, %d on line %d, sets the number of columns: check it, or raise the memory limit", maxIdx, maxLine)
		}
		return nil, nil, &errs.TooLargeError{What: fmt.Sprintf("the dense matrix of the LIBSVM file %s", name), Rows: n, Cols: d, Bytes: need, Limit: limit, Hint: hint}
	}
	data := make([]float64, n*d)
	start := 0
	for i, end := range rowEnd {
		row := data[i*d : (i+1)*d]
		for _, e := range entries[start:end] {
			row[e.col] = e.val
		}
		start = end
	}
	return dense(n, d, data), labels, nil
}

// LoadLIBSVM reads the LIBSVM file at path (gzip-compressed if the name ends
// in ".gz"); see ReadLIBSVM for the format and d.
func LoadLIBSVM(path string, d int, opt ...Options) (*mat.Dense, []float64, error) {
	type xy struct {
		x *mat.Dense
		y []float64
	}
	r, err := load(path, func(r io.Reader, name string) (xy, error) {
		x, y, err := ReadLIBSVM(r, name, d, opt...)
		return xy{x, y}, err
	})
	return r.x, r.y, err
}
