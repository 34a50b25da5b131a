package frames

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// records yields the records of a delimited text file: comma-separated
// (encoding/csv, with its quoting rules) or separated by runs of blanks
// (CSVOptions.Whitespace).
type records interface {
	// next returns the next record and its 1-based line, or io.EOF.
	next() ([]string, int, error)
	// fields fixes the number of fields of every record.
	fields(n int)
}

// newRecords returns the reader of o's separator.
func newRecords(r io.Reader, name string, o CSVOptions) (records, error) {
	if o.Whitespace {
		if o.Comma != 0 {
			return nil, &ParseError{File: name, Msg: fmt.Sprintf("field separator %q and CSVOptions.Whitespace both set: give one", o.Comma)}
		}
		return &blankRecords{r: bufio.NewReader(r), name: name}, nil
	}
	cr := csv.NewReader(r)
	if o.Comma != 0 {
		if o.Comma == '"' || o.Comma == '\r' || o.Comma == '\n' || !utf8.ValidRune(o.Comma) || o.Comma == utf8.RuneError {
			return nil, &ParseError{File: name, Msg: fmt.Sprintf("invalid field separator %q", o.Comma)}
		}
		cr.Comma = o.Comma
	}
	return csvRecords{cr}, nil
}

type csvRecords struct{ r *csv.Reader }

func (c csvRecords) next() ([]string, int, error) {
	rec, err := c.r.Read()
	if err != nil {
		return nil, 0, err
	}
	line, _ := c.r.FieldPos(0)
	return rec, line, nil
}

func (c csvRecords) fields(n int) { c.r.FieldsPerRecord = n }

// blankRecords splits lines at runs of spaces and tabs. As encoding/csv,
// every record has the number of fields of the first unless fields set
// it.
type blankRecords struct {
	r    *bufio.Reader
	name string
	line int
	want int
}

func (b *blankRecords) next() ([]string, int, error) {
	for {
		s, err := b.r.ReadString('\n')
		if s == "" && err != nil {
			return nil, 0, err
		}
		b.line++
		rec := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' || r == '\n' })
		if len(rec) == 0 {
			continue
		}
		if b.want == 0 {
			b.want = len(rec)
		}
		if len(rec) != b.want {
			return nil, 0, &ParseError{File: b.name, Line: b.line, Msg: fmt.Sprintf("%d fields separated by blanks, want %d as in the first record", len(rec), b.want)}
		}
		return rec, b.line, nil
	}
}

func (b *blankRecords) fields(n int) { b.want = n }
