package datasets

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/credlab/credlab/internal/errs"
	"github.com/credlab/credlab/internal/memlimit"
	"gonum.org/v1/gonum/mat"
)

// MaxElements is the largest number of matrix entries (rows times columns) a
// loader allocates: 1<<28, 2 GiB of float64 values. Larger inputs, or corrupt
// ones that claim a huge index, return an error instead.
var MaxElements int64 = 1 << 28

// ParseError is the error returned for malformed input. frames exports it
// as frames.ParseError.
type ParseError struct {
	File string // the name given to the reader, usually the path
	Line int    // 1-based line number; 0 when the problem is not on one line
	// Column is the 1-based field (column) of the problem, 0 when unknown,
	// and Name the column's name when the file has one.
	Column int
	Name   string
	Msg    string
	Err    error // underlying error (I/O, gzip), if any
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	b.WriteString(": ")
	if e.Name != "" {
		fmt.Fprintf(&b, "column %s: ", quote(e.Name))
	}
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *ParseError) Unwrap() error { return e.Err }

// CellError reports a cell that is not a finite number where a number is
// expected (a numeric CSV column, a numeric ARFF attribute, a LIBSVM label
// or value): the file, the cell's 1-based line and column (field), the
// column's name, the 0-based data row and the cell's text. Reading such
// cells as missing values (Options.BadAsMissing, and frames' BadAsMissing
// options) avoids it. frames exports it as frames.CellError.
type CellError struct {
	File         string
	Line, Column int
	Name         string
	Row          int
	Value        string
}

func (e *CellError) Error() string {
	return fmt.Sprintf("%s:%d:%d: column %q, row %d: %s is not a finite number, unlike the column's other values; fix the cell, or read such cells as missing values (BadAsMissing)",
		e.File, e.Line, e.Column, e.Name, e.Row, quote(e.Value))
}

// Options are the settings of a loader called by a package that converts
// its result further (frames): they are passed as the optional last
// argument of ReadLIBSVM, LoadLIBSVM, ReadIDX, LoadIDX and
// ReadARFFColumns.
type Options struct {
	// BadAsMissing reads a value that is not a finite number, in a numeric
	// ARFF attribute or as a LIBSVM label or feature value, as a missing
	// value (NaN) instead of returning a *CellError.
	BadAsMissing bool
	// NumBytes and StrBytes are the bytes the caller will allocate for each
	// numeric and each string value of the result when it converts it
	// (frames' columns: 32 and 48). The loader counts them, on top of its
	// own, when it checks the memory limit before allocating.
	NumBytes, StrBytes float64
}

func options(opt []Options) Options {
	if len(opt) > 0 {
		return opt[0]
	}
	return Options{}
}

// memoryLimit is the effective memory limit (credlab.EffectiveMemoryLimit, internal/memlimit),
// which every allocation growing with the data is checked against.
func memoryLimit() int64 {
	return memlimit.Limit()
}

// PartialTooLarge is the *errs.TooLargeError of a file read row by row
// (kind says its format, such as "CSV") that exceeds the memory limit limit
// after rows rows of cols columns, which alone need bytes: the file has at
// least that many rows, and its size is not known.
func PartialTooLarge(kind, file string, rows, cols int, bytes float64, limit int64) *errs.TooLargeError {
	return &errs.TooLargeError{
		What: fmt.Sprintf("the %s file %s exceeds the memory limit after %d rows (it has at least that many): the rows read so far, a table", kind, file, rows),
		Rows: rows, Cols: cols, Bytes: bytes, Limit: limit,
		Hint: "raise the memory limit, or read a part of the file",
	}
}

// HasControl reports whether a data cell holds a control character (such as
// NUL) other than a tab, a line feed or a carriage return: the sign of a
// binary or corrupt file, refused rather than read as a category.
func HasControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r'
	}) >= 0
}

func errorf(file string, line int, format string, args ...any) error {
	return &ParseError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// Open opens path for reading. When the name ends in ".gz" the content is
// decompressed; a truncated or corrupt gzip stream surfaces as a read error.
// The caller closes the result.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	z, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		f.Close()
		return nil, &ParseError{File: path, Msg: "not a valid gzip file", Err: err}
	}
	return &gzipFile{z: z, f: f}, nil
}

type gzipFile struct {
	z *gzip.Reader
	f *os.File
}

