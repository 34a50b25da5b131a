package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/credlab/credlab/frames"
	"github.com/go-gota/gota/dataframe"
)

// labelWords are column names, or parts of names, that usually hold a
// label rather than a feature.
var labelWords = []string{"target", "label", "class", "outcome", "response", "price", "value", "score", "rating"}

// warnLabelLike warns when select or budget scores, without -target or
// -columns, a column whose name says it may be the label: the label would
// then steer which rows are chosen.
func warnLabelLike(w io.Writer, cmd string, df dataframe.DataFrame, exclude []string) {
	skip := map[string]bool{}
	for _, e := range exclude {
		skip[e] = true
	}
	for _, n := range df.Names() {
		if skip[n] {
			continue
		}
		l := strings.ToLower(n)
		like := l == "y"
		for _, word := range labelWords {
			like = like || strings.Contains(l, word)
		}
		if like {
			fmt.Fprintf(w, "%s: warning: no -target, so column %q is scored as a feature; if it is the label, give -target %s (or -exclude %s)\n", cmd, n, n, n)
		}
	}
}

// labelColumns leaves out of select's or budget's features, without
// -target or -columns, the label of a LIBSVM file (its first field, the
// column y, by the format's definition), saying so unless quiet; for other
// formats it warns about label-like names (warnLabelLike). It returns the
// exclusions.
func labelColumns(w io.Writer, cmd string, lf *loadFlags, path string, df dataframe.DataFrame, exclude []string, quiet bool) []string {
	f := lf.format
	if f == "" {
		f = frames.DataFormat(path)
	}
	if strings.EqualFold(f, "libsvm") && hasName(df, "y") {
		if !quiet {
			fmt.Fprintf(w, "credlab: %s: the LIBSVM file's label column y is not a feature (as with -target y; -columns chooses the features)\n", cmd)
		}
		return append(exclude, "y")
	}
	warnLabelLike(w, cmd, df, append(exclude, "row", "prob", "weight", "batch", "count", "audit", "pool_weight"))
	return exclude
}
