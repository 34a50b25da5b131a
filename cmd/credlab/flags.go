package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// loadFlags are the data-reading flags of every command that reads data.
type loadFlags struct {
	format, labels, memoryLimit string
	badAsMissing                bool
	noHeader, keepHeader        bool
	whitespace                  bool
	progress                    *progress // reports reading a file
}

func (l *loadFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.format, "format", "", "data format: "+strings.Join(frames.Formats, ", ")+" (default: from the file name; .gz is decompressed)")
	fs.StringVar(&l.labels, "labels", "", "IDX label file read beside IDX images (-format idx)")
	fs.BoolVar(&l.badAsMissing, "bad-as-missing", false, "read a cell that is not a number in a numeric column (abc, 1e999) as a missing value (otherwise an error naming it)")
	fs.BoolVar(&l.noHeader, "no-header", false, "CSV and TSV files have no header line: every line is data, the columns are x1, x2, ...")
	fs.BoolVar(&l.whitespace, "whitespace", false, "fields are separated by runs of spaces and tabs, as in many .dat and .txt tables (read as CSV whatever the file name)")
	fs.BoolVar(&l.keepHeader, "keep-header", false, "read a CSV header line as the column names even when it looks like a data row (names that are numbers)")
	fs.StringVar(&l.memoryLimit, "memory-limit", "", "largest allocation allowed, such as 4GiB (default: $CREDLAB_MEMORY_LIMIT, else 3/4 of the physical memory)")
}

// parse parses args into fs, where l is registered, applies l (quiet is
// read after parsing) and checks that the flags named by need are set: a
// command's prologue.
func (l *loadFlags) parse(fs *flag.FlagSet, args []string, stderr io.Writer, quiet *bool, need ...string) error {
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := l.apply(stderr, *quiet); err != nil {
		return err
	}
	return required(fs, need...)
}

// apply sets the memory limit and where reading reports its progress (on
// stderr, unless quiet); call it after parsing. The library's checks
// refuse any one allocation over the limit; when the user set it, the
// garbage collector is also asked to keep the whole heap (the data, a
// kernel matrix and what reading left to free) under twice the limit.
func (l *loadFlags) apply(stderr io.Writer, quiet bool) error {
	l.progress = newProgress(stderr, quiet, 0)
	if l.memoryLimit != "" {
		v, err := credlab.ParseMemoryLimit(l.memoryLimit)
		if err != nil {
			return usagef("flag -memory-limit %q: want a positive size such as 512MiB, 4GiB or a number of bytes", l.memoryLimit)
		}
		credlab.MemoryLimit = v
	}
	if v, src := credlab.EffectiveMemoryLimit(); src != "physical memory" {
		debug.SetMemoryLimit(min(v, math.MaxInt64/2) * 2)
	}
	return nil
}

// load reads the data file named by flag flagName, naming the flag and
// file in a missing-file error.
func (l *loadFlags) load(flagName, path string) (dataframe.DataFrame, error) {
	if _, err := os.Stat(path); err != nil {
		return dataframe.DataFrame{}, fmt.Errorf("-%s %s: %w", flagName, path, errors.Unwrap(err))
	}
	if l.format == "" && frames.DataFormat(path) == "" && !l.whitespace {
		return dataframe.DataFrame{}, usagef("-%s %s: the name does not tell the format: give -format %s", flagName, path, strings.Join(frames.Formats, "|"))
	}
	stop := l.progress.ticker("reading " + path)
	df, err := frames.LoadData(path, frames.LoadOptions{Format: l.format, Labels: l.labels, CSV: frames.CSVOptions{BadAsMissing: l.badAsMissing, NoHeader: l.noHeader, KeepHeader: l.keepHeader, Whitespace: l.whitespace}})
	stop()
	l.progress.clear()
	if err != nil {
		return df, fmt.Errorf("-%s %s: %w", flagName, path, err)
	}
	return df, nil
}

