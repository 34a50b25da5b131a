package credlab

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

type nystromCase struct {
	name string
	k    Kernel
	x    *mat.Dense
	idx  []int
	rank int
}

func nystromCases() []nystromCase {
	rng := newRNG(30)
	// Full rank: 15 well-separated Gaussian centers.
	xg := randData(rng, 50, 2, 2)
	// Duplicate center rows: rows 40..44 copy rows 0..4, and index 7 is
	// passed twice.
	xd := randData(rng, 50, 2, 2)
	for i := 0; i < 5; i++ {
		xd.SetRow(40+i, row(xd, i))
	}
	// Linear kernel with m = 8 > d = 3: rank 3.
	xl := randData(rng, 40, 3, 1)
	return []nystromCase{
		{"gaussian full rank", GaussianKernel{Sigma: 0.7}, xg, []int{3, 17, 8, 22, 41, 0, 9, 30, 12, 48, 26, 5, 35, 19, 44}, 15},
		{"gaussian duplicate centers", GaussianKernel{Sigma: 0.7}, xd, []int{0, 1, 40, 2, 41, 7, 7, 42, 20, 30, 3, 43}, 7},
		{"linear m>d", LinearKernel{}, xl, []int{1, 5, 9, 13, 17, 21, 25, 29}, 3},
		{"polynomial", PolynomialKernel{Degree: 2, Gamma: 1, Coef0: 1}, xl, []int{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22}, 10},
	}
}

