package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/credlab/credlab/frames"
)

func predictCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("predict", "predict -model MODEL.json -data FILE.csv -out FILE.csv", stderr)
	modelPath := fs.String("model", "", "model file written by 'credlab fit' (required)")
	data := fs.String("data", "", "data file (CSV, TSV, ARFF, LIBSVM, IDX or Parquet) with the model's feature columns (required)")
	out := fs.String("out", "", "output CSV (Parquet when the name ends in .parquet): the data's columns plus prediction (required)")
	quiet := fs.Bool("quiet", false, "quiet: no final summary on stderr (results on stdout and warnings remain)")
	asJSON := fs.Bool("json", false, "print a machine-readable summary (JSON) on stdout: rows, skipped rows, scores")
	missing := fs.String("missing", "fail", "rows with a missing feature value: fail (an error naming them) or skip (their prediction is left empty, NaN, and the rows are listed on stderr)")
	var lf loadFlags
	lf.register(fs)
	if err := lf.parse(fs, args, stderr, quiet, "model", "data", "out"); err != nil {
		return err
	}
	if *missing != "fail" && *missing != "skip" {
		return usagef("predict: flag -missing %q: choose fail or skip", *missing)
	}
	if _, err := os.Stat(*modelPath); err != nil {
		return fmt.Errorf("-model %s: %w", *modelPath, errors.Unwrap(err))
	}
	model, err := frames.LoadModelFile(*modelPath)
	if err != nil {
		return fmt.Errorf("-model %s: %w", *modelPath, err)
	}
	df, err := lf.load("data", *data)
	if err != nil {
		return err
	}
	df = lf.padLIBSVM(df, *data, model.Features)
	pred, skipped, err := frames.PredictWith(model, df, frames.PredictOptions{SkipMissing: *missing == "skip"})
	var ce *frames.ColumnError
	if errors.As(err, &ce) {
		// The model names the column, not a flag: bad data, not usage.
		return fmt.Errorf("predict %s: the model's %s column %q is not in the data; its columns are %s", *data, ce.Role, ce.Name, quoteList(ce.Columns, 20))
	}
	var me *frames.MissingError
	if errors.As(err, &me) {
		where := fmt.Sprintf("%s: the first is data row %d (0-based)", *data, me.First)
		var ma *missingAt
		if errors.As(lf.locate(err, *data, df), &ma) {
			where = ma.where()
		}
		return fmt.Errorf("predict %s: missing value; %s with missing values in all (column %s): fill them, or give -missing skip to leave their prediction empty",
			where, nRows(me.Rows), strings.Join(me.Columns, ", column "))
	}
	if err != nil {
		return fmt.Errorf("predict %s: %w", *data, err)
	}
	if err := writeFrame(ctx, *out, pred); err != nil {
		return err
	}
	if len(skipped) > 0 {
		fmt.Fprintf(stderr, "predict: %s with a missing feature value not predicted (prediction NaN): data rows %s (0-based)\n", nRows(len(skipped)), rowList(skipped, 20))
	}
	var scores *frames.Scores
	if hasName(df, model.Spec.Target) {
		p, _ := frames.Column(pred, frames.PredictionColumn)
		if y, err := frames.Column(df, model.Spec.Target); err == nil {
			if sc, err := frames.ScoreValues(p, y); err == nil {
				scores = &sc
			}
		}
	}
	if *asJSON {
		j := map[string]any{"command": "predict", "model": *modelPath, "data": *data, "out": *out, "rows": pred.Nrow(),
			"skipped": append([]int{}, skipped...), "target": model.Spec.Target, "scores": nil}
		if scores != nil {
			j["scores"] = jscores(*scores)
		}
		if err := writeJSON(stdout, j); err != nil {
			return err
		}
	} else if scores != nil {
		fmt.Fprintf(stdout, "target %s: %s\n", model.Spec.Target, *scores)
	}
	if !*quiet {
		newProgress(stderr, false, 0).done(fmt.Sprintf("predict: %d rows of %s, written to %s", pred.Nrow(), *data, *out))
	}
	return nil
}

// rowList lists rows, the first max of them and how many more.
func rowList(rows []int, max int) string {
	var b strings.Builder
	for i, r := range rows {
		if i == max {
			fmt.Fprintf(&b, " and %d more", len(rows)-max)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(r))
	}
	return b.String()
}
