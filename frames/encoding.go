package frames

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-gota/gota/dataframe"
)

// dateLayouts are the date and time forms looksLikeDates recognizes.
var dateLayouts = []string{
	time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02",
	"2006/01/02", "01/02/2006", "1/2/2006", "01/02/06", "1/2/06", "02.01.2006", "2006-01", "15:04:05", "15:04",
	"Jan 2, 2006", "2 Jan 2006", "02-Jan-2006", "January 2, 2006", "20060102T150405",
}

// looksLikeDates reports a string column whose values (the first 200 that
// are not missing) all parse as dates or times in one layout of
// dateLayouts.
func looksLikeDates(vals []string) bool {
	var sample []string
	for _, v := range vals {
		if v = strings.TrimSpace(v); !missingTokens[v] {
			sample = append(sample, v)
			if len(sample) == 200 {
				break
			}
		}
	}
	if len(sample) == 0 {
		return false
	}
	for _, layout := range dateLayouts {
		all := true
		for _, v := range sample {
			if _, err := time.Parse(layout, v); err != nil {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// dateProblem is the error of a date or time column among the features.
func dateProblem(df dataframe.DataFrame, name string) error {
	example := ""
	for _, v := range df.Col(name).Records() {
		if !missingTokens[strings.TrimSpace(v)] {
			example = v
			break
		}
	}
	return problem(name, "feature", "holds dates or times (such as %s): read as strings, one-hot encoding would make one column per date "+
		"and a model that cannot predict a new date; convert it to numbers (days since a start, year, month, day of the week) "+
		"or leave it out with Exclude (flag -exclude)", strconv.Quote(example))
}

// maxLevels is the number of levels beyond which manyLevels reports a
// one-hot encoded column.
const maxLevels = 50

// manyLevels returns a warning for each encoded column with many levels
// (more than maxLevels, or than a quarter of the n training rows): such a
// column (an identifier, a free-text field) makes many design columns and
// rarely generalizes.
func manyLevels(encs []Encoding, n int) []string {
	var warns []string
	for _, e := range encs {
		if k := len(e.Levels); k > maxLevels || k > 4 && 4*k > n {
			warns = append(warns, fmt.Sprintf("one-hot encoding column %q made %d design columns, one per level, for %d training rows: a column with this many levels (an identifier, free text) rarely helps; leave it out with Exclude (flag -exclude)", e.Column, k, n))
		}
	}
	return warns
}
