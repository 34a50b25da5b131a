package baselines

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/internal/errtest"

	"gonum.org/v1/gonum/mat"
)

// blData returns n x d standard normal rows with column j scaled by
// scale[j], and targets x.beta + noise.
func blData(seed uint64, n int, scale, beta []float64, noise float64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	d := len(scale)
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, scale[j]*rng.NormFloat64())
			y[i] += beta[j] * x.At(i, j)
		}
		y[i] += noise * rng.NormFloat64()
	}
	return x, y
}

// blRidge solves (A^T A + mu I) b = A^T y with a dense LU, independently of
// the package's Cholesky path.
func blRidge(t *testing.T, a *mat.Dense, y []float64, mu float64) []float64 {
	t.Helper()
	_, p := a.Dims()
	var g mat.Dense
	g.Mul(a.T(), a)
	for i := 0; i < p; i++ {
		g.Set(i, i, g.At(i, i)+mu)
	}
	var rhs, sol mat.VecDense
	rhs.MulVec(a.T(), mat.NewVecDense(len(y), append([]float64(nil), y...)))
	if err := sol.SolveVec(&g, &rhs); err != nil {
		t.Fatal(err)
	}
	return sol.RawVector().Data
}

func blClose(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	scale := 0.0
	for _, v := range want {
		scale = math.Max(scale, math.Abs(v))
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol*math.Max(scale, 1) {
			t.Fatalf("%s[%d] = %.12g, want %.12g", what, i, got[i], want[i])
		}
	}
}

func blRows(x *mat.Dense, lo, hi int) *mat.Dense {
	_, d := x.Dims()
	return mat.DenseCopyOf(x.Slice(lo, hi, 0, d))
}

func TestKTR3HandComputation(t *testing.T) {
	ctx := context.Background()
	x, y := blData(1, 7, []float64{1, 2, 0.5}, []float64{1, -2, 3}, 0.3)
	xt, _ := blData(2, 5, []float64{3, 3, 3}, []float64{0, 0, 0}, 0)
	const lambda, k = 0.05, 4
	n := 7.0
	ymax := 0.0
	for _, v := range y {
		ymax = math.Max(ymax, math.Abs(v))
	}
	clip := func(v []float64, b float64) []float64 {
		out := make([]float64, len(v))
		for i, u := range v {
			out[i] = math.Max(-b, math.Min(b, u))
		}
		return out
	}

	// Feature form: beta = (X_k^T X_k + lambda n I)^-1 X_k^T y_k.
	f, err := KTR3(ctx, x, y, KTR3Config{Lambda: lambda, Prefix: k})
	if err != nil {
		t.Fatal(err)
	}
	beta := blRidge(t, blRows(x, 0, k), y[:k], lambda*n)
	blClose(t, "feature coef", f.Model.Coef, beta, 1e-10)
	if f.Prefix != k || f.Rank != k || f.Bound != ymax || f.Lambda != lambda {
		t.Fatalf("prefix %d rank %d bound %v lambda %v", f.Prefix, f.Rank, f.Bound, f.Lambda)
	}
	var raw mat.VecDense
	raw.MulVec(xt, mat.NewVecDense(3, beta))
	got, err := f.Predict(xt)
	if err != nil {
		t.Fatal(err)
	}
	want := clip(raw.RawVector().Data, ymax)
	blClose(t, "feature predictions", got, want, 1e-10)
	clipped := 0
	for i, v := range raw.RawVector().Data {
		if math.Abs(v) > ymax {
			clipped++
		}
		if math.Abs(got[i]) > ymax+1e-12 {
			t.Fatalf("prediction %v exceeds the bound %v", got[i], ymax)
		}
	}
	if clipped == 0 {
		t.Fatalf("test inputs too small to exercise the truncation")
	}

	// Kernel form: alpha = (K_k + lambda n I)^-1 y_k, f(x) = K(x, X_k) alpha.
	kern := credlab.GaussianKernel{Sigma: 1.5}
	fk, err := KTR3(ctx, x, y, KTR3Config{Kernel: kern, Lambda: lambda, Prefix: k, Bound: 2})
	if err != nil {
		t.Fatal(err)
	}
	xk := blRows(x, 0, k)
	km := mat.NewDense(k, k, nil)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			km.Set(i, j, kern.Eval(xk.RawRowView(i), xk.RawRowView(j)))
		}
		km.Set(i, i, km.At(i, i)+lambda*n)
	}
	var alpha mat.VecDense
	if err := alpha.SolveVec(km, mat.NewVecDense(k, append([]float64(nil), y[:k]...))); err != nil {
		t.Fatal(err)
	}
	blClose(t, "kernel coef", fk.Model.Coef, alpha.RawVector().Data, 1e-10)
	pk := make([]float64, 5)
	for i := range pk {
		for j := 0; j < k; j++ {
			pk[i] += kern.Eval(xt.RawRowView(i), xk.RawRowView(j)) * alpha.AtVec(j)
		}
	}
	got, err = fk.Predict(xt)
	if err != nil {
		t.Fatal(err)
	}
	blClose(t, "kernel predictions", got, clip(pk, 2), 1e-10)
}

