package credlab

import (
	"context"
	"fmt"
	"github.com/credlab/credlab/internal/parallel"
	"github.com/credlab/credlab/internal/vecmath"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// GramStats are the sufficient statistics of weighted least squares in a
// feature space: for rows with features Phi (n x D), targets y and weights
// W = diag(w),
//
//	H = Phi^T W Phi (D x D),  B = Phi^T W y,  YY = y^T W y,  Rows = n.
//
// Every ridge or gradient-descent fit of a linear model Phi beta depends on
// its rows only through them (RidgeGram, GradientGram), and they add over
// row blocks: NKRLS, NYTRO, LinearRLS and LinearGD stream their rows
// through them in blocks and never hold Phi, and statistics of separate
// shards combine with Merge (the Beam module does so across machines).
// The fields are exported so that they can be serialized.
type GramStats struct {
	Dim  int // D
	Rows int // n
	// H is Phi^T W Phi, row-major Dim x Dim; only its lower triangle
	// (column <= row) is kept.
	H  []float64
	B  []float64 // Phi^T W y
	YY float64   // y^T W y
}

// NewGramStats returns empty statistics for dim features, after a memory
// check of their dim x dim matrix.
func NewGramStats(dim int) (*GramStats, error) {
	if dim <= 0 {
		return nil, &ParamError{Name: "GramStats.Dim", Value: dim, Want: "a positive number of features"}
	}
	if err := checkAllocHint("Gram statistics (D x D)", dim, dim, fmt.Sprintf("use fewer than D = %d features or centers", dim)); err != nil {
		return nil, err
	}
	return &GramStats{Dim: dim, H: make([]float64, dim*dim), B: make([]float64, dim)}, nil
}

// check reports statistics whose slices do not match Dim or whose values
// are not finite (statistics read back from a file or a pipeline).
func (s *GramStats) check(name string) error {
	if s == nil {
		return &ParamError{Name: name, Value: nil, Want: "Gram statistics (NewGramStats)"}
	}
	if s.Dim <= 0 || len(s.H) != s.Dim*s.Dim || len(s.B) != s.Dim || s.Rows < 0 {
		return shapef("%s: Dim %d with %d values in H (want Dim^2) and %d in B (want Dim), %d rows", name, s.Dim, len(s.H), len(s.B), s.Rows)
	}
	for _, f := range []struct {
		field string
		v     []float64
	}{{"H", s.H}, {"B", s.B}, {"YY", []float64{s.YY}}} {
		for i, v := range f.v {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return &NotFiniteError{Name: name + "." + f.field, Row: i, Col: -1, Value: v}
			}
		}
	}
	return nil
}

// Add adds rows with features phi (n x Dim), targets y and weights w (nil
// means 1): H += phi^T W phi by a symmetric rank-n update, O(n D^2). phi is
// not modified.
func (s *GramStats) Add(phi *mat.Dense, y, w []float64) error {
	if err := s.check("GramStats"); err != nil {
		return err
	}
	if err := CheckData(phi, y); err != nil {
		return err
	}
	n, d := phi.Dims()
	if err := checkDims("phi", d, s.Dim); err != nil {
		return err
	}
	if err := checkWeights(w, n); err != nil {
		return err
	}
	if w != nil {
		phi = mat.DenseCopyOf(phi)
	}
	s.addOwned(phi, y, w)
	return nil
}

// addOwned is Add on a block it may scale in place.
func (s *GramStats) addOwned(phi *mat.Dense, y, w []float64) {
	yw := y
	if w != nil {
		sq := sqrtWeights(w)
		scaleRows(phi, sq)
		if y != nil {
			yw = scaled(y, sq)
		}
	}
	raw := phi.RawMatrix()
	blas64.Syrk(blas.Trans, 1, raw, 1, s.sym())
	if yw != nil {
		blas64.Gemv(blas.Trans, 1, raw, vec(yw), 1, vec(s.B))
		s.YY += vecmath.Dot(yw, yw)
	}
	s.Rows += raw.Rows
}

// AddRows adds the rows of x mapped by fm, with targets y and weights w
// (nil means 1), DefaultBlock rows at a time: O(n D^2) time plus fm's,
// O(DefaultBlock D) memory beyond the statistics. A nil y adds H only.
func (s *GramStats) AddRows(ctx context.Context, fm FeatureMap, x *mat.Dense, y, w []float64) error {
	if fm == nil {
		return &ParamError{Name: "fm", Value: nil, Want: "a feature map"}
	}
	if err := s.check("GramStats"); err != nil {
		return err
	}
	if err := CheckData(x, y); err != nil {
		return err
	}
	n, _ := x.Dims()
	if err := checkWeights(w, n); err != nil {
		return err
	}
	return s.addRows(ctx, x, nil, y, w, mapInto(fm, s.Dim))
}