// padLIBSVM adds to df, read from path, a zero column for each column of
// need it lacks that a LIBSVM file names its features by (x<k>), when the
// file is LIBSVM: the format leaves zeros out, so a test or prediction
// file may lack features of the training file (a9a.t stops at 122 of
// 123). Other files are returned as they are.
func (l *loadFlags) padLIBSVM(df dataframe.DataFrame, path string, need []string) dataframe.DataFrame {
	f := l.format
	if f == "" {
		f = frames.DataFormat(path)
	}
	if !strings.EqualFold(f, "libsvm") {
		return df
	}
	for _, c := range need {
		if _, err := strconv.Atoi(strings.TrimPrefix(c, "x")); err != nil || !strings.HasPrefix(c, "x") || hasName(df, c) {
			continue
		}
		df = df.Mutate(series.New(make([]float64, df.Nrow()), series.Float, c))
	}
	return df
}

// hasColumn checks that df has the column named by a flag; otherwise it
// returns a *frames.ColumnError whose role is the flag.
func hasColumn(df dataframe.DataFrame, file, flagName, col string) error {
	if err := frames.FindColumn(df, col, flagName); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}

// modelFlags are the Spec settings shared by fit and sweep.
type modelFlags struct {
	target, method, selection, kernel, weight, columns, exclude, featureMap, preset, centers string
	relevance, transform                                                                     string
	timeBudget                                                                               time.Duration
	m, iters, maxIter, passes, batch                                                         int
	lambda, sigma, eta, validation, threshold, decay                                         float64
	plain, standardize, intercept, oneHot, dropNA                                            bool
	seed                                                                                     uint64
}

func (f *modelFlags) register(fs *flag.FlagSet, sweep bool) {
	fs.StringVar(&f.target, "target", "", "column to predict (required)")
	fs.StringVar(&f.method, "method", "auto", "method: auto (exact or Nyström KRLS with sigma, lambda and m chosen by -selection), "+strings.Join(frames.MethodNames(), ", ")+" (aliases: gd = earlystopping, ridge = linear, sgd = sgm)")
	fs.StringVar(&f.selection, "selection", "", "criterion of -method auto: cv (the default: 5-fold cross-validation), gcv (generalized cross-validation), holdout (the -validation share held out) or loo (leave-one-out, small data); named methods select on the hold-out split")
	fs.StringVar(&f.kernel, "kernel", "", "kernel: gaussian, matern52, matern32, manhattan (the Laplacian kernel of the L1 distance), laplacian, linear or polynomial (default gaussian; with -method auto, the Gaussian kernel, then the Matérn and Manhattan kernels tried)")
	fs.StringVar(&f.weight, "weight", "", "column of positive importance weights (default: select's pool_weight column in a file select wrote with a batch method, else its weight column; none: no weights)")
	fs.StringVar(&f.columns, "columns", "", "comma-separated feature columns (default: every column but the target, the weight, -exclude and select's bookkeeping columns such as row, prob, weight and pool_weight; string columns need -onehot)")
	fs.StringVar(&f.exclude, "exclude", "", "comma-separated columns left out of the default features")
	fs.StringVar(&f.centers, "centers", "", "Nyström centers of nkrls, nytro and -feature-map nystrom: uniform (the default) or leverage (drawn by approximate ridge leverage scores)")
	fs.StringVar(&f.featureMap, "feature-map", "", "feature map of linear and lineargd: raw, fourier, relu or nystrom (default raw)")
	fs.StringVar(&f.preset, "preset", "", "sgm parameter preset when -batch and -eta are zero: minibatch, simple or batch (default minibatch)")
	fs.IntVar(&f.maxIter, "max-iter", 0, "most gradient steps tried by gd, nytro and lineargd (0: 500)")
	fs.IntVar(&f.batch, "batch", 0, "sgm mini-batch size (0: the preset's)")
	fs.Float64Var(&f.eta, "eta", 0, "step size of gd, nytro, lineargd and sgm (0: the solver's safe step)")
	fs.Float64Var(&f.threshold, "threshold", 0, "early stopping once the validation error exceeds (1+threshold) times its best (0: 0.05; negative: never)")
	fs.Float64Var(&f.decay, "decay", 0, "sgm step-size decay theta in [0, 1), eta_t = eta t^-theta (0: constant step)")
	fs.BoolVar(&f.plain, "plain", false, "plain gradient descent (the papers' Landweber iteration) instead of the nu-method (gd, nytro, lineargd)")
	fs.BoolVar(&f.standardize, "standardize", true, "center and scale each feature to unit variance on the training rows, leaving out constant columns (the model remembers the scaling); -standardize=false uses the columns as they are")
	fs.BoolVar(&f.intercept, "intercept", true, "center the target and keep its mean as the intercept; -intercept=false fits without")
	fs.BoolVar(&f.oneHot, "onehot", false, "encode string feature columns as 0/1 columns, one per level")
	fs.BoolVar(&f.dropNA, "dropna", false, "drop rows with a missing value in a used column (otherwise an error)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the hold-out split, the Nyström centers, random features and sgm")
	if sweep {
		return
	}
	fs.IntVar(&f.m, "m", 0, "Nyström centers (nkrls, nytro: 0 means 1000, at most the training rows; auto: 0 grows m while the criterion improves) or random features (-feature-map fourier, nystrom: 0 means 100)")
	fs.IntVar(&f.iters, "iters", 0, "exact number of gradient steps (gd, nytro, lineargd, sgm), fitted on all rows (0: chosen on the hold-out split)")
	fs.IntVar(&f.passes, "passes", 0, "most passes over the data for sgm (0: 100)")
	fs.Float64Var(&f.lambda, "lambda", 0, "fixed regularization of auto, krls, nkrls and linear (0: chosen by -selection for auto, on the hold-out split from 1e-15..1 for a named method)")
	fs.Float64Var(&f.sigma, "sigma", 0, "Gaussian or Laplacian bandwidth (0: searched by auto; the median distance between rows for a named method)")
	fs.StringVar(&f.transform, "transform", "auto", "skewed columns of -method auto (|skewness| above 1): auto (mapped to normal scores through their training values' distribution when that validates better), off, or normal (always mapped)")
	fs.StringVar(&f.relevance, "relevance", "auto", "column relevance of -method auto: auto (one kernel scale per column, learned and kept when it validates better than one shared scale) or off (one shared scale)")
	fs.DurationVar(&f.timeBudget, "time", 0, "time budget of -method auto's search, such as 60s or 5m (0: 100s; negative: no bound); a search the budget stops keeps the best model so far and says so")
	fs.Float64Var(&f.validation, "validation", 0.2, "fraction of rows held out to choose the parameter; 0 fits on all rows with exactly the given settings (needs -lambda or -iters, except for kols)")
}