func TestKTR3FullPrefixMatchesRidge(t *testing.T) {
	ctx := context.Background()
	x, y := blData(3, 40, []float64{1, 1, 1, 1}, []float64{1, 2, 3, 4}, 0.1)
	// With k = n and a loose bound KTR3 is ridge regression.
	f, err := KTR3(ctx, x, y, KTR3Config{Lambda: 1e-3, Prefix: 40, Bound: 1e9, Features: credlab.RawFeatures{Bias: true}})
	if err != nil {
		t.Fatal(err)
	}
	lr, err := credlab.LinearRLS(ctx, x, y, credlab.LinearRLSConfig{Lambda: 1e-3, Features: credlab.RawFeatures{Bias: true}})
	if err != nil {
		t.Fatal(err)
	}
	blClose(t, "coef vs credlab.LinearRLS", f.Model.Coef, lr.Model.Coef, 1e-9)
	kern := credlab.GaussianKernel{Sigma: 2}
	fk, err := KTR3(ctx, x, y, KTR3Config{Kernel: kern, Lambda: 1e-3, Prefix: 40, Bound: 1e9})
	if err != nil {
		t.Fatal(err)
	}
	kr, err := credlab.KRLS(ctx, x, y, credlab.KRLSConfig{Kernel: kern, Lambda: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	blClose(t, "coef vs credlab.KRLS", fk.Model.Coef, kr.Model.Coef, 1e-8)
}

func TestKTR3RandomPrefix(t *testing.T) {
	ctx := context.Background()
	const n = 5
	x, y := blData(4, n, []float64{1, 1}, []float64{1, 1}, 0.1)
	seen := make([]int, n+1)
	for seed := uint64(0); seed < 200; seed++ {
		f, err := KTR3(ctx, x, y, KTR3Config{Lambda: 0.1, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		seen[f.Prefix]++
		again, _ := KTR3(ctx, x, y, KTR3Config{Lambda: 0.1, Seed: seed})
		if again.Prefix != f.Prefix {
			t.Fatalf("seed %d gave k = %d, then %d", seed, f.Prefix, again.Prefix)
		}
		if f.Prefix == 0 {
			p, err := f.Predict(x)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range p {
				if v != 0 {
					t.Fatalf("k = 0 predicts %v, want 0", v)
				}
			}
		}
	}
	for k := 0; k < n; k++ {
		if seen[k] < 20 {
			t.Fatalf("k = %d drawn %d times in 200: not uniform on {0..%d}: %v", k, seen[k], n-1, seen)
		}
	}
	if seen[n] != 0 {
		t.Fatalf("k = n drawn; the online-to-batch range is {0..n-1}")
	}
	// The kernel form with k = 0 predicts 0 as well.
	for seed := uint64(0); ; seed++ {
		f, err := KTR3(ctx, x, y, KTR3Config{Kernel: credlab.LinearKernel{}, Lambda: 0.1, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if f.Prefix == 0 {
			p, _ := f.Predict(x)
			for _, v := range p {
				if v != 0 {
					t.Fatalf("kernel k = 0 predicts %v", v)
				}
			}
			break
		}
	}
}

func TestKTR3HoldoutGrid(t *testing.T) {
	ctx := context.Background()
	x, y := blData(5, 60, []float64{1, 1, 1}, []float64{2, -1, 0.5}, 0.5)
	grid := credlab.LogGrid(1e-6, 10, 8)
	h := credlab.Holdout{Seed: 9}
	f, err := KTR3(ctx, x, y, KTR3Config{Lambdas: grid, Holdout: h, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Path) != len(grid) {
		t.Fatalf("path of %d points, want %d", len(f.Path), len(grid))
	}
	best := f.Path[0]
	for _, p := range f.Path {
		if p.ValRMSE < best.ValRMSE {
			best = p
		}
	}
	if f.Lambda != best.Lambda || f.ValRMSE != best.ValRMSE {
		t.Fatalf("chose lambda %g (val %g), path minimum %g (val %g)", f.Lambda, f.ValRMSE, best.Lambda, best.ValRMSE)
	}
	// Recompute the chosen validation credlab.RMSE from the returned model.
	tr, va, _ := h.Split(60)
	if f.Prefix >= len(tr) {
		t.Fatalf("prefix %d of %d training rows", f.Prefix, len(tr))
	}
	xv, err := credlab.GatherRows(x, va)
	if err != nil {
		t.Fatal(err)
	}
	p, err := f.Predict(xv)
	if err != nil {
		t.Fatal(err)
	}
	if got := credlab.RMSE(p, gather(y, va)); math.Abs(got-f.ValRMSE) > 1e-12 {
		t.Fatalf("validation credlab.RMSE %v, recomputed %v", f.ValRMSE, got)
	}
}

func TestKTR3Errors(t *testing.T) {
	ctx := context.Background()
	x, y := blData(6, 8, []float64{1, 1}, []float64{1, 1}, 0.1)
	cases := []struct {
		cfg  KTR3Config
		want error
	}{
		{KTR3Config{Kernel: credlab.LinearKernel{}, Features: credlab.RawFeatures{}, Lambda: 1}, &credlab.ParamError{Name: "KTR3Config.Features"}},
		{KTR3Config{Lambda: 1, Bound: -1}, &credlab.ParamError{Name: "KTR3Config.Bound", Value: -1.0}},
		{KTR3Config{Lambda: 1, Bound: math.NaN()}, &credlab.ParamError{Name: "KTR3Config.Bound", Value: math.NaN()}},
		{KTR3Config{Lambda: 1, Prefix: -1}, &credlab.ParamError{Name: "KTR3Config.Prefix", Value: -1}},
		{KTR3Config{Lambda: 1, Prefix: 9}, &credlab.ParamError{Name: "KTR3Config.Prefix", Value: 9}},
		{KTR3Config{Lambda: -1}, &credlab.ParamError{Name: "lambda", Value: -1.0}},
		{KTR3Config{Kernel: credlab.GaussianKernel{}, Lambda: 1}, &credlab.ParamError{Name: "Gaussian kernel sigma", Value: 0.0}},
		{KTR3Config{Holdout: credlab.Holdout{None: true}}, &credlab.ParamError{Name: "lambda", Value: 0.0}},
	}
	for i, c := range cases {
		_, err := KTR3(ctx, x, y, c.cfg)
		errtest.Want(t, fmt.Sprintf("case %d", i), err, c.want)
	}
	_, err := KTR3(ctx, x, y[:3], KTR3Config{Lambda: 1})
	errtest.Want(t, "short y", err, credlab.ErrShape)
	bad := mat.DenseCopyOf(x)
	bad.Set(2, 1, math.Inf(1))
	_, err = KTR3(ctx, bad, y, KTR3Config{Lambda: 1})
	errtest.Want(t, "Inf x", err, &credlab.NotFiniteError{Name: "x", Row: 2, Col: 1, Value: math.Inf(1)})
	var empty *KTR3Fit
	_, err = empty.Predict(x)
	errtest.Want(t, "empty fit", err, credlab.ErrEmpty)
}

func TestSSSRFullBasisIsLeastSquares(t *testing.T) {
	ctx := context.Background()
	pool, _ := blData(7, 300, []float64{1, 0.3, 2, 0.05}, []float64{0, 0, 0, 0}, 0)
	x, y := blData(8, 25, []float64{1, 0.3, 2, 0.05}, []float64{1, -1, 2, 5}, 0.2)
	for _, fm := range []credlab.FeatureMap{credlab.RawFeatures{}, credlab.RawFeatures{Bias: true}} {
		f, err := SSSR(ctx, x, y, SSSRConfig{Pool: pool, Features: fm})
		if err != nil {
			t.Fatal(err)
		}
		phi, _ := fm.Features(x)
		_, D := phi.Dims()
		if f.Rank != D {
			t.Fatalf("default s = %d, want the full dimension %d", f.Rank, D)
		}
		// s = D spans every linear function: SSSR is ordinary least squares.
		ols := blRidge(t, phi, y, 0)
		blClose(t, "SSSR(s=D) vs OLS", f.Model.Coef, ols, 1e-9)
		// A ridge penalty on gamma = (Z^T Z + lambda n I)^-1 Z^T y.
		fr, err := SSSR(ctx, x, y, SSSRConfig{Pool: pool, Features: fm, Lambda: 0.01})
		if err != nil {
			t.Fatal(err)
		}
		basis, err := NewSSSRBasis(ctx, SSSRConfig{Pool: pool, Features: fm})
		if err != nil {
			t.Fatal(err)
		}
		z, err := basis.Transform(x, D)
		if err != nil {
			t.Fatal(err)
		}
		gamma := blRidge(t, z, y, 0.01*25)
		pz := make([]float64, 25)
		for i := range pz {
			for j, g := range gamma {
				pz[i] += z.At(i, j) * g
			}
		}
		pr, _ := fr.Model.Predict(x)
		blClose(t, "ridge SSSR predictions", pr, pz, 1e-9)
	}
}

func TestSSSRTopEigenfunctions(t *testing.T) {
	ctx := context.Background()
	// A pool of +-a e_1, +-b e_2, +-c e_3: the covariance is diag(a^2, b^2,
	// c^2)/3, so the eigenfunctions are x_j / (a, b, c) / sqrt(3) ... in
	// decreasing order of a > b > c.
	a, b, c := 3.0, 2.0, 1.0
	pool := mat.NewDense(6, 3, []float64{a, 0, 0, -a, 0, 0, 0, b, 0, 0, -b, 0, 0, 0, c, 0, 0, -c})
	basis, err := NewSSSRBasis(ctx, SSSRConfig{Pool: pool})
	if err != nil {
		t.Fatal(err)
	}
	blClose(t, "eigenvalues", basis.Values, []float64{a * a / 3, b * b / 3, c * c / 3}, 1e-12)
	x, y := blData(9, 10, []float64{1, 1, 1}, []float64{1, 2, 3}, 0.1)
	// s = 1 regresses on x_1 alone: beta_1 = sum x1 y / sum x1^2.
	f, err := SSSR(ctx, x, y, SSSRConfig{Basis: basis, S: 1})
	if err != nil {
		t.Fatal(err)
	}
	num, den := 0.0, 0.0
	for i, v := range y {
		num += x.At(i, 0) * v
		den += x.At(i, 0) * x.At(i, 0)
	}
	blClose(t, "s=1 coef", f.Model.Coef, []float64{num / den, 0, 0}, 1e-10)
	// The eigenfunctions are orthonormal in L2 of the pool.
	z, err := basis.Transform(pool, 3)
	if err != nil {
		t.Fatal(err)
	}
	var ztz mat.Dense
	ztz.Mul(z.T(), z)
	ztz.Scale(1.0/6, &ztz)
	if !mat.EqualApprox(&ztz, mat.NewDiagDense(3, []float64{1, 1, 1}), 1e-12) {
		t.Fatalf("(1/N) Z^T Z = %v, want I", mat.Formatted(&ztz))
	}
}

func TestSSSRKernelForm(t *testing.T) {
	ctx := context.Background()
	pool, _ := blData(10, 80, []float64{1, 2}, []float64{0, 0}, 0)
	// Linear kernel: the top two kernel eigenfunctions span the linear
	// functions, so SSSR(s = 2) is least squares without intercept, and the
	// Nyström extension agrees with the feature form.
	x, y := blData(11, 15, []float64{1, 2}, []float64{1, 1}, 0.3)
	fk, err := SSSR(ctx, x, y, SSSRConfig{Pool: pool, Kernel: credlab.LinearKernel{}, S: 2})
	if err != nil {
		t.Fatal(err)
	}
	ols := blRidge(t, x, y, 0)
	xt, _ := blData(12, 6, []float64{1, 1}, []float64{0, 0}, 0)
	got, err := fk.Model.Predict(xt)
	if err != nil {
		t.Fatal(err)
	}
	var want mat.VecDense
	want.MulVec(xt, mat.NewVecDense(2, ols))
	blClose(t, "linear-kernel SSSR vs OLS", got, want.RawVector().Data, 1e-8)

	// Gaussian kernel: eigenfunctions orthonormal on the pool, and equal to
	// sqrt(N) u_i at the pool rows.
	kern := credlab.GaussianKernel{Sigma: 1}
	basis, err := NewSSSRBasis(ctx, SSSRConfig{Pool: pool, Kernel: kern})
	if err != nil {
		t.Fatal(err)
	}
	s := 10
	z, err := basis.Transform(pool, s)
	if err != nil {
		t.Fatal(err)
	}
	var ztz mat.Dense
	ztz.Mul(z.T(), z)
	ztz.Scale(1.0/80, &ztz)
	id := mat.NewDiagDense(s, nil)
	for i := 0; i < s; i++ {
		id.SetDiag(i, 1)
	}
	if !mat.EqualApprox(&ztz, id, 1e-8) {
		t.Fatalf("kernel eigenfunctions not orthonormal on the pool")
	}
	for i := 0; i < s; i++ {
		if d := math.Abs(z.At(3, i) - math.Sqrt(80)*basis.Vectors.At(3, i)); d > 1e-8 {
			t.Fatalf("psi_%d(x_3) differs from sqrt(N) u by %g", i, d)
		}
	}
	// More labeled rows than eigenfunctions: least squares on Z.
	xl := blRows(pool, 0, 30)
	yl := make([]float64, 30)
	for i := range yl {
		yl[i] = math.Sin(xl.At(i, 0)) + xl.At(i, 1)
	}
	f, err := SSSR(ctx, xl, yl, SSSRConfig{Basis: basis, S: s})
	if err != nil {
		t.Fatal(err)
	}
	zl, _ := basis.Transform(xl, s)
	gamma := blRidge(t, zl, yl, 0)
	pz := make([]float64, 30)
	for i := range pz {
		for j, g := range gamma {
			pz[i] += zl.At(i, j) * g
		}
	}
	pf, _ := f.Model.Predict(xl)
	blClose(t, "kernel SSSR predictions", pf, pz, 1e-7)
}

func TestSSSRUnderdetermined(t *testing.T) {
	ctx := context.Background()
	pool, _ := blData(13, 50, []float64{1, 1, 1, 1}, []float64{0, 0, 0, 0}, 0)
	x, y := blData(14, 2, []float64{1, 1, 1, 1}, []float64{1, 2, 3, 4}, 0)
	// s = 4 > n = 2: the minimum-norm solution interpolates.
	f, err := SSSR(ctx, x, y, SSSRConfig{Pool: pool, S: 4})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := f.Model.Predict(x)
	blClose(t, "interpolation", p, y, 1e-9)
	if f.Path[0].TrainRMSE > 1e-9 {
		t.Fatalf("train credlab.RMSE %g", f.Path[0].TrainRMSE)
	}
}

func TestSSSRErrors(t *testing.T) {
	ctx := context.Background()
	pool, _ := blData(15, 20, []float64{1, 1}, []float64{0, 0}, 0)
	x, y := blData(16, 5, []float64{1, 1}, []float64{1, 1}, 0)
	cases := []struct {
		cfg  SSSRConfig
		want error
	}{
		{SSSRConfig{}, credlab.ErrEmpty},
		{SSSRConfig{Pool: pool, S: 3}, &credlab.ParamError{Name: "SSSRConfig.S", Value: 3}},
		{SSSRConfig{Pool: pool, S: -1}, &credlab.ParamError{Name: "SSSRConfig.S", Value: -1}},
		{SSSRConfig{Pool: pool, Lambda: -1}, &credlab.ParamError{Name: "SSSRConfig.Lambda", Value: -1.0}},
		{SSSRConfig{Pool: pool, Floor: 2}, &credlab.ParamError{Name: "SSSRConfig.Floor", Value: 2.0}},
		{SSSRConfig{Pool: pool, Kernel: credlab.LinearKernel{}, Features: credlab.RawFeatures{}}, &credlab.ParamError{Name: "SSSRConfig.Features"}},
		{SSSRConfig{Pool: pool, Kernel: credlab.GaussianKernel{}}, &credlab.ParamError{Name: "Gaussian kernel sigma", Value: 0.0}},
		{SSSRConfig{Pool: pool, Block: -1}, &credlab.ParamError{Name: "Block", Value: -1}},
		{SSSRConfig{Pool: mat.NewDense(3, 2, nil)}, &credlab.DegenerateError{What: "zero"}},
		{SSSRConfig{Basis: &SSSRBasis{}}, credlab.ErrEmpty},
	}
	for i, c := range cases {
		_, err := SSSR(ctx, x, y, c.cfg)
		errtest.Want(t, fmt.Sprintf("case %d", i), err, c.want)
	}
	_, err := SSSR(ctx, mat.NewDense(5, 3, nil), y, SSSRConfig{Pool: pool})
	errtest.Want(t, "x of another width", err, credlab.ErrShape)
	bad := mat.DenseCopyOf(pool)
	bad.Set(4, 0, math.NaN())
	_, err = SSSR(ctx, x, y, SSSRConfig{Pool: bad})
	errtest.Want(t, "NaN in the pool", err, &credlab.NotFiniteError{Name: "SSSRConfig.Pool", Row: 4, Col: 0, Value: math.NaN()})
	basis, err := NewSSSRBasis(ctx, SSSRConfig{Pool: pool, Kernel: credlab.LinearKernel{}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = basis.Transform(mat.NewDense(2, 3, nil), 1)
	errtest.Want(t, "Transform of another width", err, credlab.ErrShape)
}
