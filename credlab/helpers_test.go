package credlab

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// ---------------------------------------------------------------------------
// Shared test helpers: independent reference computations written with
// plain loops and gonum's mat, never with the package's own kernel code.
// ---------------------------------------------------------------------------

func newRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x7e57)) }

// randData returns n x d points uniform in [-scale, scale].
func randData(rng *rand.Rand, n, d int, scale float64) *mat.Dense {
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, scale*(2*rng.Float64()-1))
		}
	}
	return x
}

// smoothTargets returns a smooth function of the rows plus Gaussian noise.
func smoothTargets(rng *rand.Rand, x *mat.Dense, noise float64) []float64 {
	n, d := x.Dims()
	y := make([]float64, n)
	for i := range y {
		v := math.Sin(2 * x.At(i, 0))
		if d > 1 {
			v += 0.5 * math.Cos(3*x.At(i, 1))
		}
		y[i] = v + noise*rng.NormFloat64()
	}
	return y
}

type refKernel func(a, b []float64) float64

func refSqDist(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return s
}

func refDot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func refGaussian(sigma float64) refKernel {
	return func(a, b []float64) float64 { return math.Exp(-refSqDist(a, b) / (2 * sigma * sigma)) }
}

func refLaplacian(sigma float64) refKernel {
	return func(a, b []float64) float64 { return math.Exp(-math.Sqrt(refSqDist(a, b)) / sigma) }
}

// refManhattan is exp(-sum_j s_j |a_j - b_j| / sigma), s nil for every s_j 1.
func refManhattan(sigma float64, s []float64) refKernel {
	return func(a, b []float64) float64 {
		t := 0.0
		for j := range a {
			w := 1.0
			if s != nil {
				w = s[j]
			}
			t += w * math.Abs(a[j]-b[j])
		}
		return math.Exp(-t / sigma)
	}
}

// refMatern is the half-integer Matérn kernel nu = p + 1/2 by the general
// series exp(-sqrt(2 nu) r) p!/(2p)! sum_i (p+i)!/(i! (p-i)!)
// (2 sqrt(2 nu) r)^(p-i), r = ||a-b||/sigma.
func refMatern(p int, sigma float64) refKernel {
	fact := func(n int) float64 { return math.Gamma(float64(n) + 1) }
	return func(a, b []float64) float64 {
		r := math.Sqrt(refSqDist(a, b)) / sigma
		c := math.Sqrt(2*float64(p) + 1)
		s := 0.0
		for i := 0; i <= p; i++ {
			s += fact(p+i) / (fact(i) * fact(p-i)) * math.Pow(2*c*r, float64(p-i))
		}
		return math.Exp(-c*r) * fact(p) / fact(2*p) * s
	}
}

func refLinear() refKernel { return refDot }

func refPoly(deg int, g, c float64) refKernel {
	return func(a, b []float64) float64 { return math.Pow(g*refDot(a, b)+c, float64(deg)) }
}

// refOf returns the test's own formula for an explicitly parameterised
// built-in kernel.
func refOf(t *testing.T, k Kernel) refKernel {
	t.Helper()
	switch k := k.(type) {
	case GaussianKernel:
		return refGaussian(k.Sigma)
	case LaplacianKernel:
		return refLaplacian(k.Sigma)
	case LinearKernel:
		return refLinear()
	case PolynomialKernel:
		if k.Degree <= 0 || k.Gamma <= 0 {
			t.Fatalf("refOf: give polynomial parameters explicitly, got %+v", k)
		}
		return refPoly(k.Degree, k.Gamma, k.Coef0)
	}
	t.Fatalf("refOf: no reference for %T", k)
	return nil
}

func row(x *mat.Dense, i int) []float64 { return mat.Row(nil, i, x) }

// refMatrix returns K(X, Y)_ij = k(x_i, y_j) by direct pairwise evaluation.
func refMatrix(k refKernel, x, y *mat.Dense) *mat.Dense {
	n, _ := x.Dims()
	m, _ := y.Dims()
	out := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		xi := row(x, i)
		for j := 0; j < m; j++ {
			out.Set(i, j, k(xi, row(y, j)))
		}
	}
	return out
}

// rowsOf returns the rows idx of x.
func rowsOf(x *mat.Dense, idx []int) *mat.Dense {
	_, d := x.Dims()
	out := mat.NewDense(len(idx), d, nil)
	for i, r := range idx {
		out.SetRow(i, row(x, r))
	}
	return out
}

func pick(y []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for i, r := range idx {
		out[i] = y[r]
	}
	return out
}

func matVec(a mat.Matrix, v []float64) []float64 {
	r, _ := a.Dims()
	out := mat.NewVecDense(r, nil)
	out.MulVec(a, mat.NewVecDense(len(v), append([]float64(nil), v...)))
	return out.RawVector().Data
}