// spec checks the flags and returns the frames spec.
func (f *modelFlags) spec(cmd string) (frames.Spec, error) {
	var s frames.Spec
	if f.target == "" {
		return s, usagef("%s: flag -target is required", cmd)
	}
	if f.method == "" {
		return s, usagef("%s: flag -method is empty (auto chooses the method)", cmd)
	}
	if strings.EqualFold(f.method, "auto") {
		switch strings.ToLower(f.kernel) {
		case "", "gaussian", "rbf", "laplacian", "laplace", "matern52", "matern32", "manhattan":
		default:
			return s, usagef("%s: flag -kernel %s: -method auto searches the bandwidth of a gaussian, matern52, matern32, manhattan or laplacian kernel; name a -method (for example krls) for other kernels", cmd, f.kernel)
		}
	}
	switch sel := strings.ToLower(f.selection); {
	case sel != "" && sel != "cv" && sel != "gcv" && sel != "holdout" && sel != "loo":
		return s, usagef("%s: flag -selection %q: choose cv, gcv, holdout or loo", cmd, f.selection)
	case !strings.EqualFold(f.method, "auto") && sel != "" && sel != "holdout":
		return s, usagef("%s: flag -selection %s applies to -method auto; -method %s selects on the hold-out split", cmd, f.selection, f.method)
	}
	for _, c := range []struct {
		name  string
		value any
		bad   bool
		want  string
	}{
		{"m", f.m, f.m < 0, "a positive number of centers or features (0: the default)"},
		{"iters", f.iters, f.iters < 0, "a positive number of steps (0: chosen on the hold-out split)"},
		{"max-iter", f.maxIter, f.maxIter < 0, "a positive number of steps (0: 500)"},
		{"passes", f.passes, f.passes < 0, "a positive number of passes (0: 100)"},
		{"batch", f.batch, f.batch < 0, "a positive mini-batch size (0: the preset's)"},
		{"lambda", f.lambda, !(f.lambda >= 0) || math.IsInf(f.lambda, 0), "a positive finite number, or 0 to choose it (by -selection for -method auto, on the hold-out split from 1e-15..1 for a named method)"},
		{"sigma", f.sigma, !(f.sigma >= 0) || math.IsInf(f.sigma, 0), "a positive finite bandwidth, or 0 for the median distance between rows"},
		{"eta", f.eta, !(f.eta >= 0) || math.IsInf(f.eta, 0), "a positive finite step size, or 0 for the solver's safe step"},
		{"decay", f.decay, !(f.decay >= 0 && f.decay < 1), "a value in [0, 1)"},
		{"validation", f.validation, !(f.validation >= 0 && f.validation < 1), "a fraction in [0, 1)"},
		{"threshold", f.threshold, math.IsNaN(f.threshold) || math.IsInf(f.threshold, 0), "a finite number"},
	} {
		if c.bad {
			return s, usagef("%s: flag -%s %v: want %s", cmd, c.name, c.value, c.want)
		}
	}
	scale := scaleFlag(f.standardize)
	s = frames.Spec{Target: f.target, Method: f.method, Selection: f.selection, Kernel: f.kernel, Weight: f.weight,
		Features: splitList(f.columns), Exclude: splitList(f.exclude), FeatureMap: f.featureMap, Centers: f.centers,
		Preset: f.preset, M: f.m, Iters: f.iters, MaxIter: f.maxIter, Passes: f.passes, Batch: f.batch,
		Lambda: f.lambda, Sigma: f.sigma, StepSize: f.eta, Threshold: f.threshold, Decay: f.decay,
		Validation: f.validation, Plain: f.plain, Scale: scale, NoIntercept: !f.intercept,
		OneHot: f.oneHot, DropNA: f.dropNA, Seed: f.seed}
	if strings.EqualFold(f.method, "auto") {
		s.Relevance, s.TimeBudget, s.Transform = f.relevance, f.timeBudget, f.transform
	} else if f.timeBudget != 0 || !strings.EqualFold(f.relevance, "auto") && f.relevance != "" || !strings.EqualFold(f.transform, "auto") && f.transform != "" {
		return s, usagef("%s: flags -time, -relevance and -transform apply to -method auto, not to -method %s", cmd, f.method)
	}
	return s, nil
}

