package credlab

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// ---------------------------------------------------------------------------
// Leverage scores.
// ---------------------------------------------------------------------------

// With the linear kernel the exact scores are x_j^T (X^T X/N + lambda I)^-1 x_j,
// the feature scores with the raw columns, whatever the block size.
func TestLeverageScoresLinearIdentity(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n, d   int
		scale  float64
		lambda float64
	}{
		{40, 3, 1, 0.05},
		{25, 5, 2, 1e-3},
		{60, 2, 0.5, 1},
		{13, 13, 1, 1e-2}, // N = d: K is full rank
	} {
		t.Run(fmt.Sprintf("N=%d/d=%d/lambda=%g", tc.n, tc.d, tc.lambda), func(t *testing.T) {
			x := randData(crRNG(uint64(tc.n*100+tc.d)), tc.n, tc.d, tc.scale)
			x0 := mat.DenseCopyOf(x)
			// M = X^T X / N + lambda I, inverted independently.
			var m mat.Dense
			m.Mul(x.T(), x)
			m.Scale(1/float64(tc.n), &m)
			for i := 0; i < tc.d; i++ {
				m.Set(i, i, m.At(i, i)+tc.lambda)
			}
			var minv mat.Dense
			if err := minv.Inverse(&m); err != nil {
				t.Fatal(err)
			}
			want := make([]float64, tc.n)
			for j := range want {
				xj := mat.Row(nil, j, x)
				want[j] = refDot(xj, matVec(&minv, xj))
				// And through Solve, as a second reference.
				if alt := refDot(xj, denseSolve(t, &m, xj)); !(math.Abs(alt-want[j]) <= 1e-12*math.Abs(want[j])) {
					t.Fatalf("references disagree at %d: %v vs %v", j, alt, want[j])
				}
			}
			got, err := LeverageScores(ctx, LinearKernel{}, x, tc.lambda)
			if err != nil {
				t.Fatal(err)
			}
			if d := crMaxRel(got, want); d > 1e-9 {
				t.Errorf("exact scores: max rel diff %.3g from x^T (X^T X/N + lambda I)^-1 x", d)
			}
			for _, block := range []int{1, 7, tc.n, tc.n + 5, 0} {
				fs, err := FeatureLeverageScores(ctx, RawFeatures{}, x, tc.lambda, block)
				if err != nil {
					t.Fatal(err)
				}
				if d := crMaxRel(fs, want); d > 1e-10 {
					t.Errorf("feature scores, block %d: max rel diff %.3g", block, d)
				}
			}
			// Sum of scores = N * d_eff, d_eff = sum e/(e + lambda) over the
			// eigenvalues e of X^T X / N.
			var c mat.Dense
			c.Mul(x.T(), x)
			c.Scale(1/float64(tc.n), &c)
			deff := crEffDim(t, &c, tc.lambda)
			if s := crSum(got); math.Abs(s-float64(tc.n)*deff) > 1e-9*float64(tc.n)*deff {
				t.Errorf("sum of scores %v, want N d_eff = %v", s, float64(tc.n)*deff)
			}
			if !mat.Equal(x, x0) {
				t.Error("x was modified")
			}
		})
	}
}

// Gaussian kernel: s = N diag(K (K + N lambda I)^-1), with a dense solve.
func TestLeverageScoresGaussian(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n, d   int
		sigma  float64
		lambda float64
		tol    float64
	}{
		{50, 3, 0.8, 1e-3, 1e-10},
		{50, 3, 0.8, 1e-6, 1e-7},
		{30, 2, 2, 1e-2, 1e-10},
		{80, 5, 1.5, 1e-4, 1e-9},
	} {
		t.Run(fmt.Sprintf("N=%d/sigma=%g/lambda=%g", tc.n, tc.sigma, tc.lambda), func(t *testing.T) {
			x := randData(crRNG(uint64(tc.n+7)), tc.n, tc.d, 1)
			k := refMatrix(refGaussian(tc.sigma), x, x)
			mu := float64(tc.n) * tc.lambda
			b := mat.DenseCopyOf(k)
			for i := 0; i < tc.n; i++ {
				b.Set(i, i, b.At(i, i)+mu)
			}
			// (K + mu I) Z = K, so Z = (K + mu I)^-1 K, whose diagonal equals
			// that of K (K + mu I)^-1 (the two commute).
			var z mat.Dense
			if err := z.Solve(b, k); err != nil {
				t.Fatal(err)
			}
			want := make([]float64, tc.n)
			for j := range want {
				want[j] = float64(tc.n) * z.At(j, j)
			}
			got, err := LeverageScores(ctx, GaussianKernel{Sigma: tc.sigma}, x, tc.lambda)
			if err != nil {
				t.Fatal(err)
			}
			if d := crMaxRel(got, want); d > tc.tol {
				t.Errorf("max rel diff %.3g from N diag(K (K + N lambda I)^-1)", d)
			}
			deff := crEffDim(t, k, mu)
			if s := crSum(got); math.Abs(s-float64(tc.n)*deff) > tc.tol*float64(tc.n)*deff {
				t.Errorf("sum of scores %v, want N d_eff = %v", s, float64(tc.n)*deff)
			}
			for j, v := range got {
				if !(v > 0 && v < float64(tc.n)) {
					t.Fatalf("score[%d] = %v outside (0, N)", j, v)
				}
			}
		})
	}
}

