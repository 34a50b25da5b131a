package frames

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// Columns Select adds besides RowColumn, ProbColumn and WeightColumn: the
// batch of each row when a selection continues Labeled rows, and the draw
// count of each row under the "distinct" design.
const (
	BatchColumn = "batch"
	CountColumn = "count"
	// AuditColumn holds each row's audit weight when a batch method drew
	// an audit sample (SelectSpec.Audit): 1/pi for audit rows, 0 for the
	// rows the method chose; Fit takes it as Spec.Audit.
	AuditColumn = "audit"
	// PoolWeightColumn holds each row's weight to the pool when a method
	// that is not a probability sample (a batch method or greedy) chose
	// the rows: credlab.PoolWeights of all rows so far, under the kernel
	// the method selected with. The command fit takes it as Spec.Weight.
	PoolWeightColumn = "pool_weight"
)

// auditShare resolves SelectSpec.Audit and SimulateSpec.Audit: 0 is
// DefaultAuditShare, a negative share none.
func auditShare(a float64) float64 {
	switch {
	case a == 0:
		return DefaultAuditShare
	case a < 0:
		return 0
	}
	return a
}

// DefaultAuditShare is the share of each batch a batch method leaves to
// an audit sample by default (SelectSpec.Audit, SimulateSpec.Audit).
const DefaultAuditShare = 0.1

// SelectSpec says how Select chooses rows to label.
type SelectSpec struct {
	// Method is "cred" (the CRED paper's importance sampling by leverage
	// scores), "uniform", "greedy" (GSx, greedy sampling in
	// input space, credlab.GreedySelector: distinct rows, weights 1), or
	// a batch active-learning method of credlab.BatchSelector ("lcmd",
	// "kmeanspp", "maxdist", "maxdet", "maxdiag", "bait", "herding": distinct rows,
	// weights 1; the distance methods lcmd, kmeanspp and maxdist measure
	// the kernel's feature distances exactly, the others on M Nyström
	// features, default credlab.DefaultBatchM).
	// The default, "", is DefaultBatchMethod when Labeled rows all have
	// weight 1 (a uniform or batch-method selection) and carry their
	// Target labels: the batch loop, where it measured best
	// (docs/labeling.md); otherwise "cred".
	Method string
	// Target names the label column of Labeled. When Labeled has it filled
	// in, a batch method selects with the kernel and noise (n lambda) that
	// credlab.Tune, the default fit's tuner, chooses on those labels;
	// otherwise with the Gaussian kernel of bandwidth Sigma (default the
	// median distance) and noise credlab.DefaultBatchNoise.
	Target string
	// Report, if not nil, receives lines for the user: which kernel a
	// batch method selected with and where it came from, and warnings,
	// which start "warning: " (a Sigma far from the median distance
	// between the rows of the design matrix the selector sees).
	Report func(line string)
	// Design is how rows are drawn from the sampling distribution
	// (credlab.Design): "without" (the default: exactly budget distinct
	// rows, inclusion probabilities proportional to the sampling
	// distribution, Horvitz-Thompson weights; a labeler is paid per
	// distinct row, and a budget above the rows not yet labeled is an
	// error), "replacement" (the CRED paper's: budget draws, a row drawn
	// twice appears twice) or "distinct" (the same draws, each distinct
	// row once with its draws in "count" and in its weight).
	Design string
	// Labeled, when set, is an earlier Select result on the same pool
	// with the same spec, Seed included: its rows are not labeled again,
	// the next batch continues its design, and Select returns the union,
	// old rows first, with a "batch" column. The union is exactly the
	// one-shot selection of its total size, probabilities and weights
	// included (credlab.SampleDesign). Without replacement, labeled rows
	// that another seed or spec chose are an error, and so are rows that
	// do not hold their pool rows' values in the feature columns
	// (CheckPoolRows: a file of another pool, or the pool reordered).
	Labeled *dataframe.DataFrame
	// Features names the columns the selector sees. Default: every column
	// except the bookkeeping columns and those in Exclude; as in Spec, a
	// string column among them is a *StringColumnsError unless OneHot
	// encodes it or Exclude leaves it out.
	Features []string
	Exclude  []string
	// Kernel and Sigma score rows for CRED (default Gaussian with the
	// median-distance bandwidth), exactly from the N x N kernel matrix,
	// unless FeatureMap names a feature space: "fourier" (M random Fourier
	// features, M default 100), "raw" (the columns plus a constant),
	// "relu" (random ReLU network with Widths) or "nystrom" (M Nyström
	// features), or "bless" for approximate scores of the kernel itself
	// (credlab.ApproxLeverageScores with a dictionary of M rows, default
	// 400: O(N M (d + M)) time, no N x N matrix), or "exact". Default "":
	// exact scores up to ExactScoreRows rows, and beyond, LargePoolM(N)
	// Nyström features (M, when positive, their number), so that no N x N
	// matrix is built for a large pool unless asked; Report says so.
	Kernel     string
	Sigma      float64
	FeatureMap string
	M          int
	Widths     []int
	// LambdaQ is CRED's lambda_q (default 1e-6).
	LambdaQ float64
	// Seed seeds the draw and the random features.
	Seed uint64
	// OneHot, Scale and DropNA act as in Spec: by default the columns are
	// standardized before scoring, as Fit standardizes them (Scale "none"
	// scores them as they are). Rows dropped for a missing value are never
	// chosen.
	OneHot, DropNA bool
	Scale          string
	// Audit is the share of a batch method's batch drawn as an audit
	// sample (credlab.BatchSelector.Audit): rows drawn uniformly from the
	// unlabeled rows, which the method does not see, marked in the
	// "audit" column with their weight 1/pi, so that Fit can estimate the
	// model's RMSE on the pool from them (Spec.Audit). Default
	// DefaultAuditShare; negative for none; at most 0.5. CRED and uniform
	// selections are probability samples and draw none.
	Audit float64
	// TimeBudget bounds the tuning of the kernel on Labeled's labels, as
	// Spec.TimeBudget bounds Fit's (zero: credlab.DefaultTimeBudget;
	// negative: no bound), and Progress receives its reports. The tuner's
	// warnings (the budget stopped it, a grid edge) go to Report.
	TimeBudget time.Duration
	Progress   func(credlab.TuneStatus)
	// Selector, if set, is used instead of Method (for example a
	// credlab.CREDSelector configured by hand).
	Selector credlab.Selector
}