func TestNystromFactor(t *testing.T) {
	for _, c := range nystromCases() {
		t.Run(c.name, func(t *testing.T) {
			xc := mat.DenseCopyOf(c.x)
			idxc := append([]int(nil), c.idx...)
			ny, err := NewNystrom(c.k, c.x, c.idx, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(xc, c.x) {
				t.Error("NewNystrom modified x")
			}
			if ny.Rank() != c.rank {
				t.Errorf("rank %d, want %d", ny.Rank(), c.rank)
			}
			r := ny.Rank()
			m := len(c.idx)
			// Centers and Index are consistent with the data.
			if len(ny.Index) != r {
				t.Fatalf("%d indices for rank %d", len(ny.Index), r)
			}
			for i, j := range ny.Index {
				if !mat.Equal(mat.NewDense(1, xc.RawMatrix().Cols, row(ny.Centers, i)), mat.NewDense(1, xc.RawMatrix().Cols, row(c.x, j))) {
					t.Errorf("center %d is not row %d of x", i, j)
				}
			}
			ref := refOf(t, c.k)
			cm := rowsOf(c.x, c.idx)
			kmm := refMatrix(ref, cm, cm)
			R := ny.R(c.idx)
			if rr, cc := R.Dims(); rr != m || cc != r {
				t.Fatalf("R is %d x %d, want %d x %d", rr, cc, m, r)
			}
			// R^T K_mm R = I_r.
			rtkr := mul(R.T(), mul(kmm, R))
			eye := mat.NewDense(r, r, nil)
			for i := 0; i < r; i++ {
				eye.Set(i, i, 1)
			}
			if d := relDiffMat(rtkr, eye); d > 1e-8 {
				t.Errorf("R^T K_mm R differs from I: max abs %g", d)
			}
			// K_mm R R^T K_mm = K_mm.
			krrk := mul(kmm, mul(R, mul(R.T(), kmm)))
			if d := relDiffMat(krrk, kmm); d > 1e-8 {
				t.Errorf("K_mm R R^T K_mm differs from K_mm: rel %g", d)
			}
			// Rows of dropped centers are zero: m - r of them.
			zero := 0
			for i := 0; i < m; i++ {
				if norm2(row(R, i)) == 0 {
					zero++
				}
			}
			if zero != m-r {
				t.Errorf("%d zero rows of R, want m - r = %d", zero, m-r)
			}
			for i := range idxc {
				if idxc[i] != c.idx[i] {
					t.Fatal("R modified idx")
				}
			}
		})
	}
}

// Features(x) A satisfies A A^T = K_nm K_mm^+ K_mn, with K_mm^+ from an
// SVD, and K(x, Centers) Coef(beta) = A beta.
func TestNystromFeatures(t *testing.T) {
	rng := newRNG(31)
	for _, c := range nystromCases() {
		t.Run(c.name, func(t *testing.T) {
			_, d := c.x.Dims()
			ny, err := NewNystrom(c.k, c.x, c.idx, 0)
			if err != nil {
				t.Fatal(err)
			}
			xn := randData(rng, 30, d, 1.5)
			a, err := ny.Features(xn)
			if err != nil {
				t.Fatal(err)
			}
			if rr, cc := a.Dims(); rr != 30 || cc != ny.Rank() {
				t.Fatalf("A is %d x %d, want 30 x %d", rr, cc, ny.Rank())
			}
			ref := refOf(t, c.k)
			cm := rowsOf(c.x, c.idx)
			knm := refMatrix(ref, xn, cm)
			kp := pinvSVD(t, refMatrix(ref, cm, cm), 1e-10)
			want := mul(knm, mul(kp, knm.T()))
			got := mul(a, a.T())
			if dd := relDiffMat(got, want); dd > 1e-7 {
				t.Errorf("A A^T differs from K_nm K_mm^+ K_mn: rel %g", dd)
			}
			beta := make([]float64, ny.Rank())
			for i := range beta {
				beta[i] = rng.NormFloat64()
			}
			alpha := ny.Coef(beta)
			f := matVec(refMatrix(ref, xn, ny.Centers), alpha)
			if dd := relDiff(f, matVec(a, beta)); dd > 1e-8 {
				t.Errorf("K(x, C) Coef(beta) differs from A beta: rel %g", dd)
			}
			// Coef(beta) = R beta, restricted to the kept centers.
			rb := matVec(ny.R(c.idx), beta)
			f2 := matVec(refMatrix(ref, xn, cm), rb)
			if dd := relDiff(f2, f); dd > 1e-8 {
				t.Errorf("K_nm R beta differs from K(x, Centers) Coef(beta): rel %g", dd)
			}
		})
	}
	// For a linear kernel whose centers span R^d, A A^T = X X^T.
	x := randData(rng, 20, 3, 1)
	ny, err := NewNystrom(LinearKernel{}, x, []int{0, 1, 2, 3, 4, 5}, 0)
	if err != nil {
		t.Fatal(err)
	}
	a, err := ny.Features(x)
	if err != nil {
		t.Fatal(err)
	}
	if d := relDiffMat(mul(a, a.T()), mul(x, x.T())); d > 1e-10 {
		t.Errorf("linear: A A^T differs from X X^T: rel %g", d)
	}
	_, err = ny.Features(randData(rng, 4, 2, 1))
	wantErrKind(t, "Features with wrong column count", err, isErr(ErrShape))
	_, err = (&Nystrom{}).Features(x)
	wantErrKind(t, "Features of an empty factor", err, isErr(ErrEmpty))
}

func TestNystromCenters(t *testing.T) {
	x := randData(newRNG(32), 50, 2, 1)
	a, err := NystromCenters(x, 20, nil, 9)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NystromCenters(x, 20, nil, 9)
	c, _ := NystromCenters(x, 20, nil, 10)
	if len(a) != 20 {
		t.Fatalf("%d centers, want 20", len(a))
	}
	seen := map[int]bool{}
	for i, v := range a {
		if v < 0 || v >= 50 || seen[v] {
			t.Fatalf("index %d invalid or repeated in %v", v, a)
		}
		seen[v] = true
		if b[i] != v {
			t.Fatal("same seed gave different centers")
		}
	}
	same := true
	for i := range a {
		same = same && a[i] == c[i]
	}
	if same {
		t.Error("seeds 9 and 10 gave the same centers")
	}
	all, err := NystromCenters(x, 50, UniformCenters{}, 1)
	if err != nil || len(all) != 50 {
		t.Fatalf("m = n: %v, %d centers", err, len(all))
	}
	for _, m := range []int{0, -1, 51} {
		_, err := NystromCenters(x, m, nil, 1)
		wantErrKind(t, fmt.Sprintf("m = %d", m), err, paramErr("NystromConfig.M", m))
		_, err = NystromCenters(x, m, LeverageCenters{}, 1)
		wantErrKind(t, fmt.Sprintf("leverage centers, m = %d", m), err, paramErr("NystromConfig.M", m))
	}
}

// fixedSampler returns given indices (possibly bad) to test validation.
type fixedSampler []int

func (f fixedSampler) SampleCenters(*mat.Dense, int, uint64) ([]int, error) { return f, nil }

func TestNewNystromErrors(t *testing.T) {
	x := randData(newRNG(33), 10, 2, 1)
	k := GaussianKernel{Sigma: 1}
	cases := []struct {
		name string
		call func() error
		want errKind
	}{
		{"no centers", func() error { _, err := NewNystrom(k, x, nil, 0); return err }, isErr(ErrEmpty)},
		{"index out of range", func() error { _, err := NewNystrom(k, x, []int{1, 10}, 0); return err }, paramErr("idx[1]", 10)},
		{"negative index", func() error { _, err := NewNystrom(k, x, []int{-1}, 0); return err }, paramErr("idx[0]", -1)},
		{"negative tol", func() error { _, err := NewNystrom(k, x, []int{1}, -1); return err }, paramErr("Nyström tolerance", -1.0)},
		{"bad kernel", func() error { _, err := NewNystrom(GaussianKernel{}, x, []int{1}, 0); return err }, paramErr("Gaussian kernel sigma", 0.0)},
		{"zero kernel matrix", func() error {
			_, err := NewNystrom(LinearKernel{}, mat.NewDense(3, 2, nil), []int{0, 1}, 0)
			return err
		}, degenerateErr("zero")},
		{"NaN in a center", func() error {
			xb := mat.DenseCopyOf(x)
			xb.Set(4, 1, math.NaN())
			_, err := NewNystrom(k, xb, []int{1, 4}, 0)
			return err
		}, notFiniteErr("x", 4, 1, math.NaN())},
	}
	for _, c := range cases {
		wantErrKind(t, c.name, c.call(), c.want)
	}
}