// denseSolve solves a z = b with gonum's LU.
func denseSolve(t testing.TB, a mat.Matrix, b []float64) []float64 {
	t.Helper()
	var z mat.VecDense
	if err := z.SolveVec(a, mat.NewVecDense(len(b), append([]float64(nil), b...))); err != nil {
		t.Fatalf("reference solve: %v", err)
	}
	return z.RawVector().Data
}

// addDiag returns a + s I.
func addDiag(a *mat.Dense, s float64) *mat.Dense {
	out := mat.DenseCopyOf(a)
	n, _ := a.Dims()
	for i := 0; i < n; i++ {
		out.Set(i, i, out.At(i, i)+s)
	}
	return out
}

// pinvSym returns the pseudo-inverse of a symmetric matrix by EigenSym,
// dropping eigenvalues below rcond times the largest in magnitude.
func pinvSym(t *testing.T, a *mat.Dense, rcond float64) *mat.Dense {
	t.Helper()
	n, _ := a.Dims()
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			sym.SetSym(i, j, (a.At(i, j)+a.At(j, i))/2)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(sym, true) {
		t.Fatal("reference EigenSym failed")
	}
	vals := es.Values(nil)
	var q mat.Dense
	es.VectorsTo(&q)
	top := 0.0
	for _, v := range vals {
		top = math.Max(top, math.Abs(v))
	}
	out := mat.NewDense(n, n, nil)
	for k, v := range vals {
		if math.Abs(v) <= rcond*top {
			continue
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				out.Set(i, j, out.At(i, j)+q.At(i, k)*q.At(j, k)/v)
			}
		}
	}
	return out
}

// pinvSVD returns the pseudo-inverse of a by SVD, dropping singular values
// below rcond times the largest.
func pinvSVD(t *testing.T, a mat.Matrix, rcond float64) *mat.Dense {
	t.Helper()
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDThin) {
		t.Fatal("reference SVD failed")
	}
	s := svd.Values(nil)
	var u, v mat.Dense
	svd.UTo(&u)
	svd.VTo(&v)
	r, c := a.Dims()
	out := mat.NewDense(c, r, nil)
	for k, sk := range s {
		if sk <= rcond*s[0] {
			continue
		}
		for i := 0; i < c; i++ {
			for j := 0; j < r; j++ {
				out.Set(i, j, out.At(i, j)+v.At(i, k)*u.At(j, k)/sk)
			}
		}
	}
	return out
}

func mul(a, b mat.Matrix) *mat.Dense {
	var c mat.Dense
	c.Mul(a, b)
	return &c
}

func norm2(v []float64) float64 { return math.Sqrt(refDot(v, v)) }

// relDiff returns ||a - b|| / ||b|| (or ||a - b|| when b is zero).
func relDiff(a, b []float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	nb := norm2(b)
	if nb == 0 {
		return norm2(d)
	}
	return norm2(d) / nb
}

// relDiffMat returns max|a - b| / max|b|.
func relDiffMat(a, b *mat.Dense) float64 {
	var d mat.Dense
	d.Sub(a, b)
	nb := mat.Norm(b, math.Inf(1))
	if nb == 0 {
		return mat.Norm(&d, math.Inf(1))
	}
	return mat.Norm(&d, math.Inf(1)) / nb
}

func refRMSE(p, y []float64) float64 {
	s := 0.0
	for i := range y {
		s += (p[i] - y[i]) * (p[i] - y[i])
	}
	return math.Sqrt(s / float64(len(y)))
}

func relClose(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}

// sameBits reports whether two slices are bit-identical (NaN-aware).
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

func denseBits(a *mat.Dense) []float64 {
	r, c := a.Dims()
	out := make([]float64, 0, r*c)
	for i := 0; i < r; i++ {
		out = append(out, row(a, i)...)
	}
	return out
}

// withProcs runs f with GOMAXPROCS set to p, restoring it afterwards.
func withProcs(p int, f func()) {
	old := runtime.GOMAXPROCS(p)
	defer runtime.GOMAXPROCS(old)
	f()
}

// ---------------------------------------------------------------------------
// Helpers first written for the CRED tests (leverage, selection, features,
// linear, weights). crRNG keeps its own PCG stream constant, so the CRED
// tests draw the same data as before; crRelDiff is a max-norm relative
// difference, unlike relDiff above.
// ---------------------------------------------------------------------------

func crRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x637265)) }

// crWeights returns n weights spread over [lo, hi].
func crWeights(rng *rand.Rand, n int, lo, hi float64) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = lo + (hi-lo)*rng.Float64()
	}
	return w
}

// crRelDiff is max_i |a_i - b_i| / max(max_i |b_i|, tiny).
func crRelDiff(a, b []float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	num, den := 0.0, 1e-300
	for i := range a {
		num = math.Max(num, math.Abs(a[i]-b[i]))
		den = math.Max(den, math.Abs(b[i]))
	}
	if math.IsNaN(num) {
		return math.Inf(1)
	}
	return num / den
}

