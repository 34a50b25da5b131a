package credlab

import (
	"context"
	"math"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// featureSplit is a hold-out split of the rows of a method that is linear
// in a finite feature map of dim features: NKRLS and NYTRO (A = K_nm R),
// LinearRLS and LinearGD (any FeatureMap). fill writes the features of a
// block of rows; the methods stream the rows through it into GramStats
// (stats) and hold the n x dim features only for direct gradient steps
// (features).
type featureSplit struct {
	xt, xv      *mat.Dense // xv nil without validation
	yt, yv      []float64
	wt, wv      []float64 // nil without weights
	nt, nv      int
	dim         int
	fill        func(dst, x *mat.Dense) error
	featureTime time.Duration
}

// splitRows splits the rows.
func splitRows(x *mat.Dense, y, w []float64, h Holdout) (*featureSplit, error) {
	tr, va, err := h.Split(len(y))
	if err != nil {
		return nil, err
	}
	fs := &featureSplit{xt: viewRows(x, tr), yt: gather(y, tr), nt: len(tr), nv: len(va)} // xt is only read
	if w != nil {
		fs.wt, fs.wv = gather(w, tr), gather(w, va)
	}
	if len(va) > 0 {
		fs.xv, fs.yv = gatherRows(x, va), gather(y, va)
	}
	return fs, nil
}

// stats streams the training and validation rows through the feature map
// into their Gram statistics (val nil without validation): O(n D^2) time
// plus the map's, O(D^2 + block D) memory.
func (fs *featureSplit) stats(ctx context.Context) (train, val *GramStats, err error) {
	t0 := time.Now()
	defer func() { fs.featureTime += time.Since(t0) }()
	if train, err = NewGramStats(fs.dim); err != nil {
		return nil, nil, err
	}
	if err := train.addRows(ctx, fs.xt, nil, fs.yt, fs.wt, fs.fill); err != nil {
		return nil, nil, err
	}
	if fs.xv == nil {
		return train, nil, nil
	}
	if val, err = NewGramStats(fs.dim); err != nil {
		return nil, nil, err
	}
	return train, val, val.addRows(ctx, fs.xv, nil, fs.yv, fs.wv, fs.fill)
}

// features returns the training and validation features A and B (nil
// without validation), after a memory check.
func (fs *featureSplit) features() (a, b *mat.Dense, err error) {
	t0 := time.Now()
	defer func() { fs.featureTime += time.Since(t0) }()
	if err := checkAlloc("feature matrix", fs.nt+fs.nv, fs.dim); err != nil {
		return nil, nil, err
	}
	a = mat.NewDense(fs.nt, fs.dim, nil)
	if err := fs.fill(a, fs.xt); err != nil {
		return nil, nil, err
	}
	if fs.xv != nil {
		b = mat.NewDense(fs.nv, fs.dim, nil)
		err = fs.fill(b, fs.xv)
	}
	return a, b, err
}

// ridge streams the rows into Gram statistics and solves the path there
// (ridgeGram).
func (fs *featureSplit) ridge(ctx context.Context, grid []float64, fit *Fit, progress func(int, int)) ([]float64, error) {
	train, val, err := fs.stats(ctx)
	fit.Timing.Kernel = fs.featureTime
	if err != nil {
		return nil, err
	}
	return ridgeGram(ctx, train, val, grid, fit, progress)
}

// ridgeGram solves (H + lambda n I) beta = B over the grid and returns the
// beta of least validation error (computed from val, O(D^2) per lambda).
func ridgeGram(ctx context.Context, train, val *GramStats, grid []float64, fit *Fit, progress func(int, int)) ([]float64, error) {
	yy := train.YY
	prob := ridgeProblem{g: train.full(), own: true, b: train.B, vs: val, n: train.Rows,
		// ||A z - y||^2 = ||y||^2 - z.b - mu ||z||^2 at the solution.
		sse: func(zz, zb, mu float64) float64 { return yy - zb - mu*zz }}
	return prob.path(ctx, grid, fit, progress)
}

// gd runs beta_t = beta_{t-1} - (gamma/n) A^T W (A beta_{t-1} - y) with
// the step of IterConfig.defaultStep and the path and stopping rule of
// runGD; coef maps beta to the model's coefficients. When the steps
// outnumber D/8, or the features do not fit the memory limit, it runs in
// Gram form (gradientGram), otherwise on A and B directly (featureStep).
func (fs *featureSplit) gd(ctx context.Context, cfg IterConfig, fit *Fit, coef func([]float64) []float64) error {
	if useGram(cfg.steps(), fs.dim) || checkAlloc("feature matrix", fs.nt+fs.nv, fs.dim) != nil {
		train, val, err := fs.stats(ctx)
		fit.Timing.Kernel = fs.featureTime
		if err != nil {
			return err
		}
		return gradientGram(ctx, train, val, cfg, fit, coef)
	}
	a, b, err := fs.features()
	fit.Timing.Kernel = fs.featureTime
	if err != nil {
		return err
	}
	tmp := make([]float64, fs.nt)
	lmax := operatorNorm(fs.dim, func(dst, src []float64) { // A^T W A
		blas64.Gemv(blas.NoTrans, 1, a.RawMatrix(), vec(src), 0, vec(tmp))
		for i, w := range fs.wt {
			tmp[i] *= w
		}
		blas64.Gemv(blas.Trans, 1, a.RawMatrix(), vec(tmp), 0, vec(dst))
	})
	gamma, err := cfg.defaultStep(fit.Method, lmax, fs.nt)
	if err != nil {
		return err
	}
	fit.StepSize = gamma
	st := &featureStep{predictions: newPredictions(fs.yt, fs.yv, fs.wt, fs.wv),
		beta: make([]float64, fs.dim), g: make([]float64, fs.dim), a: a, b: b, c: gamma / float64(fs.nt), coefOf: coef}
	return runGD(ctx, st, cfg, fit)
}

// gradientGram runs gd in Gram form: O(D^2) per step for the iterate and
// both errors, whatever n; the step's operator norm is estimated on H.
func gradientGram(ctx context.Context, train, val *GramStats, cfg IterConfig, fit *Fit, coef func([]float64) []float64) error {
	lmax := operatorNorm(train.Dim, func(dst, src []float64) {
		blas64.Symv(1, train.sym(), vec(src), 0, vec(dst))
	})
	gamma, err := cfg.defaultStep(fit.Method, lmax, train.Rows)
	if err != nil {
		return err
	}
	fit.StepSize = gamma
	st := &gramStep{beta: make([]float64, train.Dim), g: make([]float64, train.Dim),
		c: gamma / float64(train.Rows), coefOf: coef, train: newGramForm(train)}
	if val != nil {
		st.val = newGramForm(val)
	}
	return runGD(ctx, st, cfg, fit)
}

// useGram reports whether steps gradient steps on D features are cheaper
// in Gram form: its O(n D^2) setup runs at matrix-multiply speed, about
// 8 times the memory-bound O(n D) matrix-vector products of a direct step.
var useGram = func(steps, dim int) bool { return 8*steps >= dim }

// featureStep steps on the features directly: O(n D) per step.
type featureStep struct {
	predictions
	beta, g []float64
	a, b    *mat.Dense
	c       float64 // gamma / n
	coefOf  func([]float64) []float64
}

func (s *featureStep) state() [][]float64 { return [][]float64{s.beta, s.pv} }

func (s *featureStep) step(scale float64) {
	nt, _ := s.a.Dims()
	blas64.Gemv(blas.Trans, -scale*s.c, s.a.RawMatrix(), vec(s.residual()), 0, vec(s.g))
	for i, v := range s.g {
		s.beta[i] += v
	}
	blas64.Gemv(blas.NoTrans, 1, s.a.RawMatrix(), vec(s.g), 1, vec(s.pv[:nt]))
	if s.b != nil {
		blas64.Gemv(blas.NoTrans, 1, s.b.RawMatrix(), vec(s.g), 1, vec(s.pv[nt:]))
	}
}

func (s *featureStep) coef() []float64 { return coefOf(s.coefOf, s.beta) }

func coefOf(f func([]float64) []float64, beta []float64) []float64 {
	if f == nil {
		return append([]float64(nil), beta...)
	}
	return f(beta)
}

// gramForm tracks hb = H beta along the iterates of a gradient path, for
// the objective ||A beta - y||_W^2 held by the statistics s.
type gramForm struct {
	s  *GramStats
	hb []float64
}

func newGramForm(s *GramStats) *gramForm { return &gramForm{s: s, hb: make([]float64, s.Dim)} }

// add updates hb for beta += delta, O(D^2).
func (g *gramForm) add(delta []float64) {
	blas64.Symv(1, g.s.sym(), vec(delta), 1, vec(g.hb))
}

// gramStep is featureStep in Gram form: after the O(n D^2) setup each step
// and its training and validation errors cost O(D^2), whatever n.
type gramStep struct {
	beta, g    []float64
	train, val *gramForm // val nil without validation
	c          float64   // gamma / n
	coefOf     func([]float64) []float64
}

func (s *gramStep) state() [][]float64 {
	if s.val == nil {
		return [][]float64{s.beta, s.train.hb}
	}
	return [][]float64{s.beta, s.train.hb, s.val.hb}
}

func (s *gramStep) step(scale float64) {
	c := -scale * s.c
	for i, h := range s.train.hb {
		s.g[i] = c * (h - s.train.s.B[i])
	}
	for i, v := range s.g {
		s.beta[i] += v
	}
	s.train.add(s.g)
	if s.val != nil {
		s.val.add(s.g)
	}
}

func (s *gramStep) rmse() (train, val float64) {
	val = math.NaN()
	if s.val != nil {
		val = s.val.s.rmse(s.beta, s.val.hb)
	}
	return s.train.s.rmse(s.beta, s.train.hb), val
}

func (s *gramStep) coef() []float64 { return coefOf(s.coefOf, s.beta) }

func checkDims(what string, got, want int) error {
	if got != want {
		return shapef("%s has %d columns, want %d", what, got, want)
	}
	return nil
}
