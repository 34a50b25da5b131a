package credlab

import (
	"context"
	"math"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// featureSplit is a hold-out split with the training features A (nt x D)
// and validation features B (nv x D), shared by the methods that are linear
// in a finite feature map: NKRLS and NYTRO (A = K_nm R), LinearRLS and
// LinearGD (any FeatureMap).
type featureSplit struct {
	xt          *mat.Dense
	yt, yv      []float64
	wt, wv      []float64 // nil without weights
	nt, nv      int
	a, b        *mat.Dense // b nil without validation
	featureTime time.Duration
}

// splitRows splits the rows and returns the validation inputs.
func splitRows(x *mat.Dense, y, w []float64, h Holdout) (*featureSplit, *mat.Dense, error) {
	tr, va, err := h.split(len(y))
	if err != nil {
		return nil, nil, err
	}
	fs := &featureSplit{xt: gatherRows(x, tr), yt: gather(y, tr), nt: len(tr), nv: len(va)}
	if w != nil {
		fs.wt, fs.wv = gather(w, tr), gather(w, va)
	}
	var xv *mat.Dense
	if len(va) > 0 {
		xv, fs.yv = gatherRows(x, va), gather(y, va)
	}
	return fs, xv, nil
}

// featurize fills A and B with fill, after a memory check.
func (fs *featureSplit) featurize(xv *mat.Dense, dim int, what string, fill func(dst, x *mat.Dense) error) error {
	if err := checkAlloc(what, fs.nt+fs.nv, dim); err != nil {
		return err
	}
	fs.a = mat.NewDense(fs.nt, dim, nil)
	if err := fill(fs.a, fs.xt); err != nil {
		return err
	}
	if xv != nil {
		fs.b = mat.NewDense(fs.nv, dim, nil)
		return fill(fs.b, xv)
	}
	return nil
}

// ridge solves (A^T W A + lambda n I) beta = A^T W y over the grid and
// returns the beta of least validation error. It scales A in place.
func (fs *featureSplit) ridge(ctx context.Context, grid []float64, fit *Fit, progress func(int, int)) ([]float64, error) {
	t0 := time.Now()
	// Weighted problem: A <- W^1/2 A, y <- W^1/2 y.
	sq := sqrtWeights(fs.wt)
	scaleRows(fs.a, sq)
	yt := scaled(fs.yt, sq)
	_, r := fs.a.Dims()
	g := mat.NewDense(r, r, nil)
	gr := g.RawMatrix()
	blas64.Syrk(blas.Trans, 1, fs.a.RawMatrix(), 0, blas64.Symmetric{N: r, Stride: gr.Stride, Data: gr.Data, Uplo: blas.Lower})
	mirrorLower(gr)
	aty := make([]float64, r)
	blas64.Gemv(blas.Trans, 1, fs.a.RawMatrix(), vec(yt), 0, vec(aty))
	fit.Timing.Solve += time.Since(t0)
	yy := dot(yt, yt)
	prob := ridgeProblem{g: g, b: aty, w: fs.b, yv: fs.yv, wv: fs.wv, n: fs.nt,
		// ||A z - y||^2 = ||y||^2 - z.b - mu ||z||^2 at the solution.
		sse: func(zz, zb, mu float64) float64 { return yy - zb - mu*zz }}
	return prob.path(ctx, grid, fit, progress)
}

// gd runs beta_t = beta_{t-1} - (gamma/n) A^T W (A beta_{t-1} - y) with
// the step of IterConfig.defaultStep and the path and stopping rule of
// runGD; coef maps beta to the
// model's coefficients. When the steps outnumber D/8 it runs in Gram form
// (gramStep), otherwise on A and B directly (featureStep).
func (fs *featureSplit) gd(ctx context.Context, cfg IterConfig, fit *Fit, coef func([]float64) []float64) error {
	a := fs.a.RawMatrix()
	_, r := fs.a.Dims()
	tmp := make([]float64, fs.nt)
	lmax := operatorNorm(r, func(dst, src []float64) { // A^T W A
		blas64.Gemv(blas.NoTrans, 1, a, vec(src), 0, vec(tmp))
		for i, w := range fs.wt {
			tmp[i] *= w
		}
		blas64.Gemv(blas.Trans, 1, a, vec(tmp), 0, vec(dst))
	})
	gamma, err := cfg.defaultStep(fit.Method, lmax, fs.nt)
	if err != nil {
		return err
	}
	fit.StepSize = gamma
	c := gamma / float64(fs.nt)
	if !useGram(cfg.steps(), r) {
		st := &featureStep{predictions: newPredictions(fs.yt, fs.yv, fs.wt, fs.wv),
			beta: make([]float64, r), g: make([]float64, r), a: fs.a, b: fs.b, c: c, coefOf: coef}
		return runGD(ctx, st, cfg, fit)
	}
	t0 := time.Now()
	st := &gramStep{beta: make([]float64, r), g: make([]float64, r), c: c, coefOf: coef}
	st.train = newGramForm(fs.a, fs.yt, fs.wt)
	if fs.b != nil {
		st.val = newGramForm(fs.b, fs.yv, fs.wv)
	}
	setup := time.Since(t0)
	err = runGD(ctx, st, cfg, fit)
	fit.Timing.Solve += setup
	return err
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

// gramForm is the weighted least-squares objective ||A beta - y||_W^2 of
// n rows kept as H = A^T W A, b = A^T W y and yy = y^T W y, with
// h = H beta tracked along the iterates.
type gramForm struct {
	h     blas64.Symmetric
	b, hb []float64
	yy    float64
	n     int
}

// newGramForm costs one symmetric rank-n update, O(n D^2), and O(D^2)
// memory. With weights it scales A in place to W^1/2 A.
func newGramForm(a *mat.Dense, y, w []float64) *gramForm {
	n, d := a.Dims()
	sq := sqrtWeights(w)
	scaleRows(a, sq)
	yw := scaled(y, sq)
	g := &gramForm{h: blas64.Symmetric{N: d, Stride: d, Data: make([]float64, d*d), Uplo: blas.Lower},
		b: make([]float64, d), hb: make([]float64, d), yy: dot(yw, yw), n: n}
	blas64.Syrk(blas.Trans, 1, a.RawMatrix(), 0, g.h)
	blas64.Gemv(blas.Trans, 1, a.RawMatrix(), vec(yw), 0, vec(g.b))
	return g
}

// add updates h for beta += delta.
func (g *gramForm) add(delta []float64) {
	blas64.Symv(1, g.h, vec(delta), 1, vec(g.hb))
}

// rmse returns sqrt(||A beta - y||_W^2 / n) = sqrt((beta.h - 2 beta.b + yy)/n).
func (g *gramForm) rmse(beta []float64) float64 {
	sse := dot(beta, g.hb) - 2*dot(beta, g.b) + g.yy
	return math.Sqrt(max(sse, 0) / float64(g.n))
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
		s.g[i] = c * (h - s.train.b[i])
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
		val = s.val.rmse(s.beta)
	}
	return s.train.rmse(s.beta), val
}

func (s *gramStep) coef() []float64 { return coefOf(s.coefOf, s.beta) }

func checkDims(what string, got, want int) error {
	if got != want {
		return shapef("%s has %d columns, want %d", what, got, want)
	}
	return nil
}
