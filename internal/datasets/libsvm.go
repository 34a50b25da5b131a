package datasets

import (
	"io"
	"strconv"
	"strings"

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
func ReadLIBSVM(r io.Reader, name string, d int) (*mat.Dense, []float64, error) {
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
	)
	lr := newLineReader(r, name)
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
		y, msg := parseValue(fields[0])
		if msg != "" {
			return nil, nil, lr.errorf("label: %s", msg)
		}
		prev := 0
		for _, f := range fields[1:] {
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
			v, msg := parseValue(vs)
			if msg != "" {
				return nil, nil, lr.errorf("feature %d: %s", idx, msg)
			}
			prev = int(idx)
			if v != 0 {
				entries = append(entries, entry{col: prev - 1, val: v})
			}
		}
		maxIdx = max(maxIdx, prev)
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
	if d == 0 {
		d = maxIdx
		if d == 0 {
			return nil, nil, errorf(name, 0, "no feature index in any of the %d rows: cannot infer d; pass d explicitly", len(labels))
		}
	}
	n := len(labels)
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
func LoadLIBSVM(path string, d int) (*mat.Dense, []float64, error) {
	type xy struct {
		x *mat.Dense
		y []float64
	}
	r, err := load(path, func(r io.Reader, name string) (xy, error) {
		x, y, err := ReadLIBSVM(r, name, d)
		return xy{x, y}, err
	})
	return r.x, r.y, err
}