// Select chooses budget rows of pool to label and returns them, in draw
// order, with three added columns: "row", the row's index in pool; "prob",
// its inclusion probability pi (without replacement, the default) or
// sampling probability q (with replacement); and "weight", its importance
// weight (budget/(N pi) without replacement, 1/(N q) with) for a weighted
// Fit (Spec.Weight = "weight"). With replacement a row can appear more
// than once. pool is not modified.
func Select(pool dataframe.DataFrame, budget int, spec SelectSpec) (dataframe.DataFrame, error) {
	return SelectContext(context.Background(), pool, budget, spec)
}

// SelectContext is Select with cancellation.
func SelectContext(ctx context.Context, pool dataframe.DataFrame, budget int, spec SelectSpec) (dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	if err := checkFrame(pool, "pool"); err != nil {
		return none, err
	}
	for _, c := range []string{RowColumn, ProbColumn, WeightColumn, BatchColumn, CountColumn} {
		for _, n := range pool.Names() {
			if n == c {
				return none, problem(c, "", "is one Select adds, but the pool has it already; rename or drop it")
			}
		}
	}
	if budget <= 0 {
		return none, &credlab.ParamError{Name: "budget", Value: budget, Want: "a positive number of rows"}
	}
	sel, rows, poolW, err := selectRows(ctx, pool, budget, spec)
	if err != nil {
		return none, err
	}
	idx := make([]int, len(sel.Index))
	for i, j := range sel.Index {
		idx[i] = rows[j]
	}
	out := pool.Subset(idx)
	if out.Err != nil {
		return none, fmt.Errorf("frames: taking the chosen rows: %w", out.Err)
	}
	cols := []series.Series{
		series.New(idx, series.Int, RowColumn),
		series.New(sel.Prob, series.Float, ProbColumn),
		series.New(sel.Weight, series.Float, WeightColumn)}
	if sel.Batch != nil {
		cols = append(cols, series.New(sel.Batch, series.Int, BatchColumn))
	}
	if sel.Count != nil {
		cols = append(cols, series.New(sel.Count, series.Int, CountColumn))
	}
	if sel.Audit != nil {
		if FindColumn(pool, AuditColumn, "pool") == nil {
			return none, problem(AuditColumn, "", "is the column of audit weights Select adds, but the pool has it already; rename or drop it, or set SelectSpec.Audit negative")
		}
		cols = append(cols, series.New(sel.Audit, series.Float, AuditColumn))
	}
	if poolW != nil {
		if FindColumn(pool, PoolWeightColumn, "pool") == nil {
			return none, problem(PoolWeightColumn, "", "is the column of pool weights Select adds, but the pool has it already; rename or drop it")
		}
		cols = append(cols, series.New(poolW, series.Float, PoolWeightColumn))
	}
	out = out.CBind(dataframe.New(cols...))
	if out.Err != nil {
		return none, fmt.Errorf("frames: adding the selection columns: %w", out.Err)
	}
	return out, nil
}

