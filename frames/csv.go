package frames

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/internal/datasets"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// CSVOptions configures ReadCSV and LoadCSV. The zero value reads
// comma-separated values with a header line.
type CSVOptions struct {
	// Comma separates the fields; 0 means ',' (LoadCSV: a tab for names
	// ending in ".tsv" or ".tab", before any ".gz").
	Comma rune
	// BadAsMissing reads a cell that is not a number in an otherwise
	// numeric column (such as "abc" or "1e999") as a missing value, which
	// then follows the missing-value rule (Spec.DropNA). Without it such a
	// cell is a *CellError. LoadData applies it to ARFF and LIBSVM files
	// too (see LoadOptions.BadAsMissing).
	BadAsMissing bool
	// Strings names columns kept as strings even when every value is a
	// number (codes such as ZIP codes), to be one-hot encoded or excluded.
	Strings []string
	// Names, if not nil, are the column names of a file without a header
	// line: every line is data, and each must have len(Names) fields.
	Names []string
	// NoHeader reads a file without a header line: every line is data and
	// the columns are named "x1", "x2", ... (Names gives other names).
	NoHeader bool
	// KeepHeader reads the first line as the column names even when it
	// looks like data (see ReadCSV), such as names that are numbers.
	KeepHeader bool
	// Whitespace reads fields separated by runs of spaces and tabs, as in
	// many .dat and .txt tables (such as the USPS digits' zip.train):
	// leading and trailing blanks and blank lines are ignored, and fields
	// are not quoted. Comma must then be 0.
	Whitespace bool
}

// missingTokens are the cells read as missing values.
var missingTokens = map[string]bool{"": true, "NA": true, "N/A": true, "NaN": true, "nan": true, "NAN": true,
	"null": true, "NULL": true, "?": true}

// CellError reports a cell that is not a finite number in a numeric
// column: the file, the cell's 1-based line and column, the column's name,
// the 0-based data row and the cell's text. CSV, ARFF and LIBSVM files
// return it alike; the BadAsMissing options read such cells as missing
// values instead.
type CellError = datasets.CellError

