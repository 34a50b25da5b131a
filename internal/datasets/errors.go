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

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
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