// Nyström features with every point as a center have A A^T = K, so their
// feature scores are the exact kernel scores.
func TestFeatureLeverageScoresNystromAllCenters(t *testing.T) {
	ctx := context.Background()
	n, sigma, lambda := 40, 0.7, 1e-3
	x := randData(crRNG(11), n, 2, 1)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	ny, err := NewNystrom(GaussianKernel{Sigma: sigma}, x, idx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ny.Rank() != n {
		t.Fatalf("Nyström rank %d, want %d (test data should be well conditioned)", ny.Rank(), n)
	}
	exact, err := LeverageScores(ctx, GaussianKernel{Sigma: sigma}, x, lambda)
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range []int{1, 7, 0} {
		fs, err := FeatureLeverageScores(ctx, ny, x, lambda, block)
		if err != nil {
			t.Fatal(err)
		}
		if d := crMaxRel(fs, exact); d > 1e-7 {
			t.Errorf("block %d: Nyström feature scores differ from exact scores by %.3g", block, d)
		}
	}
}

// Random features: the scores of the feature matrix Phi equal
// N diag(Phi Phi^T (Phi Phi^T + N lambda I)^-1), computed densely.
func TestFeatureLeverageScoresRandomFourier(t *testing.T) {
	ctx := context.Background()
	n, d, D, lambda := 70, 4, 30, 1e-3
	x := randData(crRNG(12), n, d, 1)
	rf, err := NewRandomFourier(d, D, 1.1, 5)
	if err != nil {
		t.Fatal(err)
	}
	phi, err := rf.Features(x)
	if err != nil {
		t.Fatal(err)
	}
	var g mat.Dense
	g.Mul(phi, phi.T())
	b := mat.DenseCopyOf(&g)
	for i := 0; i < n; i++ {
		b.Set(i, i, b.At(i, i)+float64(n)*lambda)
	}
	var z mat.Dense
	if err := z.Solve(b, &g); err != nil {
		t.Fatal(err)
	}
	want := make([]float64, n)
	for j := range want {
		want[j] = float64(n) * z.At(j, j)
	}
	for _, block := range []int{1, 7, 64, 1000} {
		got, err := FeatureLeverageScores(ctx, rf, x, lambda, block)
		if err != nil {
			t.Fatal(err)
		}
		if dd := crMaxRel(got, want); dd > 1e-9 {
			t.Errorf("block %d: max rel diff %.3g", block, dd)
		}
	}
}

// crWidthFeatures returns w(call) columns on the call-th call: a feature map
// whose width changes between blocks.
type crWidthFeatures struct {
	calls *int
	w     func(call int) int
	err   error
}

func (f crWidthFeatures) Features(x *mat.Dense) (*mat.Dense, error) {
	*f.calls++
	if f.err != nil && *f.calls > 1 {
		return nil, f.err
	}
	n, _ := x.Dims()
	out := mat.NewDense(n, f.w(*f.calls), nil)
	for i := 0; i < n; i++ {
		out.Set(i, 0, x.At(i, 0))
	}
	return out, nil
}

func TestLeverageScoresErrors(t *testing.T) {
	ctx := context.Background()
	x := randData(crRNG(13), 10, 2, 1)
	bad := mat.DenseCopyOf(x)
	bad.Set(4, 1, math.NaN())
	inf := mat.DenseCopyOf(x)
	inf.Set(7, 0, math.Inf(-1))
	g := GaussianKernel{Sigma: 1}
	check := func(name string, k errKind) func([]float64, error) {
		return func(_ []float64, err error) { wantErrKind(t, name, err, k) }
	}
	check("exact nil kernel", paramErr("Kernel"))(LeverageScores(ctx, nil, x, 1e-3))
	check("exact bad sigma", paramErr("Gaussian kernel sigma", 0.0))(LeverageScores(ctx, GaussianKernel{}, x, 1e-3))
	check("exact nil x", isErr(ErrEmpty))(LeverageScores(ctx, g, nil, 1e-3))
	check("exact empty x", isErr(ErrEmpty))(LeverageScores(ctx, g, &mat.Dense{}, 1e-3))
	check("exact NaN", notFiniteErr("x", 4, 1, math.NaN()))(LeverageScores(ctx, g, bad, 1e-3))
	check("exact -Inf", notFiniteErr("x", 7, 0, math.Inf(-1)))(LeverageScores(ctx, g, inf, 1e-3))
	for _, l := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		check(fmt.Sprintf("exact lambda %v", l), paramErr("lambda_q", l))(LeverageScores(ctx, g, x, l))
		check(fmt.Sprintf("feature lambda %v", l), paramErr("lambda_q", l))(FeatureLeverageScores(ctx, RawFeatures{}, x, l, 0))
	}
	check("feature nil map", paramErr("fm"))(FeatureLeverageScores(ctx, nil, x, 1e-3, 0))
	check("feature NaN", notFiniteErr("x", 4, 1, math.NaN()))(FeatureLeverageScores(ctx, RawFeatures{}, bad, 1e-3, 0))
	check("feature negative block", paramErr("Block", -1))(FeatureLeverageScores(ctx, RawFeatures{}, x, 1e-3, -1))
	calls := 0
	check("width changes", isErr(ErrShape))(FeatureLeverageScores(ctx,
		crWidthFeatures{calls: &calls, w: func(c int) int { return 2 + c%2 }}, x, 1e-3, 4))
	calls = 0
	boom := errors.New("boom")
	_, err := FeatureLeverageScores(ctx, crWidthFeatures{calls: &calls, w: func(int) int { return 2 }, err: boom}, x, 1e-3, 4)
	if !errors.Is(err, boom) {
		t.Errorf("feature map error not passed on: %v", err)
	}
	// An all-zero feature column needs lambda_q > 0, which it has: no error,
	// and the zero column contributes nothing.
	calls = 0
	s, err := FeatureLeverageScores(ctx, crWidthFeatures{calls: &calls, w: func(int) int { return 3 }}, x, 1e-3, 4)
	if err != nil {
		t.Fatal(err)
	}
	for j, v := range s {
		x0 := x.At(j, 0)
		var m float64
		for i := 0; i < 10; i++ {
			m += x.At(i, 0) * x.At(i, 0)
		}
		if want := x0 * x0 / (m/10 + 1e-3); math.Abs(v-want) > 1e-12*want {
			t.Errorf("score[%d] = %v, want %v", j, v, want)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := LeverageScores(cctx, g, x, 1e-3); !errors.Is(err, context.Canceled) {
		t.Errorf("exact scores with a cancelled context: %v", err)
	}
	if _, err := FeatureLeverageScores(cctx, RawFeatures{}, x, 1e-3, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("feature scores with a cancelled context: %v", err)
	}
}

// crIdentityFeatures returns its input itself, a natural user feature map when
// the inputs already are features.
type crIdentityFeatures struct{}

func (crIdentityFeatures) Features(x *mat.Dense) (*mat.Dense, error) { return x, nil }

// A feature map may return (a view of) its input: the scores must not
// overwrite the caller's pool ("No function modifies its arguments").
func TestFeatureLeverageScoresIdentityMapKeepsPool(t *testing.T) {
	ctx := context.Background()
	x := randData(crRNG(14), 30, 3, 1)
	x0 := mat.DenseCopyOf(x)
	want, err := FeatureLeverageScores(ctx, RawFeatures{}, x, 1e-2, 7)
	if err != nil {
		t.Fatal(err)
	}
	got, err := FeatureLeverageScores(ctx, crIdentityFeatures{}, x, 1e-2, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(x, x0) {
		t.Fatal("FeatureLeverageScores overwrote the pool through a feature map returning its input")
	}
	if d := crMaxRel(got, want); d > 1e-12 {
		t.Errorf("identity map scores differ from RawFeatures scores by %.3g", d)
	}
	if _, err := (CREDSelector{Features: crIdentityFeatures{}, LambdaQ: 1e-2}).Select(ctx, x, 10, 1); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(x, x0) {
		t.Error("CREDSelector.Select overwrote the pool")
	}
}
