package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/credlab/credlab/frames"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// labelCmd fills the target column of the rows select chose from a fully
// labeled copy of the pool: it stands in for the person who labels them.
func labelCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("label", "label -in CHOSEN.csv -from FULL -target COL -out LABELED.csv", stderr)
	in := fs.String("in", "", "rows written by 'credlab select', with its row column (required)")
	from := fs.String("from", "", "the pool with its target column filled in, rows in the same order (required)")
	target := fs.String("target", "", "column to fill (required)")
	out := fs.String("out", "", "output CSV (Parquet when the name ends in .parquet): the chosen rows with the target filled (required)")
	quiet := fs.Bool("quiet", false, "quiet: no final summary on stderr (results on stdout and warnings remain)")
	var lf loadFlags
	lf.register(fs)
	if err := lf.parse(fs, args, stderr, quiet, "in", "from", "target", "out"); err != nil {
		return err
	}
	chosen, err := lf.load("in", *in)
	if err != nil {
		return err
	}
	full, err := lf.load("from", *from)
	if err != nil {
		return err
	}
	if err := hasColumn(chosen, *in, "in", frames.RowColumn); err != nil {
		return err
	}
	if err := hasColumn(full, *from, "target", *target); err != nil {
		return err
	}
	rows, err := frames.Column(chosen, frames.RowColumn)
	if err != nil {
		return fmt.Errorf("-in %s: %w", *in, err)
	}
	y, err := frames.Column(full, *target)
	if err != nil {
		return fmt.Errorf("-from %s: %w", *from, err)
	}
	labels := make([]float64, len(rows))
	for i, r := range rows {
		if r != math.Trunc(r) || r < 0 || int(r) >= len(y) {
			return fmt.Errorf("-in %s: row %d has %s = %v, not a row of the %d rows of %s", *in, i, frames.RowColumn, r, len(y), *from)
		}
		labels[i] = y[int(r)]
	}
	var cols []string // every column of -from but the target and select's
	selects := []string{*target, frames.RowColumn, frames.ProbColumn, frames.WeightColumn, frames.BatchColumn, frames.CountColumn, frames.AuditColumn, frames.PoolWeightColumn}
	for _, c := range full.Names() {
		if !slices.Contains(selects, c) {
			cols = append(cols, c)
		}
	}
	if err := frames.CheckPoolRows(full, chosen, fmt.Sprintf("-in %s (rows of -from %s)", *in, *from), cols); err != nil {
		return err
	}
	labeled := setColumn(chosen, series.New(labels, series.Float, *target))
	if labeled.Err != nil {
		return labeled.Err
	}
	if err := writeFrame(ctx, *out, labeled); err != nil {
		return err
	}
	if !*quiet {
		newProgress(stderr, false, 0).done(fmt.Sprintf("label: %d rows of %s labeled from %s, written to %s", len(rows), *in, *from, *out))
	}
	return nil
}

// setColumn replaces the column of s's name, in place, or appends it.
func setColumn(df dataframe.DataFrame, s series.Series) dataframe.DataFrame {
	for _, n := range df.Names() {
		if n == s.Name {
			return df.Mutate(s)
		}
	}
	return df.CBind(dataframe.New(s))
}

// emptyTarget returns chosen with the target column present and empty,
// ready to fill in.
func emptyTarget(chosen dataframe.DataFrame, target string) dataframe.DataFrame {
	return setColumn(chosen, series.New(make([]string, chosen.Nrow()), series.String, target))
}

// resolveWeight returns the weight column a fit uses: none for "none", the
// flag's column when given, and otherwise the pool_weight column of a file
// written by select with a batch method, or else its weight column (with
// its row and prob columns), with a note on w.
func resolveWeight(df dataframe.DataFrame, flagValue string, w io.Writer) string {
	if flagValue == "none" {
		return ""
	}
	if flagValue != "" {
		return flagValue
	}
	has := map[string]bool{}
	for _, n := range df.Names() {
		has[n] = true
	}
	if has[frames.RowColumn] && has[frames.ProbColumn] && has[frames.WeightColumn] && has[frames.PoolWeightColumn] {
		fmt.Fprintf(w, "credlab: note: the data has select's columns row, prob and pool_weight: fitting with the pool weights in column %q, which make the rows a batch method chose stand for the pool (-weight none fits without them)\n", frames.PoolWeightColumn)
		return frames.PoolWeightColumn
	}
	if has[frames.RowColumn] && has[frames.ProbColumn] && has[frames.WeightColumn] {
		fmt.Fprintf(w, "credlab: note: the data has select's columns row, prob and weight: fitting with the importance weights in column %q (-weight none fits without them)\n", frames.WeightColumn)
		return frames.WeightColumn
	}
	return ""
}

// resolveAudit returns the audit column of a file written by select (with
// its row, prob and weight columns), with a note on w; "" without one.
func resolveAudit(df dataframe.DataFrame, w io.Writer) string {
	has := map[string]bool{}
	for _, n := range df.Names() {
		has[n] = true
	}
	if !(has[frames.RowColumn] && has[frames.ProbColumn] && has[frames.WeightColumn] && has[frames.AuditColumn]) {
		return ""
	}
	a, err := frames.Column(df, frames.AuditColumn)
	if err != nil {
		return "" // the fit names the problem when it reads the column
	}
	rows := 0
	for _, v := range a {
		if v > 0 {
			rows++
		}
	}
	if rows < 2 {
		fmt.Fprintf(w, "credlab: note: the data's audit column marks %d audit rows, too few to estimate the RMSE on the pool from them\n", rows)
		return ""
	}
	fmt.Fprintf(w, "credlab: note: the data has select's audit column: the RMSE on the pool is estimated from its %d audit rows\n", rows)
	return frames.AuditColumn
}

// warnFlat warns when a CRED selection's probabilities are nearly uniform:
// the scores carry no information, because sigma does not suit the data,
// lambda_q is below what the pool resolves (every row's score near 1), or
// unstandardized columns have very different scales.
func warnFlat(w io.Writer, chosen dataframe.DataFrame, method string, standardized bool) {
	if !strings.EqualFold(method, "cred") && method != "" {
		return
	}
	p, err := frames.Column(chosen, frames.ProbColumn)
	if err != nil || len(p) < 2 {
		return
	}
	lo, hi := math.Inf(1), 0.0
	for _, v := range p {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if lo == 1 && hi == 1 {
		return // a batch method's rows, which the default continues with
	}
	if lo > 0 && hi/lo < 1.01 {
		hint := "a larger -lambda (lambda_q: with a pool small next to its effective dimension every row scores near 1), or another -sigma (0 picks the median distance between rows)"
		if !standardized {
			hint = "standardize (-standardize), or " + hint
		}
		fmt.Fprintf(w, "credlab: warning: scores are flat (every chosen row has probability %.3g to within 1%%, as uniform sampling, which is then as good): try %s\n", lo, hint)
	}
}

// clipM clips the -m values of a sweep to the training rows of n rows
// with hold-out fraction val, warning on w; repeated values are dropped.
func clipM(ms []int, n int, val float64, w io.Writer) []int {
	nt := n - int(math.Ceil(val*float64(n)))
	if nt < 1 || len(ms) == 0 {
		return ms
	}
	var out []int
	seen := map[int]bool{}
	for _, m := range ms {
		if m > nt {
			fmt.Fprintf(w, "credlab: warning: -m %d exceeds the %d training rows; using m = %d\n", m, nt, nt)
			m = nt
		}
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}
