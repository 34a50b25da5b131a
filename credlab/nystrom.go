package credlab

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// CenterSampler chooses m Nyström centers among the rows of x.
type CenterSampler interface {
	// SampleCenters returns m distinct row indices of x; the same seed
	// must give the same centers.
	SampleCenters(x *mat.Dense, m int, seed uint64) ([]int, error)
}

// UniformCenters samples m rows uniformly without replacement.
type UniformCenters struct{}

// SampleCenters implements CenterSampler in O(n) time.
func (UniformCenters) SampleCenters(x *mat.Dense, m int, seed uint64) ([]int, error) {
	n, _ := x.Dims()
	if m <= 0 || m > n {
		return nil, centersError(m, n)
	}
	return rand.New(rand.NewPCG(seed, 0x6e7973)).Perm(n)[:m], nil
}

// centersError is the *ParamError of m Nyström centers for n rows.
func centersError(m, n int) error {
	return &ParamError{Name: "NystromConfig.M", Value: m, Want: fmt.Sprintf("1 to %d, the number of rows (m = %d Nyström centers)", n, m)}
}

// NystromCenters returns m center rows of x chosen by s (UniformCenters when
// nil) with a generator seeded by seed.
func NystromCenters(x *mat.Dense, m int, s CenterSampler, seed uint64) ([]int, error) {
	if err := CheckData(x, nil); err != nil {
		return nil, err
	}
	return nystromCenters(context.Background(), x, m, s, seed)
}

// contextSampler is a CenterSampler whose work ctx can cancel
// (LeverageCenters).
type contextSampler interface {
	SampleCentersContext(ctx context.Context, x *mat.Dense, m int, seed uint64) ([]int, error)
}

// nystromCenters is NystromCenters on x already checked, with ctx passed
// to samplers that take one: NKRLS, NYTRO and Tune stop a slow sampler
// when ctx is done.
func nystromCenters(ctx context.Context, x *mat.Dense, m int, s CenterSampler, seed uint64) ([]int, error) {
	if s == nil {
		s = UniformCenters{}
	}
	if cs, ok := s.(contextSampler); ok {
		return cs.SampleCentersContext(ctx, x, m, seed)
	}
	return s.SampleCenters(x, m, seed)
}

// Nystrom is the factor behind NKRLS and NYTRO. With K_mm = P L L^T P^T the
// pivoted Cholesky factorization of the centers' kernel matrix and r its
// numerical rank, R = P [L11^-T; 0] (m x r) satisfies R^T K_mm R = I_r and
// K_mm R R^T K_mm = K_mm, the properties eqs. (15)-(16) of the NYTRO paper
// need; it stays correct when K_mm is rank-deficient (duplicate or nearly
// collinear centers), where the paper uses R R^T = K_mm^+. Only the r
// pivoted centers are kept: a model's coefficients are alpha = L11^-T beta.
type Nystrom struct {
	Kernel  Kernel
	Centers *mat.Dense // r x d independent centers, in pivot order
	Index   []int      // their rows in the data
	L       *mat.Dense // r x r lower-triangular factor: K(Centers, Centers) = L L^T
}

// DefaultNystromTol is the default relative pivot tolerance: pivots of K_mm
// below DefaultNystromTol * max_i k(c_i, c_i) end the factorization.
const DefaultNystromTol = 1e-12

// NewNystrom factors the kernel matrix of the rows idx of x. tol is the
// relative pivot tolerance; zero means DefaultNystromTol. Only the rows
// idx are read, and checked for NaN and Inf. It costs
// O(m^2 d + m^3/3) time and O(m^2) memory. Since the features of x's n
// rows (n x m) usually follow, it refuses m centers whose blocks, m x m
// and n x m, exceed MemoryLimit, before allocating either.
func NewNystrom(k Kernel, x *mat.Dense, idx []int, tol float64) (*Nystrom, error) {
	if err := checkKernelOn(k, x); err != nil {
		return nil, err
	}
	if x == nil || x.IsEmpty() {
		return nil, emptyf("x has no rows")
	}
	n, _ := x.Dims()
	if len(idx) == 0 {
		return nil, emptyf("no Nyström center indices (m = 0 centers)")
	}
	for j, i := range idx {
		if i < 0 || i >= n {
			return nil, &ParamError{Name: fmt.Sprintf("idx[%d]", j), Value: i, Want: fmt.Sprintf("a row of x, in [0, %d) (a Nyström center index)", n)}
		}
	}
	if tol == 0 {
		tol = DefaultNystromTol
	}
	if err := checkPositive("Nyström tolerance", tol); err != nil {
		return nil, err
	}
	m := len(idx)
	if err := checkAllocHint("Nyström factor (m x m)", m, m, nystromHint(m)); err != nil {
		return nil, err
	}
	c := gatherRows(x, idx)
	// Only the centers' rows are read: they are checked, O(m d), not all
	// of x.
	if err := checkFinite(c, "x"); err != nil {
		e := err.(*NotFiniteError)
		e.Row = idx[e.Row]
		return nil, e
	}
	kmm := mat.NewDense(m, m, nil)
	kernelSym(kmm, k, c)
	piv, r, err := pivotedCholesky(kmm, tol, "Nyström centers' kernel matrix")
	if err != nil {
		return nil, err
	}
	if r == 0 {
		return nil, &DegenerateError{What: "the Nyström centers' kernel matrix has numerical rank 0"}
	}
	raw := kmm.RawMatrix()
	ny := &Nystrom{Kernel: k, Index: make([]int, r), L: mat.NewDense(r, r, nil)}
	for i := 0; i < r; i++ {
		ny.Index[i] = idx[piv[i]]
		for j := 0; j <= i; j++ {
			ny.L.Set(i, j, raw.Data[i*raw.Stride+j])
		}
	}
	ny.Centers = gatherRows(x, ny.Index)
	return ny, nil
}