// checkColumns checks the columns named by flags against the data file.
func (f *modelFlags) checkColumns(df dataframe.DataFrame, file string) error {
	if err := hasColumn(df, file, "target", f.target); err != nil {
		return err
	}
	if f.weight != "" {
		if err := hasColumn(df, file, "weight", f.weight); err != nil {
			return err
		}
	}
	for _, c := range splitList(f.columns) {
		if err := hasColumn(df, file, "columns", c); err != nil {
			return err
		}
	}
	return nil
}

// floatList and intList are comma-separated list flags.
type floatList []float64

func (l *floatList) String() string {
	if l == nil {
		return ""
	}
	s := make([]string, len(*l))
	for i, v := range *l {
		s[i] = frames.FormatFloat(v)
	}
	return strings.Join(s, ",")
}

func (l *floatList) Set(v string) error {
	*l = nil
	for _, f := range splitList(v) {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || !(x > 0) || math.IsInf(x, 0) {
			return fmt.Errorf("%q is not a positive number", f)
		}
		*l = append(*l, x)
	}
	return nil
}

type intList []int

func (l *intList) String() string {
	if l == nil {
		return ""
	}
	s := make([]string, len(*l))
	for i, v := range *l {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}

func (l *intList) Set(v string) error {
	*l = nil
	for _, f := range splitList(v) {
		x, err := strconv.Atoi(f)
		if err != nil || x <= 0 {
			return fmt.Errorf("%q is not a positive integer", f)
		}
		*l = append(*l, x)
	}
	return nil
}

// hasName reports whether df has a column named name.
func hasName(df dataframe.DataFrame, name string) bool {
	for _, n := range df.Names() {
		if n == name {
			return true
		}
	}
	return false
}

// scaleFlag is the frames Scale of a -standardize flag.
func scaleFlag(standardize bool) string {
	if standardize {
		return frames.ScaleStandardize
	}
	return frames.ScaleNone
}
