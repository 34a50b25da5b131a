package credlab

import (
	"context"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Model is a kernel expansion f(x) = sum_i Coef_i k(x, Centers_i), or,
// when Features is set, a linear model f(x) = Features(x).Coef. Exact
// methods use the training points as centers; Nyström methods use the m
// sampled centers; LinearRLS and LinearGD use a feature map. Intercept is
// added to every prediction (Tune's centered target); zero leaves f as is.
type Model struct {
	Kernel    Kernel
	Centers   *mat.Dense // c x d
	Features  FeatureMap // nil for kernel expansions
	Coef      []float64  // c (or D) coefficients
	Intercept float64
	// Bounds, when it holds lo < hi, clips every prediction into
	// [lo, hi]. Tune sets it to the training targets' range widened by
	// BoundsMargin of it on each side: a kernel expansion with a wide
	// bandwidth and a small lambda can predict far outside the targets on a
	// row outside the training rows (measured: 5.9e6 for a house value of
	// at most 5e5, one row that raised a test RMSE from 6.5e4 to 1.0e5).
	Bounds []float64
	// Transform, when not nil, maps the rows' columns to normal scores
	// before the kernel or feature map sees them: the centers are mapped
	// rows (Tune sets it when TuneConfig.Transform maps skewed columns).
	Transform *NormalScores
}

// BoundsMargin is the share of the training targets' range that Tune's
// Model.Bounds add on each side.
const BoundsMargin = 0.1

// predictBlockBytes bounds the kernel block held by Predict.
const predictBlockBytes = 32 << 20

// Predict returns f(x_i) for each row of x. It maps the rows by Transform
// and evaluates K(X, Centers) in blocks of rows, so memory stays
// O((c + d) * block) whatever the number of rows; time is O(n c d).
func (m *Model) Predict(x *mat.Dense) ([]float64, error) {
	return m.PredictContext(context.Background(), x)
}

// PredictContext is Predict with cancellation between blocks.
func (m *Model) PredictContext(ctx context.Context, x *mat.Dense) ([]float64, error) {
	if m == nil || len(m.Coef) == 0 || (m.Centers == nil && m.Features == nil) {
		return nil, emptyf("predict with an empty model (no coefficients, centers or feature map)")
	}
	if err := CheckData(x, nil); err != nil {
		return nil, err
	}
	return m.predict(ctx, x)
}

// predict is PredictContext on rows already checked (CheckData): with a
// Transform, on mapped copies of row blocks of at most predictBlockBytes.
func (m *Model) predict(ctx context.Context, x *mat.Dense) ([]float64, error) {
	if m.Transform == nil {
		return m.predictMapped(ctx, x)
	}
	n, d := x.Dims()
	block := max(1, min(n, predictBlockBytes/8/max(d, 1)))
	out := make([]float64, 0, n)
	for lo := 0; lo < n; lo += block {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		xb, err := m.Transform.Apply(x.Slice(lo, min(lo+block, n), 0, d).(*mat.Dense))
		if err != nil {
			return nil, err
		}
		p, err := m.predictMapped(ctx, xb)
		if err != nil {
			return nil, err
		}
		out = append(out, p...)
	}
	return out, nil
}

// predictMapped is predict on rows the Transform, if any, has mapped.
func (m *Model) predictMapped(ctx context.Context, x *mat.Dense) ([]float64, error) {
	if m.Features != nil {
		return m.predictLinear(ctx, x)
	}
	if err := checkKernel(m.Kernel); err != nil {
		return nil, err
	}
	c, d := m.Centers.Dims()
	if c != len(m.Coef) {
		return nil, shapef("corrupt model: %d centers but %d coefficients", c, len(m.Coef))
	}
	n, dx := x.Dims()
	if dx != d {
		return nil, shapef("the model's centers have %d columns, x has %d", d, dx)
	}
	if err := checkKernelCols(m.Kernel, d); err != nil {
		return nil, err
	}
	out := make([]float64, n)
	predictInto(ctx, out, m.Kernel, x, m.Centers, m.Coef)
	m.addIntercept(out)
	return out, ctx.Err()
}

// predictInto sets out = K(X, C) coef, in row blocks.
func predictInto(ctx context.Context, out []float64, k Kernel, x, centers *mat.Dense, coef []float64) {
	n, _ := x.Dims()
	c, _ := centers.Dims()
	block := max(1, min(n, predictBlockBytes/8/max(c, 1)))
	csq := rowSqNorms(centers)
	buf := make([]float64, block*c)
	for lo := 0; lo < n; lo += block {
		if ctx.Err() != nil {
			return
		}
		hi := min(lo+block, n)
		kb := mat.NewDense(hi-lo, c, buf[:(hi-lo)*c])
		kernelBlock(kb, k, x.Slice(lo, hi, 0, x.RawMatrix().Cols).(*mat.Dense), centers, nil, csq)
		blas64.Gemv(blas.NoTrans, 1, kb.RawMatrix(), blas64.Vector{N: c, Inc: 1, Data: coef}, 0,
			blas64.Vector{N: hi - lo, Inc: 1, Data: out[lo:hi]})
	}
}

// predictLinear evaluates Features(x).Coef in row blocks.
func (m *Model) predictLinear(ctx context.Context, x *mat.Dense) ([]float64, error) {
	n, d := x.Dims()
	D := len(m.Coef)
	block := max(1, min(n, predictBlockBytes/8/D))
	out := make([]float64, n)
	for lo := 0; lo < n; lo += block {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+block, n)
		f, err := mapFeatures(m.Features, x.Slice(lo, hi, 0, d).(*mat.Dense), D)
		if err != nil {
			return nil, err
		}
		blas64.Gemv(blas.NoTrans, 1, f.RawMatrix(), vec(m.Coef), 0, vec(out[lo:hi]))
	}
	m.addIntercept(out)
	return out, nil
}

// addIntercept adds the intercept to the predictions out and clips them
// into Bounds.
func (m *Model) addIntercept(out []float64) {
	if m.Intercept != 0 {
		for i := range out {
			out[i] += m.Intercept
		}
	}
	if len(m.Bounds) == 2 && m.Bounds[0] < m.Bounds[1] {
		for i, v := range out {
			out[i] = min(max(v, m.Bounds[0]), m.Bounds[1])
		}
	}
}
