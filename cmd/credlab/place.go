package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/internal/datasets"
	"github.com/go-gota/gota/dataframe"
)

// missingAt is a *frames.MissingError placed in the data file: the file,
// the line and field of the first missing cell (for CSV and TSV files),
// its column and its 0-based data row.
type missingAt struct {
	err    *frames.MissingError
	file   string
	line   int // 0 when the format has no lines to name
	field  int // 1-based
	column string
}

func (e *missingAt) Error() string { return e.err.Error() }
func (e *missingAt) Unwrap() error { return e.err }

// where is "file:line:field: column "c", data row r" or, without a line,
// "file: column "c", data row r".
func (e *missingAt) where() string {
	at := e.file
	if e.line > 0 {
		at += fmt.Sprintf(":%d:%d", e.line, e.field)
	}
	return fmt.Sprintf("%s: column %q, data row %d (0-based)", at, e.column, e.err.First)
}

// locate places a *frames.MissingError of err in the file at path that df
// was read from; other errors are returned as they are.
func (l *loadFlags) locate(err error, path string, df dataframe.DataFrame) error {
	var me *frames.MissingError
	if !errors.As(err, &me) || me.First < 0 || me.First >= df.Nrow() {
		return err
	}
	at := &missingAt{err: me, file: path}
	for j, name := range df.Names() {
		for _, c := range me.Columns {
			if strings.HasPrefix(c, strconv.Quote(name)+" ") && df.Col(name).Elem(me.First).IsNA() {
				at.column, at.field = name, j+1
				break
			}
		}
		if at.column != "" {
			break
		}
	}
	if at.column == "" {
		return err
	}
	format := l.format
	if format == "" {
		format = frames.DataFormat(path)
	}
	if format == "csv" || format == "tsv" {
		at.line = csvLine(path, format, l.noHeader, me.First, at.field-1)
	}
	return fmt.Errorf("%w", at)
}

// csvLine returns the 1-based line of field j of data row r of a CSV or
// TSV file, or 0 if it cannot be read.
func csvLine(path, format string, noHeader bool, r, j int) int {
	rc, err := datasets.Open(path)
	if err != nil {
		return 0
	}
	defer rc.Close()
	cr := csv.NewReader(rc)
	if format == "tsv" || strings.HasSuffix(strings.TrimSuffix(path, ".gz"), ".tab") {
		cr.Comma = '\t'
	}
	cr.FieldsPerRecord = -1
	if !noHeader {
		r++
	}
	for i := 0; ; i++ {
		rec, err := cr.Read()
		if err == io.EOF || err != nil {
			return 0
		}
		if i == r {
			if j >= len(rec) {
				return 0
			}
			line, _ := cr.FieldPos(j)
			return line
		}
	}
}