// mapInto returns a fill function for addRows that maps blocks by fm into
// dst, checking that fm gives dim features.
func mapInto(fm FeatureMap, dim int) func(dst, x *mat.Dense) error {
	return func(dst, xb *mat.Dense) error {
		f, err := mapFeatures(fm, xb, dim)
		if err == nil {
			dst.Copy(f)
		}
		return err
	}
}

// addRows streams the rows of x (those listed in rows, in their order,
// when rows is not nil) through fill, which writes the features of a
// block of rows into dst, in blocks of gramBlock rows; y and w follow
// the rows streamed.
func (s *GramStats) addRows(ctx context.Context, x *mat.Dense, rows []int, y, w []float64, fill func(dst, x *mat.Dense) error) error {
	n, d := x.Dims()
	if rows != nil {
		n = len(rows)
	}
	if n == 0 {
		return nil
	}
	block := min(n, gramBlock(s.Dim))
	if err := checkAllocHint("feature block", block, s.Dim, fmt.Sprintf("use fewer than D = %d features or centers", s.Dim)); err != nil {
		return err
	}
	buf := mat.NewDense(block, s.Dim, nil)
	var xbuf *mat.Dense
	if rows != nil {
		xbuf = mat.NewDense(block, d, nil)
	}
	for lo := 0; lo < n; lo += block {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(lo+block, n)
		phi := buf.Slice(0, hi-lo, 0, s.Dim).(*mat.Dense)
		var xb *mat.Dense
		if rows == nil {
			xb = x.Slice(lo, hi, 0, d).(*mat.Dense)
		} else {
			xb = xbuf.Slice(0, hi-lo, 0, d).(*mat.Dense)
			for i, r := range rows[lo:hi] {
				copy(xb.RawRowView(i), x.RawRowView(r))
			}
		}
		if err := fill(phi, xb); err != nil {
			return err
		}
		var yb, wb []float64
		if y != nil {
			yb = y[lo:hi]
		}
		if w != nil {
			wb = w[lo:hi]
		}
		s.addOwned(phi, yb, wb)
	}
	return nil
}

// gramBlock is the number of rows mapped at once: DefaultBlock, fewer for
// wide maps so that a block stays near 32 MiB.
func gramBlock(dim int) int {
	return max(256, min(DefaultBlock, (32<<20)/(8*dim)))
}

// Merge adds the statistics o of other rows in place: O(D^2).
func (s *GramStats) Merge(o *GramStats) error {
	if err := s.check("GramStats"); err != nil {
		return err
	}
	if err := o.check("merged GramStats"); err != nil {
		return err
	}
	if o.Dim != s.Dim {
		return shapef("cannot merge Gram statistics of %d features into %d", o.Dim, s.Dim)
	}
	addStats(s, o)
	return nil
}

// addStats adds o to s without the checks of Merge (same Dim, finite).
func addStats(s, o *GramStats) {
	for i := 0; i < s.Dim; i++ {
		dst, src := s.H[i*s.Dim:i*s.Dim+i+1], o.H[i*s.Dim:i*s.Dim+i+1]
		for j, v := range src {
			dst[j] += v
		}
	}
	for i, v := range o.B {
		s.B[i] += v
	}
	s.YY += o.YY
	s.Rows += o.Rows
}

func (s *GramStats) sym() blas64.Symmetric {
	return blas64.Symmetric{N: s.Dim, Stride: s.Dim, Data: s.H, Uplo: blas.Lower}
}

// full returns H as a dense matrix with both triangles.
func (s *GramStats) full() *mat.Dense {
	g := mat.NewDense(s.Dim, s.Dim, append([]float64(nil), s.H...))
	parallel.MirrorLower(g.RawMatrix())
	return g
}

// sse returns ||Phi beta - y||_W^2 = beta.H beta - 2 beta.B + YY, given
// hb = H beta. The terms are of the size of YY and cancel: a difference
// below the rounding of their sum is returned as that floor, never as 0,
// so that a near-perfect fit cannot win a selection by rounding.
func (s *GramStats) sse(beta, hb []float64) float64 {
	bhb, bb := vecmath.Dot(beta, hb), vecmath.Dot(beta, s.B)
	const eps = 0x1p-52
	floor := 64 * eps * (math.Abs(bhb) + 2*math.Abs(bb) + math.Abs(s.YY))
	return max(bhb-2*bb+s.YY, floor)
}

// rmse returns sqrt(||Phi beta - y||_W^2 / n), with hb = H beta: the
// weighted RMSE of the rows the statistics hold.
func (s *GramStats) rmse(beta, hb []float64) float64 {
	if s.Rows == 0 {
		return math.NaN()
	}
	return math.Sqrt(s.sse(beta, hb) / float64(s.Rows))
}

