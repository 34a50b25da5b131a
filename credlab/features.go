package credlab

import (
	"fmt"
	"github.com/credlab/credlab/internal/parallel"
	"math"
	"math/rand/v2"

	"github.com/credlab/credlab/internal/vecmath"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// FeatureMap maps inputs to a finite-dimensional feature space, in which
// LinearRLS, LinearGD and CRED work with the linear kernel phi(x).phi(x').
// *Nystrom, *RandomFourier, RawFeatures and *ReLUNetwork implement it.
type FeatureMap interface {
	// Features returns the n x D features of the rows of x.
	Features(x *mat.Dense) (*mat.Dense, error)
}

// mapFeatures applies fm to x and checks that it returns one feature row
// per input row (and, when cols > 0, cols columns).
func mapFeatures(fm FeatureMap, x *mat.Dense, cols int) (*mat.Dense, error) {
	f, err := fm.Features(x)
	if err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	r, c := f.Dims()
	if r != n {
		return nil, shapef("the feature map returned %d rows for %d input rows", r, n)
	}
	if cols > 0 {
		return f, checkDims("the feature map's output", c, cols)
	}
	return f, nil
}

// RandomFourier holds random Fourier features (Rahimi and Recht 2008) of
// the Gaussian kernel: phi(x) = sqrt(2/D) cos(W^T x + b), with the columns
// of W drawn from N(0, I/sigma^2) and b uniform on [0, 2 pi), so that
// phi(x).phi(x') approximates exp(-||x-x'||^2/(2 sigma^2)).
type RandomFourier struct {
	W *mat.Dense // d x D
	B []float64  // D
}

// NewRandomFourier draws D features for inputs of dimension d.
func NewRandomFourier(d, D int, sigma float64, seed uint64) (*RandomFourier, error) {
	if d <= 0 {
		return nil, &ParamError{Name: "random features d", Value: d, Want: "a positive input dimension"}
	}
	if D <= 0 {
		return nil, &ParamError{Name: "random features D", Value: D, Want: "a positive number of random features"}
	}
	if err := checkPositive("random features sigma", sigma); err != nil {
		return nil, err
	}
	if err := checkAllocHint("random feature weights", d, D, fmt.Sprintf("use fewer than m = %d random features", D)); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x72666600))
	w := mat.NewDense(d, D, nil)
	raw := w.RawMatrix()
	for i := range raw.Data {
		raw.Data[i] = rng.NormFloat64() / sigma
	}
	b := make([]float64, D)
	for i := range b {
		b[i] = 2 * math.Pi * rng.Float64()
	}
	return &RandomFourier{W: w, B: b}, nil
}

// Features implements FeatureMap in O(n d D) time.
func (r *RandomFourier) Features(x *mat.Dense) (*mat.Dense, error) {
	if err := CheckData(x, nil); err != nil {
		return nil, err
	}
	if r.W == nil || len(r.B) != r.W.RawMatrix().Cols {
		return nil, fmt.Errorf("%w: a RandomFourier needs W (d x D) and B (D): make it with NewRandomFourier", ErrShape)
	}
	d, D := r.W.Dims()
	n, dx := x.Dims()
	if err := checkDims("x for random features", dx, d); err != nil {
		return nil, err
	}
	if err := checkAllocHint("random feature matrix", n, D, fmt.Sprintf("use fewer than m = %d random features, or raise the memory limit", D)); err != nil {
		return nil, err
	}
	out := mat.NewDense(n, D, nil)
	o := out.RawMatrix()
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, x.RawMatrix(), r.W.RawMatrix(), 0, o)
	s := math.Sqrt(2 / float64(D))
	parallel.Rows(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			// row[j] = s*cos(row[j]+B[j]), vectorized (internal/vecmath:
			// within 2.2 ulp, the same bits on every CPU and GOARCH).
			vecmath.ScaledCosAdd(o.Data[i*o.Stride:i*o.Stride+D], r.B[:D], s)
		}
	})
	return out, nil
}