// ReadCSV reads a CSV table whose first line names the columns; name
// labels errors (usually the file name). It never drops, renames or
// reinterprets data silently:
//
//   - a UTF-8 byte order mark before the header is removed; an empty or
//     repeated column name, or one with control characters (such as NUL),
//     is a *ParseError;
//   - a column whose cells are "true"/"false" is a bool column; one whose
//     values are all numbers an int or float column; "", "NA", "N/A",
//     "NaN", "null" and "?" are missing values; "Inf" and "-Inf" are read
//     as infinite values (rejected later, with their row, by Fit);
//   - a column of missing values only (such as the empty target column
//     of rows to label) is a float column of NaN;
//   - in a column where at least half the values are numbers, a cell that
//     is not a finite number ("abc", "1e999") is a *CellError naming the
//     column, the row and the value, unless opt.BadAsMissing reads it as
//     missing; other columns are string columns, to be one-hot encoded
//     (Spec.OneHot) or excluded;
//   - a cell of a string column with a control character other than a
//     tab or a line break (such as NUL) is a *ParseError with its line,
//     column and row: such a file is binary or corrupt;
//   - a first line that reads as data (numbers over numeric columns, such
//     as "M,0.455,...,15" of a file without a header line) is a
//     *ParseError at line 1 naming opt.NoHeader, opt.Names and
//     opt.KeepHeader, rather than a row silently turned into names;
//   - a row with a different number of fields is a *ParseError;
//   - a table over the memory limit (credlab.EffectiveMemoryLimit) is a
//     *credlab.TooLargeError, returned as soon as the rows read exceed it.
//
// At most one opt is used; none means CSVOptions{}.
func ReadCSV(r io.Reader, name string, opt ...CSVOptions) (dataframe.DataFrame, error) {
	var o CSVOptions
	if len(opt) > 0 {
		o = opt[0]
	}
	var none dataframe.DataFrame
	cr, err := newRecords(r, name, o)
	if err != nil {
		return none, err
	}
	fail := func(err error) (dataframe.DataFrame, error) {
		var pe *csv.ParseError
		var fe *ParseError
		switch {
		case errors.As(err, &pe):
			return none, &ParseError{File: name, Line: pe.Line, Column: pe.Column, Msg: pe.Err.Error()}
		case errors.As(err, &fe):
			return none, fe
		}
		return none, &ParseError{File: name, Msg: "read error", Err: err}
	}
	var header []string
	var rows [][]string
	var lines []int
	headerless := o.Names != nil || o.NoHeader
	if o.Names != nil {
		header = append(header, o.Names...)
		cr.fields(len(header))
	} else if o.NoHeader {
		first, line, err := cr.next()
		if err == io.EOF {
			return none, &ParseError{File: name, Msg: "empty file: no data rows"}
		}
		if err != nil {
			return fail(err)
		}
		for j := range first {
			header = append(header, "x"+strconv.Itoa(j+1))
		}
		rows, lines = append(rows, first), append(lines, line)
	} else {
		h, _, err := cr.next()
		if err == io.EOF {
			return none, &ParseError{File: name, Msg: "empty file: no header line"}
		}
		if err != nil {
			return fail(err)
		}
		header = h
		header[0] = strings.TrimPrefix(header[0], "\ufeff")
	}
	if err := datasets.CheckHeader(name, header); err != nil {
		return none, err
	}
	p := len(header)
	// A cell is held as a string (its header, its bytes and its share of
	// the record) and then in a typed column while the strings are still
	// alive: about csvCellBytes bytes at the peak (measured: 111 bytes a
	// cell allocated in all, 16 kept after loading), plus the cell's text.
	memLimit, _ := credlab.EffectiveMemoryLimit()
	var text int64 // the bytes of the cells read, kept until the frame is built
	for {
		rec, line, err := cr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fail(err)
		}
		if int64(len(rows)+1)*int64(p) > datasets.MaxElements {
			return none, &ParseError{File: name, Line: line, Msg: fmt.Sprintf("%d rows x %d columns exceed the limit of %d values", len(rows)+1, p, datasets.MaxElements)}
		}
		for _, c := range rec {
			text += int64(len(c))
		}
		if r := int64(len(rows) + 1); r*int64(p)*csvCellBytes+text > memLimit {
			return none, datasets.PartialTooLarge("CSV", name, int(r), p, float64(r*int64(p)*csvCellBytes+text), memLimit)
		}
		rows = append(rows, rec)
		lines = append(lines, line)
	}
	if len(rows) == 0 {
		return none, &ParseError{File: name, Msg: "no data rows after the header"}
	}
	if headerless {
		rows[0][0] = strings.TrimPrefix(rows[0][0], "\ufeff")
	}
	asString := map[string]bool{}
	for _, s := range o.Strings {
		asString[s] = true
	}
	cols := make([]series.Series, p)
	cells := make([]string, len(rows))
	for j, cname := range header {
		for i, rec := range rows {
			cells[i] = rec[j]
		}
		s, err := typedColumn(cname, cells, asString[cname], o.BadAsMissing)
		if err != nil {
			var ce *CellError
			if errors.As(err, &ce) {
				ce.File, ce.Line, ce.Column = name, lines[ce.Row], j+1
			}
			return none, err
		}
		if s.Type() == series.String {
			for i, c := range cells {
				if datasets.HasControl(c) {
					return none, &ParseError{File: name, Line: lines[i], Column: j + 1, Name: cname,
						Msg: fmt.Sprintf("row %d: the value %s contains a control character (is this a binary file?)", i, strconv.Quote(datasets.Cut(c, 40)))}
				}
			}
		}
		cols[j] = s
	}
	if !headerless && !o.KeepHeader && looksLikeData(header, cols) {
		return none, &ParseError{File: name, Line: 1, Msg: fmt.Sprintf("the first line %s looks like a data row, not column names "+
			"(numbers over numeric columns): a file without a header line would lose that row and be misnamed; "+
			"set CSVOptions.NoHeader (flag -no-header) to read it as data, CSVOptions.Names to name the columns, "+
			"or CSVOptions.KeepHeader (flag -keep-header) to keep it as the names", listNames(header, 8))}
	}
	df := dataframe.New(cols...)
	if df.Err != nil {
		return none, &ParseError{File: name, Msg: "building the frame", Err: df.Err}
	}
	return df, nil
}