// selectRows runs the selector on the pool's design matrix and returns the
// selection, the pool rows behind the matrix rows and, for a method that
// is not a probability sample, the rows' pool weights (poolWeights).
func selectRows(ctx context.Context, pool dataframe.DataFrame, budget int, spec SelectSpec) (s *credlab.Selection, rows []int, poolW []float64, err error) {
	scale, err := specScale(spec.Scale, "SelectSpec")
	if err != nil {
		return nil, nil, nil, err
	}
	fs := Spec{Features: spec.Features, Exclude: spec.Exclude, OneHot: spec.OneHot, Scale: scale, DropNA: spec.DropNA}
	p, err := prepare(pool, &fs, "pool")
	if err != nil {
		return nil, nil, nil, err
	}
	prev, err := labeledSelection(spec.Labeled, p.rows, pool.Nrow())
	if err != nil {
		return nil, nil, nil, err
	}
	if spec.Labeled != nil {
		if err := CheckPoolRows(pool, *spec.Labeled, "labeled rows", p.d.features); err != nil {
			return nil, nil, nil, err
		}
	}
	sel := spec.Selector
	if sel == nil {
		if sel, err = selectorOf(ctx, spec, "SelectSpec", p, prev); err != nil {
			return nil, nil, nil, err
		}
	} else if prev != nil {
		return nil, nil, nil, &credlab.ParamError{Name: "SelectSpec.Labeled", Value: "set", Want: "no Labeled rows with a custom Selector: set the selector's Previous instead, or use a Method"}
	}
	if s, err = sel.Select(ctx, p.x, budget, spec.Seed); err != nil {
		return nil, nil, nil, err
	}
	if poolW, err = poolWeights(ctx, sel, p.x, s.Index); err != nil {
		return nil, nil, nil, err
	}
	return s, p.rows, poolW, nil
}

// poolWeights returns credlab.PoolWeights of the rows idx of the pool x
// chosen by sel, under the kernel sel selected with (none for features
// given in place of a kernel's), when sel is not a probability sample (a
// BatchSelector or GreedySelector); nil otherwise.
func poolWeights(ctx context.Context, sel credlab.Selector, x *mat.Dense, idx []int) ([]float64, error) {
	var k credlab.Kernel
	switch s := sel.(type) {
	case credlab.BatchSelector:
		if s.Features == nil {
			k = s.Kernel
		}
	case *credlab.BatchSelector:
		if s.Features == nil {
			k = s.Kernel
		}
	case credlab.GreedySelector, *credlab.GreedySelector:
	default:
		return nil, nil
	}
	xl, err := credlab.GatherRows(x, idx)
	if err != nil {
		return nil, err
	}
	return credlab.PoolWeights(ctx, x, xl, k)
}

