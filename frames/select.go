package frames

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// SelectSpec says how Select chooses rows to label.
type SelectSpec struct {
	// Method is "cred" (default: the CRED paper's importance sampling by
	// leverage scores, with replacement) or "uniform".
	Method string
	// Features names the columns the selector sees. Default: every numeric
	// column (and, with OneHot, string column) except the bookkeeping
	// columns and those in Exclude.
	Features []string
	Exclude  []string
	// Kernel and Sigma score rows for CRED (default Gaussian with the
	// median-distance bandwidth), exactly from the N x N kernel matrix,
	// unless FeatureMap names a feature space: "fourier" (M random Fourier
	// features, M default 100), "raw" (the columns plus a constant),
	// "relu" (random ReLU network with Widths) or "nystrom" (M Nyström
	// features). Use a feature map for pools beyond a few thousand rows.
	Kernel     string
	Sigma      float64
	FeatureMap string
	M          int
	Widths     []int
	// LambdaQ is CRED's lambda_q (default 1e-6).
	LambdaQ float64
	// WithoutReplacement draws distinct rows (uniform only); the budget
	// must then not exceed the pool.
	WithoutReplacement bool
	// Seed seeds the draw and the random features.
	Seed uint64
	// OneHot and DropNA act as in Spec; Standardize is Spec.Scale "standardize". Rows dropped for a
	// missing value are never chosen.
	OneHot, Standardize, DropNA bool
	// Selector, if set, is used instead of Method (for example a
	// credlab.CREDSelector configured by hand).
	Selector credlab.Selector
}

// Select chooses budget rows of pool to label and returns them, in draw
// order, with three added columns: "row", the row's index in pool; "prob",
// its sampling probability; and "weight", its importance weight 1/(N q)
// for a weighted Fit (Spec.Weight = "weight"). With replacement (CRED, and
// uniform by default) a row can appear more than once. pool is not
// modified.
func Select(pool dataframe.DataFrame, budget int, spec SelectSpec) (dataframe.DataFrame, error) {
	return SelectContext(context.Background(), pool, budget, spec)
}

// SelectContext is Select with cancellation.
func SelectContext(ctx context.Context, pool dataframe.DataFrame, budget int, spec SelectSpec) (dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	if err := checkFrame(pool, "pool"); err != nil {
		return none, err
	}
	for _, c := range []string{RowColumn, ProbColumn, WeightColumn} {
		for _, n := range pool.Names() {
			if n == c {
				return none, fmt.Errorf("frames: the pool already has a column %q, which Select adds; rename or drop it", c)
			}
		}
	}
	if budget <= 0 {
		return none, fmt.Errorf("frames: budget = %d rows: must be positive", budget)
	}
	sel, rows, err := selectRows(ctx, pool, budget, spec)
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
	out = out.CBind(dataframe.New(
		series.New(idx, series.Int, RowColumn),
		series.New(sel.Prob, series.Float, ProbColumn),
		series.New(sel.Weight, series.Float, WeightColumn)))
	if out.Err != nil {
		return none, fmt.Errorf("frames: adding the selection columns: %w", out.Err)
	}
	return out, nil
}

// selectRows runs the selector on the pool's design matrix and returns the
// selection and the pool rows behind the matrix rows.
func selectRows(ctx context.Context, pool dataframe.DataFrame, budget int, spec SelectSpec) (*credlab.Selection, []int, error) {
	fs := Spec{Features: spec.Features, Exclude: spec.Exclude, OneHot: spec.OneHot,
		Scale: scaleName(spec.Standardize), DropNA: spec.DropNA}
	p, err := prepare(pool, &fs, "pool")
	if err != nil {
		return nil, nil, err
	}
	sel := spec.Selector
	if sel == nil {
		if sel, err = selectorOf(spec, p); err != nil {
			return nil, nil, err
		}
	}
	s, err := sel.Select(ctx, p.x, budget, spec.Seed)
	if err != nil {
		return nil, nil, err
	}
	return s, p.rows, nil
}

// selectorOf builds the credlab selector of spec.
func selectorOf(spec SelectSpec, p *prepared) (credlab.Selector, error) {
	switch strings.ToLower(spec.Method) {
	case "uniform":
		return credlab.UniformSelector{WithoutReplacement: spec.WithoutReplacement}, nil
	case "", "cred":
	default:
		return nil, &credlab.ParamError{Name: "SelectSpec.Method", Value: strconv.Quote(spec.Method), Want: "cred or uniform"}
	}
	if spec.WithoutReplacement {
		return nil, &credlab.ParamError{Name: "SelectSpec.WithoutReplacement", Value: true, Want: "false with CRED, which draws with replacement (it applies to uniform selection only)"}
	}
	// Reuse the fitting runner for the kernel and feature map defaults.
	s := Spec{Kernel: spec.Kernel, Sigma: spec.Sigma, FeatureMap: spec.FeatureMap, M: spec.M, Widths: spec.Widths, Seed: spec.Seed}
	mi := &methodInfo{name: "cred", feature: spec.FeatureMap != ""}
	r := &runner{mi: mi, s: s, x: p.x}
	if err := r.resolve(); err != nil {
		return nil, err
	}
	c := credlab.CREDSelector{Kernel: r.k, LambdaQ: spec.LambdaQ}
	if r.fm != nil {
		c.Features = r.fm
	}
	return c, nil
}
