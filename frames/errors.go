package frames

import (
	"fmt"
	"strings"

	"github.com/credlab/credlab/internal/datasets"
)

// ParseError is the error of a loader for malformed input: the file, the
// 1-based line and column (field) of the problem, the column's name when
// the file has a header, and the problem.
type ParseError = datasets.ParseError

// ColumnError reports a column named by the caller that the frame lacks:
// Role says what it was for ("target", "weight", "feature", "excluded",
// ...), Suggestion is the closest existing name ("" if none) and Columns
// lists the frame's columns.
type ColumnError struct {
	Name       string
	Role       string
	Suggestion string
	Columns    []string
}

func (e *ColumnError) Error() string {
	role := ""
	if e.Role != "" {
		role = e.Role + " "
	}
	msg := fmt.Sprintf("frames: no %scolumn named %q", role, e.Name)
	if e.Suggestion != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", e.Suggestion)
	}
	return fmt.Sprintf("%s; the columns are %s", msg, listNames(e.Columns, 20))
}

// StringColumnsError reports string (categorical) columns among the
// features when one-hot encoding is off: set Spec.OneHot to encode them or
// leave them out with Spec.Exclude.
type StringColumnsError struct {
	Columns []string
}

func (e *StringColumnsError) Error() string {
	return fmt.Sprintf("frames: the feature columns %s hold strings (categorical values): set Spec.OneHot to encode them, or leave them out with Spec.Exclude", listNames(e.Columns, 10))
}

// MissingError reports missing (NaN) values in used columns when they are
// not to be dropped: Columns names each column with its count, Rows is the
// number of rows affected and First the first of them (0-based).
type MissingError struct {
	Columns []string
	Rows    int
	First   int
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("frames: missing (NaN) values in column %s; %d rows in all, the first is row %d; set Spec.DropNA to drop those rows",
		strings.Join(e.Columns, ", column "), e.Rows, e.First)
}

// missingError is the *MissingError of the extracted columns.
func (ex *extracted) missingError() error {
	first := -1
	for i, b := range ex.na {
		if b {
			first = i
			break
		}
	}
	return &MissingError{Columns: ex.missingCols, Rows: ex.nNA, First: first}
}
