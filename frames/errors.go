package frames

import (
	"fmt"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/internal/datasets"
)

// ParseError is the error of a loader for malformed input: the file, the
// 1-based line and column (field) of the problem, the column's name when
// the file has a header, and the problem.
type ParseError = datasets.ParseError

// ColumnError reports a column named by the caller that the frame lacks:
// Role says what it was for ("target", "weight", "feature", "excluded",
// "bag", "grouping"; "labeled" for a column Select needs in
// SelectSpec.Labeled, "test" for a column of the training frame missing
// from MinMaxScale's test frame; "" for Column and ToMatrix), Suggestion
// is the closest existing name ("" if none) and Columns lists the
// columns of the frame searched.
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
// number of rows affected and First the first of them (0-based); Empty
// lists the feature columns missing in every row, which dropping rows
// cannot help (such an error is also credlab.ErrEmpty: errors.Is).
type MissingError struct {
	Columns []string
	Rows    int
	First   int
	Empty   []string
}

// Is reports whether target is credlab.ErrEmpty and a column is empty.
func (e *MissingError) Is(target error) bool { return target == credlab.ErrEmpty && len(e.Empty) > 0 }

func (e *MissingError) Error() string {
	if len(e.Empty) > 0 {
		return fmt.Sprintf("frames: the feature column %s has no value in any row; leave it out with Spec.Exclude, or drop it from Spec.Features", listNames(e.Empty, 10))
	}
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
	return &MissingError{Columns: ex.missingCols, Rows: ex.nNA, First: first, Empty: ex.empty}
}

// ColumnProblemError reports a column the frame has but that cannot serve
// as asked: listed twice among the features, the target or weight among
// the features, the weight column equal to the target, strings where
// numbers are needed, a string column whose type or levels differ from
// the fitted model's, a bag with two labels, and the like. Name is the
// column (it may be "" for an empty name), Role what it was for
// ("feature", "target", "weight", "bag", "grouping", ...; "" when none)
// and Problem says what is wrong, as words that follow the column's name
// ("is listed twice among the features").
type ColumnProblemError struct {
	Name    string
	Role    string
	Problem string
}

func (e *ColumnProblemError) Error() string {
	role := ""
	if e.Role != "" {
		role = e.Role + " "
	}
	return fmt.Sprintf("frames: %scolumn %q %s", role, e.Name, e.Problem)
}

// ModelVersionError reports a model file of a format version this build
// does not read: Version is the file's, Oldest and Newest the major
// versions read, and Writes the version Save writes.
type ModelVersionError struct {
	Version        string
	Oldest, Newest int
	Writes         string
}

func (e *ModelVersionError) Error() string {
	return fmt.Sprintf("frames: model file format version %s: this build of credlab reads versions %d.x to %d.x (it writes %s); refit the model or use a matching credlab",
		e.Version, e.Oldest, e.Newest, e.Writes)
}

// sentinelError is an error with its own message that wraps a sentinel
// (credlab.ErrEmpty, credlab.ErrShape) for errors.Is.
type sentinelError struct {
	msg    string
	target error
}

func (e *sentinelError) Error() string { return e.msg }
func (e *sentinelError) Unwrap() error { return e.target }

// emptyf returns an error wrapping credlab.ErrEmpty, with the message
// "frames: " and the formatted detail.
func emptyf(format string, args ...any) error {
	return &sentinelError{msg: "frames: " + fmt.Sprintf(format, args...), target: credlab.ErrEmpty}
}

// shapef returns an error wrapping credlab.ErrShape, with the message
// "frames: " and the formatted detail.
func shapef(format string, args ...any) error {
	return &sentinelError{msg: "frames: " + fmt.Sprintf(format, args...), target: credlab.ErrShape}
}

// problem returns a *ColumnProblemError.
func problem(name, role, format string, args ...any) error {
	return &ColumnProblemError{Name: name, Role: role, Problem: fmt.Sprintf(format, args...)}
}