// looksLikeData reports a header line that reads as a data row: at least
// half its fields are finite numbers, each over a numeric column, the
// others over string or bool columns (such as "M" over the sexes of
// abalone's first row), and the numbers are not a run of consecutive
// integers (the names 0, 1, 2, ... of pandas or years 2019, 2020, ...).
func looksLikeData(header []string, cols []series.Series) bool {
	var nums []float64
	for j, h := range header {
		x, err := strconv.ParseFloat(strings.TrimSpace(h), 64)
		numericCol := cols[j].Type() == series.Int || cols[j].Type() == series.Float
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			if numericCol {
				return false // a name over numbers: a real header
			}
			continue
		}
		if !numericCol {
			return false
		}
		nums = append(nums, x)
	}
	if len(nums) == 0 || 2*len(nums) < len(header) {
		return false
	}
	run := len(nums) >= 2
	for i := 1; i < len(nums) && run; i++ {
		run = nums[i] == nums[i-1]+1 && nums[i] == math.Trunc(nums[i])
	}
	return !run
}

// csvCellBytes is the memory a CSV cell takes while the file is read.
const csvCellBytes = 64

// typedColumn builds the series of one column from its cells.
func typedColumn(name string, cells []string, forceString, badAsMissing bool) (series.Series, error) {
	n := len(cells)
	if !forceString {
		isBool, missing := true, false
		for _, c := range cells {
			c = strings.TrimSpace(c)
			if missingTokens[c] {
				missing = true
				continue
			}
			if !strings.EqualFold(c, "true") && !strings.EqualFold(c, "false") {
				isBool = false
				break
			}
		}
		if isBool && !missing {
			b := make([]bool, n)
			for i, c := range cells {
				b[i] = strings.EqualFold(strings.TrimSpace(c), "true")
			}
			return series.New(b, series.Bool, name), nil
		}
	}
	v := make([]float64, n)
	good, bad, firstBad := 0, 0, -1
	isInt, anyMissing := true, false
	for i, c := range cells {
		c = strings.TrimSpace(c)
		if missingTokens[c] {
			v[i] = math.NaN()
			anyMissing = true
			continue
		}
		x, err := strconv.ParseFloat(c, 64)
		if err != nil && !isInfToken(c) {
			v[i] = math.NaN()
			bad++
			if firstBad < 0 {
				firstBad = i
			}
			continue
		}
		good++
		v[i] = x
		if isInt && (x != math.Trunc(x) || math.Abs(x) > 1<<53 || strings.ContainsAny(c, ".eEpPxX_") || math.IsInf(x, 0)) {
			isInt = false
		}
	}
	if !forceString && good == 0 && bad == 0 {
		return series.New(v, series.Float, name), nil // only missing values
	}
	if forceString || good == 0 || bad > good {
		return series.New(cells, series.String, name), nil
	}
	if bad > 0 && !badAsMissing {
		return series.Series{}, &CellError{Name: name, Row: firstBad, Value: cells[firstBad]}
	}
	if isInt && !anyMissing && bad == 0 {
		iv := make([]int, n)
		for i, x := range v {
			iv[i] = int(x)
		}
		return series.New(iv, series.Int, name), nil
	}
	return series.New(v, series.Float, name), nil
}

// isInfToken reports an explicit infinity ("Inf", "-inf", "+Infinity"),
// which is read as a value; an overflowing number such as 1e999 is not.
func isInfToken(s string) bool {
	s = strings.ToLower(strings.TrimLeft(s, "+-"))
	return s == "inf" || s == "infinity"
}

// LoadCSV reads the CSV file at path, decompressing it when the name ends
// in ".gz"; a name ending in ".tsv" or ".tab" is tab-separated unless
// opt.Comma or opt.Whitespace says otherwise. See ReadCSV.
func LoadCSV(path string, opt ...CSVOptions) (dataframe.DataFrame, error) {
	var o CSVOptions
	if len(opt) > 0 {
		o = opt[0]
	}
	if o.Comma == 0 && !o.Whitespace {
		switch strings.ToLower(filepath.Ext(strings.TrimSuffix(path, ".gz"))) {
		case ".tsv", ".tab":
			o.Comma = '\t'
		}
	}
	rc, err := datasets.Open(path)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	defer rc.Close()
	return ReadCSV(rc, path, o)
}
