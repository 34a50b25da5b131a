package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/go-gota/gota/dataframe"
)

// stageWords says what each stage of the automatic method does.
var stageWords = map[string]string{
	"relevance": "learning the columns' relevance",
	"transform": "trying normal scores for the skewed columns",
	"coarse":    "searching sigma and lambda",
	"refine":    "refining sigma and lambda",
	"exact":     "searching the exact path",
	"grow":      "trying more Nyström centers",
	"centers":   "trying leverage-score centers",
	"family":    "trying the Matérn and Manhattan kernels",
	"model":     "fitting the choice on all rows",
	"estimate":  "refitting on folds to estimate the error",
	"curve":     "projecting the learning curve",
	"curves":    "projecting the uniform and CRED learning curves",
}

// searchStatus says where the automatic method's search stands.
func searchStatus(s credlab.TuneStatus) string {
	out := "stage " + s.Stage
	if w, ok := stageWords[s.Stage]; ok {
		out += " (" + w + ")"
	}
	if !math.IsNaN(s.BestRMSE) && !math.IsInf(s.BestRMSE, 0) {
		out += fmt.Sprintf(", best criterion RMSE %.4g", s.BestRMSE)
	}
	if !s.Deadline.IsZero() {
		out += fmt.Sprintf(", at most %s left in the time budget", max(0, time.Until(s.Deadline)).Round(time.Second))
	}
	return out
}

func fitCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("fit", "fit -data FILE.csv -target COL -out MODEL.json [flags]", stderr)
	data := fs.String("data", "", "data file (CSV, TSV, ARFF, LIBSVM, IDX or Parquet) of the training rows (required)")
	out := fs.String("out", "", "model file to write, JSON (required)")
	quiet := fs.Bool("quiet", false, "quiet: no progress and no final summary on stderr (results on stdout and warnings remain)")
	asJSON := fs.Bool("json", false, "print a machine-readable summary (JSON) on stdout instead of the text summary")
	testPath := fs.String("test", "", "data file of held-out rows with the target: the model's RMSE, MAE and R^2 on them are printed")
	var lf loadFlags
	lf.register(fs)
	var mf modelFlags
	mf.register(fs, false)
	if err := lf.parse(fs, args, stderr, quiet, "data", "out"); err != nil {
		return err
	}
	spec, err := mf.spec("fit")
	if err != nil {
		return err
	}
	exact := mf.validation == 0
	if exact && strings.EqualFold(mf.method, "auto") {
		return usagef("fit: -validation 0 fits with exactly the given settings: name a -method (for example krls with -lambda and -sigma)")
	}
	if exact && mf.lambda == 0 && mf.iters == 0 && !strings.EqualFold(mf.method, "kols") {
		return usagef("fit: -validation 0 fits with exactly the given settings: give -lambda (krls, nkrls, linear) or -iters (gd, nytro, lineargd, sgm)")
	}
	// The fit's checks that need no data, before any is read: FitContext
	// runs them again with the weight column a file written by select
	// brings.
	check := spec
	if check.Weight == "none" {
		check.Weight = ""
	}
	if err := frames.CheckSpec(check); err != nil {
		return fmt.Errorf("fit %s: %w", *data, err)
	}
	if exact {
		name, param, err := frames.MethodParameter(mf.method)
		if err == nil && (param == frames.ParamLambda && mf.lambda == 0 || param == frames.ParamIters && mf.iters == 0) {
			return usagef("fit: -validation 0: method %s would choose its parameter on a hold-out split; give -iters for an iterative method or -lambda for a lambda method", name)
		}
	}
	df, err := lf.load("data", *data)
	if err != nil {
		return err
	}
	mf.weight = resolveWeight(df, mf.weight, stderr)
	spec.Weight = mf.weight
	spec.Audit = resolveAudit(df, stderr)
	if err := mf.checkColumns(df, *data); err != nil {
		return err
	}
	var test dataframe.DataFrame
	if *testPath != "" {
		if test, err = lf.load("test", *testPath); err != nil {
			return err
		}
		if err := hasColumn(test, *testPath, "target", mf.target); err != nil {
			return err
		}
		// Every feature the fit will use, before the fit (FitContext
		// reports the errors of FeatureColumns itself): a column the fit
		// leaves out as constant need not be there.
		if feats, err := frames.FeatureColumns(df, spec); err == nil {
			test = lf.padLIBSVM(test, *testPath, feats)
			for _, c := range feats {
				if !hasName(test, c) && !constantColumn(df, c) {
					return fmt.Errorf("fit: -test %s has no column %q, a feature of the fit on -data %s; its columns are %s", *testPath, c, *data, quoteList(test.Names(), 20))
				}
			}
		}
	}
	p := newProgress(stderr, *quiet, 0)
	spec.Progress = func(s credlab.TuneStatus) { p.setDetail(func() string { return searchStatus(s) }) }
	stop := p.ticker("fitting " + mf.method)
	model, err := frames.FitContext(ctx, df, spec)
	stop()
	if err != nil {
		p.clear()
		var we *frames.WarnedError
		if errors.As(err, &we) { // warnings a model would carry, which may explain the failure
			for _, w := range we.Warnings {
				fmt.Fprintln(stderr, "credlab: warning: "+w)
			}
			err = we.Err
		}
		return fmt.Errorf("fit %s: %w", *data, lf.locate(err, *data, df))
	}
	if err := writeAtomic(ctx, *out, model.Save); err != nil {
		return err
	}
	var sc frames.Scores
	if *testPath != "" {
		if sc, err = model.Scores(test); err != nil {
			return fmt.Errorf("fit: scoring on -test %s: %w", *testPath, err)
		}
	}
	if *asJSON {
		j := map[string]any{"command": "fit", "data": *data, "model": *out, "target": model.Spec.Target, "method": model.Spec.Method,
			"sigma": jnum(model.Spec.Sigma), "lambda": jnum(model.Lambda), "m": model.Spec.M, "iterations": model.Iter,
			"rows": model.Rows, "features": model.Features, "columns": model.Columns, "validation_rmse": jnum(model.ValRMSE),
			"warnings": append([]string{}, model.Warnings...)}
		if *testPath != "" {
			j["test"] = map[string]any{"file": *testPath, "scores": jscores(sc)}
		}
		if err := writeJSON(stdout, j); err != nil {
			return err
		}
	} else {
		fmt.Fprint(stdout, model.Summary())
		if *testPath != "" {
			fmt.Fprintf(stdout, "test %s: %s\n", *testPath, sc)
		}
	}
	p.done(fmt.Sprintf("fit: %s on %d rows of %s, model written to %s", model.Spec.Method, model.Rows, *data, *out))
	return nil
}

// constantColumn reports whether column c of df is numeric with one value
// in every row, a column the fit leaves out.
func constantColumn(df dataframe.DataFrame, c string) bool {
	v, err := frames.Column(df, c)
	if err != nil || len(v) == 0 {
		return false
	}
	for _, x := range v[1:] {
		if x != v[0] {
			return false
		}
	}
	return true
}
