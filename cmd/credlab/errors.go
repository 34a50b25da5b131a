package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/internal/datasets"
)

// Exit statuses.
const (
	exitOK          = 0
	exitFailure     = 1   // bad data, a failed fit, a refused allocation
	exitUsage       = 2   // a bad or missing flag, an unknown method or column
	exitInterrupted = 130 // SIGINT, as a shell reports a killed command
)

// paramFlags maps the settings named by the library's *credlab.ParamError
// to the command's flags.
var paramFlags = map[string]string{
	"Spec.Method": "method", "SelectSpec.Method": "method", "Spec.Kernel": "kernel",
	"Spec.FeatureMap": "feature-map", "Spec.Preset": "preset", "Spec.M": "m", "NystromConfig.M": "m",
	"Spec.Transform": "transform", "Spec.Relevance": "relevance", "Spec.Sigma": "sigma", "Gaussian kernel sigma": "sigma", "Laplacian kernel sigma": "sigma",
	"random features sigma": "sigma",
	"LoadOptions.Format":    "format", "memory limit": "memory-limit", "lambda": "lambda", "lambda_q": "lambda",
	"step size": "eta",
	"budget":    "budget", "previous row": "labeled", "labeled row": "labeled", "pilot labels": "pilot", "pilot row": "pilot",
	"Holdout.Fraction": "validation", "IterConfig.Iter": "iters", "SGMConfig.Iter": "iters", "IterConfig.MaxIter": "max-iter",
	"IterConfig.Threshold": "threshold", "SGMConfig.Threshold": "threshold", "SGMConfig.Batch": "batch",
	"SGMConfig.StepSize": "eta", "SGMConfig.Decay": "decay", "SGMConfig.Passes": "passes", "SGMConfig.Preset": "preset",
	"random features D": "m", "TuneConfig.Sigma": "sigma", "TuneConfig.Lambda": "lambda", "Lambdas": "lambda",
	"TuneConfig.M": "m", "TuneConfig.MaxM": "m", "TuneConfig.Criterion": "selection", "TuneConfig.Family": "kernel",
	"TuneConfig.Method": "method", "SelectSpec.Design": "design", "Spec.Selection": "selection", "Spec.Scale": "standardize",
	"Spec.Target": "target", "Spec.Weight": "weight", "SelectSpec.Kernel": "kernel", "SelectSpec.Sigma": "sigma",
	"SelectSpec.FeatureMap": "features", "SelectSpec.M": "m", "BudgetSpec.Kernel": "kernel", "BudgetSpec.Sigma": "sigma",
	"BudgetSpec.FeatureMap": "features", "BudgetSpec.M": "m", "BudgetSpec.Target": "target",
	"SimulateSpec.Budgets": "budgets", "SimulateSpec.Methods": "methods", "SimulateSpec.Initial": "initial", "SimulateSpec.Batch": "batch",
	"SimulateSpec.Final": "final", "SimulateSpec.TestShare": "test", "SimulateSpec.Seeds": "seeds", "SimulateSpec.Target": "target",
	"Grid.Sigma": "sigma", "Grid.M": "m", "Grid.Lambda": "lambda", "Spec.Centers": "centers", "Grid.Passes": "passes", "Grid.Batch": "batch-sizes", "Grid.LambdaQ": "lambda-q", "Grid.Budget": "budget",
}

// columnFlags maps a *frames.ColumnError's role to the flag naming it.
var columnFlags = map[string]string{"target": "target", "weight": "weight", "feature": "columns", "columns": "columns",
	"excluded": "exclude", "exclude": "exclude", "in": "in", "labeled": "labeled"}