// crMaxRel is max_i |a_i - b_i| / |b_i|, elementwise (b_i != 0).
func crMaxRel(a, b []float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	m := 0.0
	for i := range a {
		d := math.Abs(a[i]-b[i]) / math.Abs(b[i])
		if math.IsNaN(d) {
			return math.Inf(1)
		}
		m = math.Max(m, d)
	}
	return m
}

func crSum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

// errKind is an expected error, told by its type or sentinel (errors.Is,
// errors.As), never by its message.
type errKind struct {
	desc  string
	match func(error) bool
}

// isErr expects an error wrapping target, such as ErrShape or ErrEmpty.
func isErr(target error) errKind {
	return errKind{fmt.Sprintf("an error wrapping %q", target), func(err error) bool { return errors.Is(err, target) }}
}

// paramErr expects a *ParamError for the setting name and, when value is
// given, with that Value.
func paramErr(name string, value ...any) errKind {
	desc := fmt.Sprintf("a *ParamError named %q", name)
	if len(value) > 0 {
		desc += fmt.Sprintf(" with the value %v", value[0])
	}
	return errKind{desc, func(err error) bool {
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Name != name {
			return false
		}
		return len(value) == 0 || sameValue(pe.Value, value[0])
	}}
}

// notFiniteErr expects a *NotFiniteError for the input name at (row, col)
// holding v.
func notFiniteErr(name string, row, col int, v float64) errKind {
	return errKind{fmt.Sprintf("a *NotFiniteError for %s at row %d, column %d with the value %v", name, row, col, v), func(err error) bool {
		var nf *NotFiniteError
		return errors.As(err, &nf) && nf.Name == name && nf.Row == row && nf.Col == col && sameValue(nf.Value, v)
	}}
}

// tuneErr expects a *TuneError wrapping sentinel, when it is not nil.
func tuneErr(sentinel error) errKind {
	return errKind{fmt.Sprintf("a *TuneError wrapping %v", sentinel), func(err error) bool {
		var te *TuneError
		return errors.As(err, &te) && (sentinel == nil || errors.Is(err, sentinel))
	}}
}

// divergedErr expects a *DivergedError, of the method when one is given.
func divergedErr(method ...string) errKind {
	return errKind{fmt.Sprintf("a *DivergedError %v", method), func(err error) bool {
		var de *DivergedError
		return errors.As(err, &de) && (len(method) == 0 || de.Method == method[0])
	}}
}

// tooLargeErr expects a *TooLargeError whose Hint mentions hint.
func tooLargeErr(hint string) errKind {
	return errKind{fmt.Sprintf("a *TooLargeError with a hint mentioning %q", hint), func(err error) bool {
		var tl *TooLargeError
		return errors.As(err, &tl) && strings.Contains(tl.Hint, hint)
	}}
}

// sameValue compares a ParamError or NotFiniteError value with a want,
// NaN equal to NaN.
func sameValue(got, want any) bool {
	g, gok := got.(float64)
	w, wok := want.(float64)
	if gok && wok && math.IsNaN(g) && math.IsNaN(w) {
		return true
	}
	return got == want
}

// wantErrKind reports an error unless err is of kind k.
func wantErrKind(t *testing.T, name string, err error, k errKind) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %s", name, k.desc)
		return
	}
	if !k.match(err) {
		t.Errorf("%s: got %q (%T), want %s", name, err, err, k.desc)
	}
}

// degenerateErr expects a *DegenerateError (every kernel value or
// feature zero, or a kernel diagonal that is not positive and finite)
// that mentions every one of subs.
func degenerateErr(subs ...string) errKind {
	return errKind{fmt.Sprintf("a *DegenerateError mentioning %q", subs), func(err error) bool {
		var de *DegenerateError
		if !errors.As(err, &de) {
			return false
		}
		for _, s := range subs {
			if !strings.Contains(err.Error(), s) {
				return false
			}
		}
		return true
	}}
}

// symEigenvalues returns the eigenvalues (without vectors) of the
// symmetrised a, (a + a^T)/2.
func symEigenvalues(t *testing.T, a *mat.Dense) []float64 {
	t.Helper()
	n, _ := a.Dims()
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			sym.SetSym(i, j, (a.At(i, j)+a.At(j, i))/2)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(sym, false) {
		t.Fatal("reference eigendecomposition failed")
	}
	return es.Values(nil)
}

// crEffDim returns sum_i e_i / (e_i + mu) over the eigenvalues of the
// symmetric matrix a.
func crEffDim(t *testing.T, a *mat.Dense, mu float64) float64 {
	t.Helper()
	d := 0.0
	for _, e := range symEigenvalues(t, a) {
		e = math.Max(e, 0)
		d += e / (e + mu)
	}
	return d
}

// crLambdaMax is the largest eigenvalue of the symmetric matrix a.
func crLambdaMax(t *testing.T, a *mat.Dense) float64 {
	vals := symEigenvalues(t, a)
	return mat.Max(mat.NewVecDense(len(vals), vals))
}