func nystromHint(m int) string {
	return fmt.Sprintf("use fewer than m = %d Nyström centers, or raise the memory limit", m)
}

// checkNystromAlloc checks the peak memory of a streamed Nyström fit with
// m centers: K_mm's factor, the training and validation Gram statistics,
// the training matrix the path reduces (or factors) and the validation
// statistics rotated to its basis, five m x m matrices.
func checkNystromAlloc(m int) error {
	return checkAllocHint("Nyström factor, Gram statistics and their reduction (5 m x m)", 5*m, m, nystromHint(m))
}

// Rank is the number r of independent centers kept.
func (ny *Nystrom) Rank() int { return len(ny.Index) }

func (ny *Nystrom) tri() blas64.Triangular {
	raw := ny.L.RawMatrix()
	return blas64.Triangular{N: raw.Rows, Stride: raw.Stride, Data: raw.Data, Uplo: blas.Lower, Diag: blas.NonUnit}
}

// Features returns A = K(X, Centers) L^-T (n x r), so that A A^T is the
// Nyström approximation K_nm K_mm^+ K_mn of K. O(n r d + n r^2) time, O(n r)
// memory.
func (ny *Nystrom) Features(x *mat.Dense) (*mat.Dense, error) {
	if ny == nil || ny.Centers == nil || ny.L == nil || ny.Kernel == nil {
		return nil, emptyf("empty Nyström factor (use NewNystrom)")
	}
	if err := CheckData(x, nil); err != nil {
		return nil, err
	}
	if _, d := x.Dims(); d != ny.Centers.RawMatrix().Cols {
		return nil, shapef("Nyström centers have %d columns, x has %d", ny.Centers.RawMatrix().Cols, d)
	}
	n, _ := x.Dims()
	if err := checkAlloc("Nyström feature matrix", n, ny.Rank()); err != nil {
		return nil, err
	}
	a := mat.NewDense(n, ny.Rank(), nil)
	ny.featuresInto(a, x)
	return a, nil
}

func (ny *Nystrom) featuresInto(dst, x *mat.Dense) {
	kernelBlock(dst, ny.Kernel, x, ny.Centers, nil, nil)
	blas64.Trsm(blas.Right, blas.Trans, 1, ny.tri(), dst.RawMatrix())
}

// Coef maps beta (r) to the model coefficients alpha = L^-T beta on
// Centers, so that f(x) = K(x, Centers) alpha = A(x) beta.
func (ny *Nystrom) Coef(beta []float64) []float64 {
	a := append([]float64(nil), beta...)
	blas64.Trsv(blas.Trans, ny.tri(), vec(a))
	return a
}

// R returns the m x r matrix R of eqs. (15)-(16) for the original m center
// indices passed to NewNystrom, in that order (rows of dropped centers are
// zero), given those indices.
func (ny *Nystrom) R(idx []int) *mat.Dense {
	r := ny.Rank()
	linv := mat.NewDense(r, r, nil) // L^-T
	for i := 0; i < r; i++ {
		linv.Set(i, i, 1)
	}
	blas64.Trsm(blas.Left, blas.Trans, 1, ny.tri(), linv.RawMatrix())
	out := mat.NewDense(len(idx), r, nil)
	used := make([]bool, len(idx))
	for k, row := range ny.Index {
		for i, j := range idx {
			if j == row && !used[i] {
				used[i] = true
				out.SetRow(i, linv.RawRowView(k))
				break
			}
		}
	}
	return out
}

// DefaultNystromM is the number of Nyström centers of NKRLS and NYTRO when
// NystromConfig.M is zero (capped at the training rows): the m at which
// Tune's refinement stage scores sigma.
const DefaultNystromM = refineM

// nystromSplit builds the Nyström factor on the training rows of a hold-out
// split and sets fs to map rows to A = K_nm R.
func nystromSplit(ctx context.Context, x *mat.Dense, y, w []float64, k Kernel, nc NystromConfig, h Holdout) (*Nystrom, *featureSplit, error) {
	fs, err := splitRows(x, y, w, h)
	if err != nil {
		return nil, nil, err
	}
	if nc.M == 0 {
		nc.M = min(DefaultNystromM, fs.nt)
	}
	if nc.M <= 0 || nc.M > fs.nt {
		return nil, nil, &ParamError{Name: "NystromConfig.M", Value: nc.M, Want: fmt.Sprintf("1 to %d, the number of training rows (m = %d Nyström centers)", fs.nt, nc.M)}
	}
	if err := checkNystromAlloc(nc.M); err != nil {
		return nil, nil, err
	}
	t0 := time.Now()
	idx, err := nystromCenters(ctx, fs.xt, nc.M, nc.Sampler, nc.Seed)
	if err != nil {
		return nil, nil, err
	}
	ny, err := NewNystrom(k, fs.xt, idx, nc.Tol)
	if err != nil {
		return nil, nil, err
	}
	fs.featureTime = time.Since(t0)
	fs.dim = ny.Rank()
	fs.fill = func(dst, x *mat.Dense) error {
		ny.featuresInto(dst, x)
		return nil
	}
	return ny, fs, nil
}