// GramFitConfig configures RidgeGram and GradientGram.
type GramFitConfig struct {
	// Features is the feature map the statistics were computed with;
	// required. The model predicts with it; a *Nystrom gives the kernel
	// expansion on its centers (method NKRLS or NYTRO), any other map a
	// linear model on its features (LinearRLS or LinearGD).
	Features FeatureMap
	// Lambda, when positive, fixes lambda (RidgeGram); otherwise lambda is
	// chosen from Lambdas (default LogGrid(1e-15, 1, 100)) by the
	// validation statistics.
	Lambda  float64
	Lambdas []float64
	// Iter configures GradientGram. Its Holdout is not used: the
	// validation statistics are the hold-out.
	Iter     IterConfig
	Progress func(done, total int)
}

// gramFit checks the statistics and returns the fit to fill, the map from
// beta to the model's coefficients and the validation statistics (nil when
// they hold no rows).
func (c GramFitConfig) gramFit(train, val *GramStats, ridge bool) (*Fit, func([]float64) []float64, *GramStats, error) {
	if c.Features == nil {
		return nil, nil, nil, &ParamError{Name: "GramFitConfig.Features", Value: nil, Want: "the feature map of the statistics"}
	}
	if err := train.check("train"); err != nil {
		return nil, nil, nil, err
	}
	if train.Rows == 0 {
		return nil, nil, nil, emptyf("training Gram statistics of no rows")
	}
	if val != nil {
		if err := val.check("val"); err != nil {
			return nil, nil, nil, err
		}
		if val.Dim != train.Dim {
			return nil, nil, nil, shapef("validation statistics of %d features, training of %d", val.Dim, train.Dim)
		}
		if val.Rows == 0 {
			val = nil
		}
	}
	fit := &Fit{Rank: train.Dim}
	ny, isNy := c.Features.(*Nystrom)
	var coef func([]float64) []float64
	switch {
	case isNy:
		if ny.Rank() != train.Dim {
			return nil, nil, nil, shapef("a Nyström map of rank %d for statistics of %d features", ny.Rank(), train.Dim)
		}
		fit.Method, coef = "NYTRO", ny.Coef
		if ridge {
			fit.Method = "NKRLS"
		}
		fit.Model = &Model{Kernel: ny.Kernel, Centers: ny.Centers}
	default:
		fit.Method = "LinearGD"
		if ridge {
			fit.Method = "LinearRLS"
		}
		fit.Model = &Model{Features: c.Features}
	}
	return fit, coef, val, nil
}

// RidgeGram fits beta = (H + lambda n I)^-1 B from training statistics
// (n = train.Rows), with lambda fixed or chosen on the validation
// statistics val (nil without validation; a fixed Lambda ignores it):
// NKRLS and LinearRLS on rows seen only through their statistics, with the
// path of NKRLS. Time: for grids of triBreakEven values or more, one
// O(10/3 D^3) reduction and an O(4 D^3) rotation of val, then O(D^2) per
// lambda; for smaller grids O(D^3/3) per lambda.
func RidgeGram(ctx context.Context, train, val *GramStats, cfg GramFitConfig) (*Fit, error) {
	fit, coef, val, err := cfg.gramFit(train, val, true)
	if err != nil {
		return nil, err
	}
	h := Holdout{None: val == nil}
	_, grid, err := LambdaGrid(fit.Method, cfg.Lambda, cfg.Lambdas, h)
	if err != nil {
		return nil, err
	}
	if cfg.Lambda > 0 {
		val = nil
	}
	beta, err := ridgeGram(ctx, train, val, grid, fit, cfg.Progress)
	if err != nil {
		return nil, err
	}
	fit.Model.Coef = coefOf(coef, beta)
	return fit, nil
}

// GradientGram runs the gradient path of NYTRO and LinearGD on
// statistics, O(D^2) per step whatever the rows: beta_t = beta_{t-1} -
// (gamma/n) (H beta_{t-1} - B), with the step, nu-method and stopping rule
// of IterConfig on the validation statistics val (nil with Iter.Iter > 0).
func GradientGram(ctx context.Context, train, val *GramStats, cfg GramFitConfig) (*Fit, error) {
	fit, coef, val, err := cfg.gramFit(train, val, false)
	if err != nil {
		return nil, err
	}
	ic := cfg.Iter
	if err := ic.check(); err != nil {
		return nil, err
	}
	if ic.Progress == nil {
		ic.Progress = cfg.Progress
	}
	if ic.Iter > 0 {
		val = nil
	} else if val == nil {
		return nil, &ParamError{Name: "GramFitConfig.Iter.Iter", Value: ic.Iter, Want: "a positive number of steps: without validation statistics the stopping step cannot be chosen"}
	}
	return fit, gradientGram(ctx, train, val, ic, fit, coef)
}