// designOf parses SelectSpec.Design.
func designOf(spec SelectSpec, what string) (credlab.Design, error) {
	switch strings.ToLower(spec.Design) {
	case "", "without", "without-replacement":
		return credlab.WithoutReplacement, nil
	case "replacement", "with-replacement":
		return credlab.WithReplacement, nil
	case "distinct":
		return credlab.DistinctRows, nil
	}
	return 0, &credlab.ParamError{Name: what + ".Design", Value: strconv.Quote(spec.Design), Want: "without (the default), replacement or distinct"}
}

// labeledSelection turns an earlier Select result into the credlab
// Selection it came from, in design-matrix rows (rows maps those to pool
// rows; the pool has n rows).
func labeledSelection(df *dataframe.DataFrame, rows []int, n int) (*credlab.Selection, error) {
	if df == nil {
		return nil, nil
	}
	if err := checkFrame(*df, "labeled rows"); err != nil {
		return nil, err
	}
	at := make(map[int]int, len(rows))
	for i, r := range rows {
		at[r] = i
	}
	sel := &credlab.Selection{}
	var err error
	get := func(name string, must bool) []float64 {
		for _, c := range df.Names() {
			if c == name {
				v, e := Column(*df, name)
				if e != nil && err == nil {
					err = fmt.Errorf("frames: labeled rows: %w", e)
				}
				return v
			}
		}
		if must && err == nil {
			err = &ColumnError{Name: name, Role: "labeled", Suggestion: closest(df.Names(), name), Columns: df.Names()}
		}
		return nil
	}
	r, p, w, b, c, a := get(RowColumn, true), get(ProbColumn, true), get(WeightColumn, true), get(BatchColumn, false), get(CountColumn, false), get(AuditColumn, false)
	if err != nil {
		return nil, err
	}
	sel.Audit = a
	for i, v := range r {
		j, ok := at[int(v)]
		if v != math.Trunc(v) || !ok {
			return nil, &credlab.ParamError{Name: "labeled row", Value: v,
				Want: fmt.Sprintf("a row of the pool's %d that the selector sees, 0..%d without rows dropped for missing values (row %d of the labeled rows)", n, n-1, i)}
		}
		sel.Index = append(sel.Index, j)
	}
	sel.Prob, sel.Weight = p, w
	if b != nil {
		sel.Batch = make([]int, len(b))
		for i, v := range b {
			sel.Batch[i] = int(v)
		}
	}
	if c != nil {
		sel.Count = make([]int, len(c))
		for i, v := range c {
			sel.Count[i] = int(v)
		}
	}
	return sel, nil
}