func (g *gzipFile) Read(p []byte) (int, error) { return g.z.Read(p) }

func (g *gzipFile) Close() error {
	return errors.Join(g.z.Close(), g.f.Close())
}

// load opens path and applies read to it, named by the path.
func load[T any](path string, read func(io.Reader, string) (T, error)) (T, error) {
	rc, err := Open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer rc.Close()
	return read(rc, path)
}

// lineReader yields the lines of a reader with their numbers, without the
// line terminator ("\n" or "\r\n") and without a leading UTF-8 byte order
// mark.
type lineReader struct {
	r    *bufio.Reader
	name string
	line int
	err  error
}

func newLineReader(r io.Reader, name string) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 1<<16), name: name}
}

// next returns the next line and true, or false at the end of the input or
// on a read error (then in l.err).
func (l *lineReader) next() (string, bool) {
	if l.err != nil {
		return "", false
	}
	s, err := l.r.ReadString('\n')
	if err != nil && err != io.EOF {
		l.err = &ParseError{File: l.name, Line: l.line + 1, Msg: "read error", Err: err}
		return "", false
	}
	if err == io.EOF && s == "" {
		return "", false
	}
	l.line++
	s = strings.TrimSuffix(s, "\n")
	s = strings.TrimSuffix(s, "\r")
	if l.line == 1 {
		s = strings.TrimPrefix(s, "\ufeff")
	}
	return s, true
}

func (l *lineReader) errorf(format string, args ...any) error {
	return errorf(l.name, l.line, format, args...)
}

// parseValue parses a finite float64 field. On failure it returns a
// description of the problem.
func parseValue(s string) (float64, string) {
	if s == "" {
		return 0, "empty field (missing value)"
	}
	switch s {
	case "?", "NA", "N/A", "na", "nan", "NaN", "NAN":
		return 0, "missing value " + quote(s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return 0, quote(s) + " is out of the float64 range"
		}
		return 0, quote(s) + " is not a number"
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, quote(s) + " is not finite"
	}
	return v, ""
}

// checkSize refuses a rows x cols result over MaxElements.
func checkSize(name string, rows, cols int64) error {
	if rows > 0 && cols > 0 && rows > MaxElements/cols {
		return errorf(name, 0, "%d x %d values exceed the limit of %d (datasets.MaxElements)", rows, cols, MaxElements)
	}
	return nil
}

// dense wraps row-major data as an n x d matrix; n and d must be positive.
func dense(n, d int, data []float64) *mat.Dense {
	return mat.NewDense(n, d, data)
}

// quote shortens a field for an error message.
func quote(s string) string {
	const max = 40
	if len(s) > max {
		s = s[:max] + "..."
	}
	return strconv.Quote(s)
}

// NameProblem says what is wrong with a column name that cannot be shown or
// typed as it is (control characters, or invisible format characters such
// as a byte-order mark or a zero-width space), or "" when nothing is.
func NameProblem(name string) string {
	switch {
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return "contains control characters (is this a binary file?)"
	case strings.IndexFunc(name, func(r rune) bool { return unicode.Is(unicode.Cf, r) }) >= 0:
		return "contains an invisible character (a byte-order mark or a zero-width space): remove it"
	}
	return ""
}

// Cut shortens s to n bytes and "..." for an error message.
func Cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// CheckHeader refuses empty, repeated and unprintable column names (a
// *ParseError of line 1 and the column's position).
func CheckHeader(file string, header []string) error {
	seen := make(map[string]int, len(header))
	for j, h := range header {
		pe := &ParseError{File: file, Line: 1, Column: j + 1}
		problem := NameProblem(h)
		switch {
		case strings.TrimSpace(h) == "":
			pe.Msg = "empty column name in the header"
		case !utf8.ValidString(h):
			pe.Msg = fmt.Sprintf("column name %s is not valid UTF-8", strconv.Quote(Cut(h, 40)))
		case problem != "":
			pe.Msg = fmt.Sprintf("column name %s %s", strconv.Quote(Cut(h, 40)), problem)
		default:
			if k, ok := seen[h]; ok {
				pe.Msg = fmt.Sprintf("column name %q appears twice, in columns %d and %d: rename one", h, k+1, j+1)
			} else {
				seen[h] = j
				continue
			}
		}
		return pe
	}
	return nil
}
