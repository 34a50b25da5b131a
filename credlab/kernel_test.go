package credlab

import (
	"errors"
	"math"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// ---------------------------------------------------------------------------
// Kernel tests.
// ---------------------------------------------------------------------------

// cauchyKernel is a custom kernel implementing only the Kernel interface:
// k(a, b) = 1 / (1 + ||a-b||^2), positive definite. It counts Eval calls.
type cauchyKernel struct{ calls *atomic.Int64 }

func (k cauchyKernel) Eval(a, b []float64) float64 {
	if k.calls != nil {
		k.calls.Add(1)
	}
	s := 0.0
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return 1 / (1 + s)
}
func (cauchyKernel) Validate() error { return nil }
func (cauchyKernel) String() string  { return "cauchy" }

func refCauchy(a, b []float64) float64 { return 1 / (1 + refSqDist(a, b)) }

type kernelCase struct {
	name string
	k    Kernel
	ref  refKernel
}

func kernelCases() []kernelCase {
	return []kernelCase{
		{"gaussian", GaussianKernel{Sigma: 0.7}, refGaussian(0.7)},
		{"laplacian", LaplacianKernel{Sigma: 1.3}, refLaplacian(1.3)},
		{"matern32", MaternKernel{Nu: 1.5, Sigma: 0.9}, refMatern(1, 0.9)},
		{"matern52", MaternKernel{Nu: 2.5, Sigma: 1.1}, refMatern(2, 1.1)},
		{"matern52-zero-nu", MaternKernel{Sigma: 1.1}, refMatern(2, 1.1)},
		{"manhattan", ManhattanKernel{Sigma: 1.7}, refManhattan(1.7, nil)},
		{"linear", LinearKernel{}, refLinear()},
		{"polynomial", PolynomialKernel{Degree: 3, Gamma: 0.5, Coef0: 1}, refPoly(3, 0.5, 1)},
		{"polynomial-zero-value", PolynomialKernel{}, refPoly(2, 1, 1)},
		{"polynomial-degree-only", PolynomialKernel{Degree: 3}, refPoly(3, 1, 0)},
		{"custom", cauchyKernel{}, refCauchy},
	}
}

func TestKernelEvalFormulas(t *testing.T) {
	rng := newRNG(1)
	x := randData(rng, 20, 3, 1.5)
	for _, c := range kernelCases() {
		for i := 0; i < 20; i++ {
			for j := 0; j < 20; j++ {
				a, b := row(x, i), row(x, j)
				got, want := c.k.Eval(a, b), c.ref(a, b)
				if !relClose(got, want, 1e-13) && math.Abs(got-want) > 1e-15 {
					t.Fatalf("%s: Eval(x%d, x%d) = %v, formula gives %v", c.name, i, j, got, want)
				}
			}
		}
		if c.k.String() == "" {
			t.Errorf("%s: empty String()", c.name)
		}
	}
}

func TestKernelMatrixAgainstPairwise(t *testing.T) {
	rng := newRNG(2)
	x := randData(rng, 37, 4, 1)
	y := randData(rng, 23, 4, 1)
	for _, c := range kernelCases() {
		t.Run(c.name, func(t *testing.T) {
			scale := 1.0
			want := refMatrix(c.ref, x, x)
			scale = math.Max(scale, mat.Norm(want, math.Inf(1)))
			got, err := KernelMatrix(c.k, x, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r, cc := got.Dims(); r != 37 || cc != 37 {
				t.Fatalf("dims %d x %d, want 37 x 37", r, cc)
			}
			for i := 0; i < 37; i++ {
				// Diagonal: k(x_i, x_i), to rounding of the formula.
				if d, w := got.At(i, i), c.ref(row(x, i), row(x, i)); !relClose(d, w, 1e-13) {
					t.Errorf("diag %d = %v, want %v", i, d, w)
				}
				for j := 0; j < 37; j++ {
					if got.At(i, j) != got.At(j, i) {
						t.Fatalf("not exactly symmetric at (%d,%d): %v vs %v", i, j, got.At(i, j), got.At(j, i))
					}
					if math.Abs(got.At(i, j)-want.At(i, j)) > 1e-12*scale {
						t.Fatalf("K[%d,%d] = %v, pairwise %v", i, j, got.At(i, j), want.At(i, j))
					}
				}
			}
			// Cross K(X, Y).
			cross, err := KernelMatrix(c.k, x, y)
			if err != nil {
				t.Fatal(err)
			}
			wantc := refMatrix(c.ref, x, y)
			if r, cc := cross.Dims(); r != 37 || cc != 23 {
				t.Fatalf("cross dims %d x %d, want 37 x 23", r, cc)
			}
			if d := relDiffMat(cross, wantc); d > 1e-12 {
				t.Errorf("cross K(X,Y) differs from pairwise: rel %g", d)
			}
		})
	}
}

// A strided view (a Slice of a wider matrix) must be read correctly.
func TestKernelMatrixStridedInput(t *testing.T) {
	rng := newRNG(3)
	big := randData(rng, 30, 7, 1)
	x := big.Slice(2, 25, 1, 4).(*mat.Dense) // 23 x 3, stride 7
	y := big.Slice(0, 9, 4, 7).(*mat.Dense)  // 9 x 3
	xc, yc := mat.DenseCopyOf(x), mat.DenseCopyOf(y)
	for _, c := range kernelCases() {
		got, err := KernelMatrix(c.k, x, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiffMat(got, refMatrix(c.ref, xc, xc)); d > 1e-12 {
			t.Errorf("%s: symmetric on a view: rel %g", c.name, d)
		}
		got, err = KernelMatrix(c.k, x, y)
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiffMat(got, refMatrix(c.ref, xc, yc)); d > 1e-12 {
			t.Errorf("%s: cross on views: rel %g", c.name, d)
		}
	}
}

// A custom kernel goes through the generic path: Eval is called once per
// lower-triangle entry (symmetric) or per entry (cross).
func TestKernelMatrixCustomKernelGenericPath(t *testing.T) {
	rng := newRNG(4)
	x := randData(rng, 70, 2, 1) // >= 64 rows: exercises the parallel split
	y := randData(rng, 11, 2, 1)
	var calls atomic.Int64
	k := cauchyKernel{calls: &calls}
	got, err := KernelMatrix(k, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c, want := calls.Load(), int64(70*71/2); c != want {
		t.Errorf("symmetric: %d Eval calls, want %d (lower triangle and diagonal)", c, want)
	}
	if d := relDiffMat(got, refMatrix(refCauchy, x, x)); d > 1e-15 {
		t.Errorf("symmetric custom kernel: rel %g", d)
	}
	calls.Store(0)
	got, err = KernelMatrix(k, x, y)
	if err != nil {
		t.Fatal(err)
	}
	if c := calls.Load(); c != 70*11 {
		t.Errorf("cross: %d Eval calls, want %d", c, 70*11)
	}
	if d := relDiffMat(got, refMatrix(refCauchy, x, y)); d > 1e-15 {
		t.Errorf("cross custom kernel: rel %g", d)
	}
}

func TestKernelMatrixIndependentOfGOMAXPROCS(t *testing.T) {
	rng := newRNG(5)
	x := randData(rng, 150, 5, 1)
	y := randData(rng, 90, 5, 1)
	for _, c := range kernelCases() {
		var s1, s4, c1, c4 *mat.Dense
		run := func(sym, cross **mat.Dense) func() {
			return func() {
				var err error
				if *sym, err = KernelMatrix(c.k, x, nil); err != nil {
					t.Fatal(err)
				}
				if *cross, err = KernelMatrix(c.k, x, y); err != nil {
					t.Fatal(err)
				}
			}
		}
		withProcs(1, run(&s1, &c1))
		withProcs(4, run(&s4, &c4))
		if !sameBits(denseBits(s1), denseBits(s4)) {
			t.Errorf("%s: symmetric matrix differs between GOMAXPROCS 1 and 4", c.name)
		}
		if !sameBits(denseBits(c1), denseBits(c4)) {
			t.Errorf("%s: cross matrix differs between GOMAXPROCS 1 and 4", c.name)
		}
	}
}

func TestKernelMatrixPositiveSemiDefinite(t *testing.T) {
	rng := newRNG(6)
	x := randData(rng, 60, 3, 1)
	// Add exact duplicates: PSD must survive a singular K.
	for i := 0; i < 5; i++ {
		x.SetRow(50+i, row(x, i))
	}
	for _, c := range kernelCases() {
		k, err := KernelMatrix(c.k, x, nil)
		if err != nil {
			t.Fatal(err)
		}
		var es mat.EigenSym
		if !es.Factorize(mat.NewSymDense(60, denseBits(k)), false) {
			t.Fatal("EigenSym failed")
		}
		vals := es.Values(nil)
		lo, hi := vals[0], vals[len(vals)-1]
		if lo < -1e-10*hi {
			t.Errorf("%s: min eigenvalue %g < -1e-10 * max (%g)", c.name, lo, hi)
		}
	}
}

// The Laplacian kernel takes a square root of the squared distance computed
// as ||a||^2 + ||b||^2 - 2 a.b; cancellation makes k(x, x') for identical or
// nearby rows wrong by ~sqrt(eps) ||x|| / sigma. Identical rows must give
// k = 1 like the diagonal does.
func TestKernelMatrixLaplacianDuplicateRows(t *testing.T) {
	rng := newRNG(7)
	const n, d = 40, 10
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n/2; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
		x.SetRow(i+n/2, row(x, i))
	}
	k := LaplacianKernel{Sigma: 1}
	sym, err := KernelMatrix(k, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	cross, err := KernelMatrix(k, x, x)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := 0; i < n/2; i++ {
		worst = math.Max(worst, math.Abs(sym.At(i, i+n/2)-1))
		worst = math.Max(worst, math.Abs(cross.At(i, i+n/2)-1))
		worst = math.Max(worst, math.Abs(cross.At(i, i)-1))
	}
	// Nearby rows: x + 1e-7 perturbation, against the direct formula.
	xn := mat.DenseCopyOf(x)
	for i := n / 2; i < n; i++ {
		for j := 0; j < d; j++ {
			xn.Set(i, j, xn.At(i, j)+1e-7*rng.NormFloat64())
		}
	}
	near, err := KernelMatrix(k, xn, nil)
	if err != nil {
		t.Fatal(err)
	}
	if dd := relDiffMat(near, refMatrix(refLaplacian(1), xn, xn)); dd > 1e-12 {
		t.Errorf("Laplacian kernel of nearby rows off by %.3g relative to the direct formula", dd)
	}
	if worst > 1e-12 {
		t.Errorf("Laplacian k(x, x) for identical rows is off by %.3g (want 1 to 1e-12): the ||a||^2+||b||^2-2a.b distance loses sqrt(eps) accuracy under the square root", worst)
	}
}

func TestKernelValidate(t *testing.T) {
	cases := []struct {
		name string
		k    Kernel
		want string // the Name of the *ParamError; "" means valid
	}{
		{"gaussian ok", GaussianKernel{Sigma: 1}, ""},
		{"gaussian zero sigma", GaussianKernel{}, "Gaussian kernel sigma"},
		{"gaussian negative sigma", GaussianKernel{Sigma: -1}, "Gaussian kernel sigma"},
		{"gaussian NaN sigma", GaussianKernel{Sigma: math.NaN()}, "Gaussian kernel sigma"},
		{"gaussian Inf sigma", GaussianKernel{Sigma: math.Inf(1)}, "Gaussian kernel sigma"},
		{"laplacian zero sigma", LaplacianKernel{}, "Laplacian kernel sigma"},
		{"laplacian negative sigma", LaplacianKernel{Sigma: -2}, "Laplacian kernel sigma"},
		{"matern zero sigma", MaternKernel{Nu: 1.5}, "Matérn kernel sigma"},
		{"matern nu 2", MaternKernel{Nu: 2, Sigma: 1}, "Matérn kernel nu"},
		{"matern negative scale", MaternKernel{Sigma: 1, Scales: []float64{1, -1}}, "Matérn kernel scales[1]"},
		{"manhattan zero sigma", ManhattanKernel{}, "Manhattan kernel sigma"},
		{"manhattan negative scale", ManhattanKernel{Sigma: 1, Scales: []float64{1, -1}}, "Manhattan kernel scales[1]"},
		{"linear", LinearKernel{}, ""},
		{"polynomial zero value", PolynomialKernel{}, ""},
		{"polynomial negative degree", PolynomialKernel{Degree: -1}, "polynomial kernel degree"},
		{"polynomial negative gamma", PolynomialKernel{Degree: 2, Gamma: -1}, "polynomial kernel gamma"},
		{"polynomial negative coef0", PolynomialKernel{Degree: 2, Gamma: 1, Coef0: -1}, "polynomial kernel coef0"},
		{"polynomial NaN coef0", PolynomialKernel{Degree: 2, Gamma: 1, Coef0: math.NaN()}, "polynomial kernel coef0"},
	}
	x := randData(newRNG(8), 5, 2, 1)
	for _, c := range cases {
		err := c.k.Validate()
		_, kmErr := KernelMatrix(c.k, x, nil)
		if c.want == "" {
			if err != nil || kmErr != nil {
				t.Errorf("%s: unexpected error %v / %v", c.name, err, kmErr)
			}
			continue
		}
		wantErrKind(t, c.name, err, paramErr(c.want))
		wantErrKind(t, c.name+" (KernelMatrix)", kmErr, paramErr(c.want))
	}
	_, err := KernelMatrix(nil, x, nil)
	wantErrKind(t, "nil kernel", err, paramErr("Kernel"))
}

// TestManhattanKernelScales checks the Manhattan kernel with column scales
// (a zero scale leaves its column out) against its formula, symmetric and
// cross blocks alike, and its L1 distances exact for identical rows.
func TestManhattanKernelScales(t *testing.T) {
	rng := newRNG(9)
	for _, n := range []int{31, 130} { // below and above the blocked path's 64 rows
		x, y := randData(rng, n, 4, 2), randData(rng, 17, 4, 2)
		x.SetRow(30, row(x, 0))
		manhattanScales(t, x, y)
	}
	_, err := KernelMatrix(ManhattanKernel{Sigma: 1, Scales: []float64{1, 2}}, randData(rng, 5, 4, 1), nil)
	if !errors.Is(err, ErrShape) {
		t.Errorf("two scales on four columns: %v, want ErrShape", err)
	}
}

func manhattanScales(t *testing.T, x, y *mat.Dense) {
	for _, s := range [][]float64{nil, {0.5, 2, 0, 1.25}} {
		k := ManhattanKernel{Sigma: 0.8, Scales: s}
		ref := refManhattan(0.8, s)
		sym, err := KernelMatrix(k, x, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiffMat(sym, refMatrix(ref, x, x)); d > 1e-13 {
			t.Errorf("scales %v: K(X, X) differs from the formula: rel %g", s, d)
		}
		if sym.At(30, 0) != 1 || sym.At(0, 30) != 1 || sym.At(5, 5) != 1 {
			t.Errorf("scales %v: identical rows give %v, %v, diagonal %v, want 1", s, sym.At(30, 0), sym.At(0, 30), sym.At(5, 5))
		}
		cross, err := KernelMatrix(k, x, y)
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiffMat(cross, refMatrix(ref, x, y)); d > 1e-13 {
			t.Errorf("scales %v: K(X, Y) differs from the formula: rel %g", s, d)
		}
		if got := Lengthscales(k); s != nil && (got[0] != 0.8/0.5 || !math.IsInf(got[2], 1)) {
			t.Errorf("lengthscales %v", got)
		}
	}
}