// selectorOf builds the credlab selector of spec.
// what names the settings in a *credlab.ParamError: "SelectSpec" or
// "BudgetSpec".
func selectorOf(ctx context.Context, spec SelectSpec, what string, p *prepared, prev *credlab.Selection) (credlab.Selector, error) {
	d, err := designOf(spec, what)
	if err != nil {
		return nil, err
	}
	method := strings.ToLower(spec.Method)
	if method == "" && prev != nil && unitWeights(prev) {
		if y, err := labeledTargets(spec); err == nil && y != nil {
			method = DefaultBatchMethod
		}
	}
	if (method == "" || method == "cred" || method == "uniform") && d == credlab.WithoutReplacement && prev != nil {
		seen := make(map[int]bool, len(prev.Index))
		for _, j := range prev.Index {
			if seen[j] {
				return nil, &credlab.ParamError{Name: what + ".Design", Value: strconv.Quote(spec.Design),
					Want: "replacement, as the labeled rows were drawn: they repeat a row, which a design without replacement never does"}
			}
			seen[j] = true
		}
	}
	switch method {
	case "uniform":
		return credlab.UniformSelector{Design: d, Previous: prev}, nil
	case "greedy", "gsx":
		return credlab.GreedySelector{Previous: prev}, nil
	case "", "cred":
	default:
		m, err := credlab.ParseBatchMethod(method)
		if err != nil {
			return nil, &credlab.ParamError{Name: what + ".Method", Value: strconv.Quote(spec.Method), Want: "cred, uniform, greedy or " + strings.Join(credlab.BatchMethods, ", ")}
		}
		return batchSelectorOf(ctx, spec, m, p, prev)
	}
	var approx *credlab.BLESSConfig
	fm, m, note := scoreMap(spec.FeatureMap, spec.M, len(p.rows))
	if note != "" && spec.Report != nil {
		spec.Report(note)
	}
	if strings.EqualFold(fm, "bless") {
		if spec.M < 0 {
			return nil, &credlab.ParamError{Name: what + ".M", Value: spec.M, Want: "a positive BLESS dictionary size (or zero for 400)"}
		}
		approx, fm = &credlab.BLESSConfig{Dict: spec.M, Seed: spec.Seed}, ""
	}
	// Reuse the fitting runner for the kernel and feature map defaults.
	s := Spec{Kernel: spec.Kernel, Sigma: spec.Sigma, FeatureMap: fm, M: m, Widths: spec.Widths, Seed: spec.Seed}
	mi := &methodInfo{name: "cred", feature: fm != ""}
	r := &runner{mi: mi, s: s, x: p.x, spec: what}
	if err := r.resolve(); err != nil {
		return nil, err
	}
	if spec.Report != nil {
		r.warnSigma(spec.Sigma, p)
		for _, w := range r.warns {
			spec.Report("warning: " + w)
		}
	}
	c := credlab.CREDSelector{Kernel: r.k, Approx: approx, LambdaQ: spec.LambdaQ, Design: d, Previous: prev}
	if r.fm != nil {
		c.Features = r.fm
	}
	return c, nil
}

// batchSelectorOf builds the credlab.BatchSelector of method m, with the
// kernel tuned on the labeled rows when they carry spec.Target's labels.
func batchSelectorOf(ctx context.Context, spec SelectSpec, m string, p *prepared, prev *credlab.Selection) (credlab.Selector, error) {
	if spec.M < 0 {
		return nil, &credlab.ParamError{Name: "SelectSpec.M", Value: spec.M, Want: "a positive number of Nyström features (or zero for the default)"}
	}
	if k := strings.ToLower(spec.Kernel); k != "" && k != "gaussian" && k != "rbf" {
		return nil, &credlab.ParamError{Name: "SelectSpec.Kernel", Value: strconv.Quote(spec.Kernel), Want: `"" with method ` + m + ": it scores rows with the Gaussian kernel, or with the kernel tuned on the labeled rows"}
	}
	n, _ := p.x.Dims()
	b := credlab.BatchSelector{Method: m, M: min(spec.M, n), Previous: prev, Audit: auditShare(spec.Audit)}
	report := func(format string, args ...any) {
		if spec.Report != nil {
			spec.Report(fmt.Sprintf(format, args...))
		}
	}
	y, err := labeledTargets(spec)
	if err != nil {
		return nil, err
	}
	if y == nil {
		sigma, how := spec.Sigma, "given"
		if sigma == 0 {
			sigma, how = credlab.MedianDistance(p.x), "the median distance between rows; no labels yet"
		}
		b.Kernel = credlab.GaussianKernel{Sigma: sigma}
		report("%s on %s, noise %g (sigma %s)", m, b.Kernel, credlab.DefaultBatchNoise, how)
		if spec.Report != nil {
			if w := sigmaWarning(spec.Sigma, "", p, "SelectSpec.Sigma", "0 for the median"); w != "" {
				report("warning: %s", w)
			}
		}
		return b, nil
	}
	xl, err := credlab.GatherRows(p.x, prev.Index)
	if err != nil {
		return nil, err
	}
	w, err := labeledWeights(*spec.Labeled, prev)
	if err != nil {
		return nil, err
	}
	// The selector uses the kernel on the pool's columns as they are: no
	// normal-score map.
	fit, err := credlab.Tune(ctx, xl, y, credlab.TuneConfig{Seed: spec.Seed, Weights: w, TimeBudget: spec.TimeBudget, Status: spec.Progress, SearchOnly: true, Transform: credlab.TransformOff})
	if err != nil {
		return nil, fmt.Errorf("frames: tuning the kernel on the %d labeled rows: %w", len(y), err)
	}
	ch := fit.Choice
	for _, w := range ch.Warnings {
		report("warning: tuning the kernel on the %d labeled rows: %s", len(y), w)
	}
	b.Kernel = ch.Kernel
	b.Noise = math.Min(math.Max(float64(len(y))*ch.Lambda, 1e-6), 1)
	weighted := ""
	switch {
	case w == nil:
	case FindColumn(*spec.Labeled, PoolWeightColumn, "") == nil:
		weighted = ", weighted by their pool weights"
	default:
		weighted = ", weighted by their importance weights"
	}
	report("%s on %s, noise %.3g: tuned on the %d labeled rows%s (%s, lambda %.3g, cross-validated RMSE %.4g)", m, ch.Kernel, b.Noise, len(y), weighted, ch.Method, ch.Lambda, ch.ValRMSE)
	return b, nil
}

