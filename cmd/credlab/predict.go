package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/credlab/credlab/frames"
)

func predictCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("predict", "predict -model MODEL.json -data FILE.csv -out FILE.csv", stderr)
	modelPath := fs.String("model", "", "model file written by 'credlab fit' (required)")
	data := fs.String("data", "", "data file (CSV, TSV, ARFF, LIBSVM, IDX or Parquet) with the model's feature columns (required)")
	out := fs.String("out", "", "output CSV (Parquet when the name ends in .parquet): the data's columns plus prediction (required)")
	quiet := fs.Bool("quiet", false, "no final summary on stderr")
	var lf loadFlags
	lf.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := lf.apply(stderr, *quiet); err != nil {
		return err
	}
	if err := required(fs, "model", "data", "out"); err != nil {
		return err
	}
	if _, err := os.Stat(*modelPath); err != nil {
		return fmt.Errorf("-model %s: %w", *modelPath, errors.Unwrap(err))
	}
	model, err := frames.LoadFile(*modelPath)
	if err != nil {
		return fmt.Errorf("-model %s: %w", *modelPath, err)
	}
	df, err := lf.load("data", *data)
	if err != nil {
		return err
	}
	pred, err := frames.Predict(model, df)
	var ce *frames.ColumnError
	if errors.As(err, &ce) {
		// The model names the column, not a flag: bad data, not usage.
		return fmt.Errorf("predict %s: the model's %s column %q is not in the data; its columns are %s", *data, ce.Role, ce.Name, quoteList(ce.Columns, 20))
	}
	var me *frames.MissingError
	if errors.As(err, &me) {
		return fmt.Errorf("predict %s: missing values in column %s; %s in all, the first is row %d: fill them, or fit the model with -dropna (such rows then get a NaN prediction)",
			*data, strings.Join(me.Columns, ", column "), nRows(me.Rows), me.First)
	}
	if err != nil {
		return fmt.Errorf("predict %s: %w", *data, err)
	}
	if err := writeFrame(ctx, *out, pred); err != nil {
		return err
	}
	if !*quiet {
		newProgress(stderr, true, 0).done(fmt.Sprintf("predict: %d rows of %s, written to %s", pred.Nrow(), *data, *out))
	}
	return nil
}