// RawFeatures uses the input columns themselves, plus a constant 1 column
// when Bias is set: the CRED paper's linear task (raw pixels plus a bias).
type RawFeatures struct {
	Bias bool
}

// Features implements FeatureMap.
func (f RawFeatures) Features(x *mat.Dense) (*mat.Dense, error) {
	if err := CheckData(x, nil); err != nil {
		return nil, err
	}
	n, d := x.Dims()
	D := d
	if f.Bias {
		D++
	}
	if err := checkAlloc("raw feature matrix", n, D); err != nil {
		return nil, err
	}
	out := mat.NewDense(n, D, nil)
	out.Slice(0, n, 0, d).(*mat.Dense).Copy(x)
	if f.Bias {
		for i := 0; i < n; i++ {
			out.Set(i, d, 1)
		}
	}
	return out, nil
}

// ReLUNetwork is a randomly initialised fully connected ReLU network used as
// a feature map, phi(x) = relu(W_L^T ... relu(W_1^T x)), without an output
// layer and without biases: the CRED paper's nonlinear task uses three
// hidden layers of width 500 with N(0, 1) weights.
type ReLUNetwork struct {
	Layers []*mat.Dense // d x w1, w1 x w2, ...
}

// NewReLUNetwork draws the weights i.i.d. N(0, 1) for inputs of dimension
// d and the given hidden widths.
func NewReLUNetwork(d int, widths []int, seed uint64) (*ReLUNetwork, error) {
	if d <= 0 {
		return nil, &ParamError{Name: "ReLU network d", Value: d, Want: "a positive input dimension"}
	}
	if len(widths) == 0 {
		return nil, &ParamError{Name: "ReLU network widths", Value: widths, Want: "at least one hidden layer"}
	}
	rng := rand.New(rand.NewPCG(seed, 0x72656c75))
	net := &ReLUNetwork{}
	in := d
	for i, w := range widths {
		if w <= 0 {
			return nil, &ParamError{Name: fmt.Sprintf("ReLU network widths[%d]", i), Value: w, Want: "a positive layer width"}
		}
		if err := checkAllocHint("ReLU network weights", in, w, "use narrower layers"); err != nil {
			return nil, err
		}
		l := mat.NewDense(in, w, nil)
		raw := l.RawMatrix()
		for j := range raw.Data {
			raw.Data[j] = rng.NormFloat64()
		}
		net.Layers = append(net.Layers, l)
		in = w
	}
	return net, nil
}

// Features implements FeatureMap in O(n sum_l w_{l-1} w_l) time.
func (net *ReLUNetwork) Features(x *mat.Dense) (*mat.Dense, error) {
	if err := CheckData(x, nil); err != nil {
		return nil, err
	}
	n, dx := x.Dims()
	if len(net.Layers) == 0 {
		return nil, emptyf("the ReLU network has no layers")
	}
	if err := checkDims("x for the ReLU network", dx, net.Layers[0].RawMatrix().Rows); err != nil {
		return nil, err
	}
	for i := 1; i < len(net.Layers); i++ {
		if r, c := net.Layers[i].RawMatrix().Rows, net.Layers[i-1].RawMatrix().Cols; r != c {
			return nil, shapef("ReLU network layer %d has %d rows, but layer %d has %d columns", i, r, i-1, c)
		}
	}
	h := x
	for _, l := range net.Layers {
		_, w := l.Dims()
		if err := checkAllocHint("ReLU network activations", n, w, "use narrower layers, or raise the memory limit"); err != nil {
			return nil, err
		}
		next := mat.NewDense(n, w, nil)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, h.RawMatrix(), l.RawMatrix(), 0, next.RawMatrix())
		mapRows(next.RawMatrix(), func(v float64) float64 { return math.Max(v, 0) })
		h = next
	}
	return h, nil
}
