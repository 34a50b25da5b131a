package main

import (
	"fmt"
	"io"
	"strings"

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