// explain returns the message and exit status for err, chosen by its type
// (errors.As), never by its text. Messages name the command's flags.
func explain(err error) (string, int) {
	var (
		ue  usageError
		pe  *credlab.ParamError
		ce  *frames.ColumnError
		se  *frames.StringColumnsError
		me  *frames.MissingError
		ma  *missingAt
		cel *frames.CellError
		tl  *credlab.TooLargeError
		de  *credlab.DivergedError
		se1 *credlab.SingularError
	)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return "", exitOK
	case errors.Is(err, context.Canceled):
		return "interrupted; no output file was written", exitInterrupted
	case errors.As(err, &ue):
		return ue.msg + "\nrun 'credlab help' or 'credlab CMD -h' for the flags", exitUsage
	case errors.As(err, &se1):
		if f, ok := paramFlags[se1.Setting]; ok {
			return fmt.Sprintf("the %s system is not numerically positive definite at %s = %s: use a larger -%s", se1.System, se1.Setting, se1.Value, f), exitFailure
		}
		return err.Error(), exitFailure
	case errors.As(err, &pe):
		// A list entry is named with its index, such as Grid.Sigma[2].
		if f, ok := paramFlags[strings.TrimRight(strings.TrimRight(pe.Name, "]0123456789"), "[")]; ok {
			return fmt.Sprintf("flag -%s %v: want %s", f, pe.Value, pe.Want), exitUsage
		}
		// A setting no flag sets comes from the data (scores, weights).
		return err.Error(), exitFailure
	case errors.As(err, &ce):
		msg := fmt.Sprintf("the data has no column %q", ce.Name)
		if f, ok := columnFlags[ce.Role]; ok {
			msg += fmt.Sprintf(" (flag -%s)", f)
		}
		if ce.Suggestion != "" {
			msg += fmt.Sprintf("; did you mean %q?", ce.Suggestion)
		}
		return msg + "; its columns are " + quoteList(ce.Columns, 20), exitUsage
	case errors.As(err, &se):
		return fmt.Sprintf("the columns %s hold strings (categorical values): add -onehot to encode them, or leave them out with -exclude %s",
			quoteList(se.Columns, 10), strings.Join(se.Columns, ",")), exitFailure
	case errors.As(err, &me) && len(me.Empty) > 0:
		return fmt.Sprintf("the column %s has no value in any row: leave it out with -exclude %s, or drop it from -columns", quoteList(me.Empty, 10), strings.Join(me.Empty, ",")), exitFailure
	case errors.As(err, &ma):
		return fmt.Sprintf("%s: missing value; %s with missing values in all (column %s): fill them, or add -dropna to leave those rows out",
			ma.where(), nRows(ma.err.Rows), strings.Join(ma.err.Columns, ", column ")), exitFailure
	case errors.As(err, &me):
		return fmt.Sprintf("missing values in column %s; %s in all, the first is row %d: fill them, or add -dropna to leave those rows out",
			strings.Join(me.Columns, ", column "), nRows(me.Rows), me.First), exitFailure
	case errors.As(err, &cel):
		return fmt.Sprintf("%s:%d:%d: column %q, row %d: %q is not a finite number, unlike the column's other values; fix the cell, or add -bad-as-missing to read such cells as missing values",
			cel.File, cel.Line, cel.Column, cel.Name, cel.Row, cel.Value), exitFailure
	case errors.As(err, &tl):
		_, src := credlab.EffectiveMemoryLimit()
		from := map[string]string{"MemoryLimit": "flag -memory-limit", "CREDLAB_MEMORY_LIMIT": "CREDLAB_MEMORY_LIMIT"}[src]
		if from == "" {
			from = "3/4 of the physical memory; -memory-limit or CREDLAB_MEMORY_LIMIT sets it"
		}
		c := *tl
		if c.What == "kernel matrix" {
			c.Hint = fmt.Sprintf("fit with -method nkrls or nytro and -m well below %d, select or budget with -features rf or nystrom, or raise the limit", c.Rows)
		}
		return fmt.Sprintf("%s (the limit: %s)", strings.TrimPrefix(c.Error(), "credlab: "), from), exitFailure
	case errors.As(err, &de):
		if de.MaxStable > 0 {
			return fmt.Sprintf("%s diverged with step size -eta %g: use -eta below %.3g, or 0 for the safe step", de.Method, de.Step, de.MaxStable), exitFailure
		}
		return fmt.Sprintf("%s diverged at iteration %d (%s): use a smaller -eta, or 0 for the safe step", de.Method, de.Iter, de.Detail), exitFailure
	}
	return err.Error(), exitFailure
}

func quoteList(names []string, max int) string { return datasets.QuoteNames(names, max) }

// nRows says "1 row" or "n rows".
func nRows(n int) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}

// namePoolRows names, in a *frames.PoolRowsError, the flag and file of the
// rows said to be the pool's (what), in place of the library's generic
// name; other errors are returned as they are.
func namePoolRows(err error, what string) error {
	var pe *frames.PoolRowsError
	if errors.As(err, &pe) {
		pe.What = what
	}
	return err
}