// labeledWeights returns the weights the command fit gives the labeled
// rows, which select -labeled tunes the kernel with: their pool weights
// (PoolWeightColumn) when they have them, otherwise their importance
// weights unless every one is 1 (nil then).
func labeledWeights(labeled dataframe.DataFrame, prev *credlab.Selection) ([]float64, error) {
	if FindColumn(labeled, PoolWeightColumn, "") != nil {
		if unitWeights(prev) {
			return nil, nil
		}
		return prev.Weight, nil
	}
	w, err := Column(labeled, PoolWeightColumn)
	if err != nil {
		return nil, fmt.Errorf("frames: labeled rows: %w", err)
	}
	for i, v := range w {
		if !(v > 0) || math.IsInf(v, 0) {
			return nil, problem(PoolWeightColumn, "pool weight", "has %g in row %d of the labeled rows: pool weights are positive (select writes them; drop the column to tune unweighted)", v, i)
		}
	}
	return w, nil
}

// labeledTargets returns the labels of spec.Labeled's rows in
// spec.Target, nil when there is no such column or it is empty; a column
// filled only in part is an error naming the first empty row.
func labeledTargets(spec SelectSpec) ([]float64, error) {
	if spec.Labeled == nil || spec.Target == "" || FindColumn(*spec.Labeled, spec.Target, "target") != nil {
		return nil, nil
	}
	y, err := Column(*spec.Labeled, spec.Target)
	if err != nil {
		return nil, fmt.Errorf("frames: labeled rows: %w", err)
	}
	missing := 0
	for _, v := range y {
		if math.IsNaN(v) {
			missing++
		}
	}
	if missing == len(y) {
		return nil, nil
	}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, problem(spec.Target, "target", "has no finite label in row %d of the labeled rows: label every row, or none", i)
		}
	}
	return y, nil
}

// DefaultBatchMethod is the method SelectSpec's default uses for a next
// batch after labeled rows of weight 1 (docs/labeling.md).
const DefaultBatchMethod = credlab.MethodLCMD

// unitWeights reports whether every labeled row has weight 1.
func unitWeights(prev *credlab.Selection) bool {
	for _, w := range prev.Weight {
		if w != 1 {
			return false
		}
	}
	return true
}
