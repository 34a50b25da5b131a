package credlab

import (
	"fmt"
	"math"

	"github.com/credlab/credlab/internal/vecmath"
	"gonum.org/v1/gonum/mat"
)

// Kernel is a positive semi-definite kernel k(a, b) on R^d.
//
// The built-in kernels below compute blocks K(X, Y) through one matrix
// multiply (the ||x||^2 + ||y||^2 - 2 x.y form); any other implementation is
// evaluated pairwise with Eval, in parallel.
type Kernel interface {
	// Eval returns k(a, b). a and b have equal length.
	Eval(a, b []float64) float64
	// Validate reports a parameter outside the kernel's domain.
	Validate() error
	// String names the kernel and its parameters.
	String() string
}

// distKernel is a kernel that is a function of ||a-b||^2, after each
// column is multiplied by its scale (columnScales; nil: every scale 1).
type distKernel interface {
	fromSqDist(s float64) float64
	columnScales() []float64
}

// l1Kernel is a kernel that is a function of ||a-b||_1, after each column
// is multiplied by its scale (columnScales; nil: every scale 1).
type l1Kernel interface {
	fromL1Dist(s float64) float64
	columnScales() []float64
}

// kernelScales returns the per-column scales of a distance kernel (nil for
// one shared scale), and whether k is one.
func kernelScales(k Kernel) ([]float64, bool) {
	switch kk := k.(type) {
	case distKernel:
		return kk.columnScales(), true
	case l1Kernel:
		return kk.columnScales(), true
	}
	return nil, false
}

// dotKernel is a kernel that is a function of a.b.
type dotKernel interface {
	fromDot(d float64) float64
}

// GaussianKernel is k(a, b) = exp(-||S (a-b)||^2 / (2 Sigma^2)), S the
// diagonal matrix of Scales: column j's lengthscale is Sigma / Scales[j]
// (automatic relevance determination). Nil Scales is the isotropic kernel
// exp(-||a-b||^2 / (2 Sigma^2)), computed exactly as without the field; a
// zero scale leaves its column out.
type GaussianKernel struct {
	Sigma  float64   // bandwidth; must be positive
	Scales []float64 // optional per-column scales >= 0, one per column
}

func (k GaussianKernel) Eval(a, b []float64) float64 {
	return k.fromSqDist(scaledSqDist(a, b, k.Scales))
}
func (k GaussianKernel) Validate() error {
	if err := checkPositive("Gaussian kernel sigma", k.Sigma); err != nil {
		return err
	}
	return checkScales("Gaussian kernel scales", k.Scales)
}
func (k GaussianKernel) String() string { return kernelName("gaussian", k.Sigma, k.Scales) }
func (k GaussianKernel) fromSqDist(s float64) float64 {
	return math.Exp(-s / (2 * k.Sigma * k.Sigma))
}
func (k GaussianKernel) columnScales() []float64 { return k.Scales }

// LaplacianKernel is k(a, b) = exp(-||S (a-b)||_2 / Sigma), with the
// Euclidean norm and S the diagonal matrix of Scales as in GaussianKernel
// (nil: every scale 1). (scikit-learn's laplacian_kernel uses the L1 norm
// instead.)
type LaplacianKernel struct {
	Sigma  float64   // bandwidth; must be positive
	Scales []float64 // optional per-column scales >= 0, one per column
}

func (k LaplacianKernel) Eval(a, b []float64) float64 {
	return k.fromSqDist(scaledSqDist(a, b, k.Scales))
}
func (k LaplacianKernel) Validate() error {
	if err := checkPositive("Laplacian kernel sigma", k.Sigma); err != nil {
		return err
	}
	return checkScales("Laplacian kernel scales", k.Scales)
}
func (k LaplacianKernel) String() string { return kernelName("laplacian", k.Sigma, k.Scales) }
func (k LaplacianKernel) fromSqDist(s float64) float64 {
	return math.Exp(-math.Sqrt(s) / k.Sigma)
}
func (k LaplacianKernel) columnScales() []float64 { return k.Scales }

// ManhattanKernel is k(a, b) = exp(-||S (a-b)||_1 / Sigma), the Laplacian
// kernel of the L1 distance (scikit-learn's laplacian_kernel), with S the
// diagonal matrix of Scales as in GaussianKernel (nil: every scale 1). It
// is the product over the columns of one-column Laplacian kernels
// exp(-s_j |a_j - b_j| / Sigma), so its functions may change abruptly
// along one column at a time, as targets that step at thresholds of a
// column do, where the kernels of the Euclidean distance round the steps
// off. A block K(X, Y) costs O(n m d) without a matrix multiply.
type ManhattanKernel struct {
	Sigma  float64   // bandwidth; must be positive
	Scales []float64 // optional per-column scales >= 0, one per column
}

func (k ManhattanKernel) Eval(a, b []float64) float64 {
	return k.fromL1Dist(scaledL1Dist(a, b, k.Scales))
}
func (k ManhattanKernel) Validate() error {
	if err := checkPositive("Manhattan kernel sigma", k.Sigma); err != nil {
		return err
	}
	return checkScales("Manhattan kernel scales", k.Scales)
}
func (k ManhattanKernel) String() string               { return kernelName("manhattan", k.Sigma, k.Scales) }
func (k ManhattanKernel) fromL1Dist(s float64) float64 { return math.Exp(-s / k.Sigma) }
func (k ManhattanKernel) columnScales() []float64      { return k.Scales }

// MaternKernel is the Matérn kernel of smoothness Nu, a function of
// r = ||S (a-b)|| / Sigma with S the diagonal matrix of Scales as in
// GaussianKernel (nil: every scale 1):
//
//	Nu = 3/2: k = (1 + sqrt(3) r) exp(-sqrt(3) r)
//	Nu = 5/2: k = (1 + sqrt(5) r + 5 r^2 / 3) exp(-sqrt(5) r)
//
// Its functions are once (3/2) or twice (5/2) differentiable, rougher
// than the Gaussian kernel's and smoother than the Laplacian's (Nu = 1/2);
// as Nu grows it tends to the Gaussian kernel exp(-r^2/2). The zero Nu
// means 5/2.
type MaternKernel struct {
	Nu     float64   // 1.5 or 2.5; zero means 2.5
	Sigma  float64   // bandwidth; must be positive
	Scales []float64 // optional per-column scales >= 0, one per column
}

func (k MaternKernel) nu() float64 {
	if k.Nu == 0 {
		return 2.5
	}
	return k.Nu
}

func (k MaternKernel) Eval(a, b []float64) float64 {
	return k.fromSqDist(scaledSqDist(a, b, k.Scales))
}
func (k MaternKernel) Validate() error {
	if nu := k.nu(); nu != 1.5 && nu != 2.5 {
		return &ParamError{Name: "Matérn kernel nu", Value: k.Nu, Want: "1.5 or 2.5 (or zero for 2.5)"}
	}
	if err := checkPositive("Matérn kernel sigma", k.Sigma); err != nil {
		return err
	}
	return checkScales("Matérn kernel scales", k.Scales)
}
func (k MaternKernel) String() string {
	name := "matern52"
	if k.nu() == 1.5 {
		name = "matern32"
	}
	return kernelName(name, k.Sigma, k.Scales)
}
func (k MaternKernel) fromSqDist(s float64) float64 {
	r := math.Sqrt(s) / k.Sigma
	if k.nu() == 1.5 {
		u := math.Sqrt(3) * r
		return (1 + u) * math.Exp(-u)
	}
	u := math.Sqrt(5) * r
	return (1 + u + u*u/3) * math.Exp(-u)
}
func (k MaternKernel) columnScales() []float64 { return k.Scales }

// withScales returns the distance kernel k with per-column scales s
// (GaussianKernel, LaplacianKernel or MaternKernel; others unchanged).
func withScales(k Kernel, s []float64) Kernel {
	switch kk := k.(type) {
	case GaussianKernel:
		kk.Scales = s
		return kk
	case LaplacianKernel:
		kk.Scales = s
		return kk
	case MaternKernel:
		kk.Scales = s
		return kk
	case ManhattanKernel:
		kk.Scales = s
		return kk
	}
	return k
}

// Lengthscales returns each column's lengthscale Sigma / Scales[j] (+Inf
// for a column left out), or nil for an isotropic kernel.
func Lengthscales(k Kernel) []float64 {
	scales, _ := kernelScales(k)
	if scales == nil {
		return nil
	}
	var sigma float64
	switch kk := k.(type) {
	case GaussianKernel:
		sigma = kk.Sigma
	case LaplacianKernel:
		sigma = kk.Sigma
	case MaternKernel:
		sigma = kk.Sigma
	case ManhattanKernel:
		sigma = kk.Sigma
	}
	out := make([]float64, len(scales))
	for j, s := range scales {
		out[j] = sigma / s
	}
	return out
}

func kernelName(name string, sigma float64, scales []float64) string {
	if scales == nil {
		return fmt.Sprintf("%s(sigma=%.4g)", name, sigma)
	}
	return fmt.Sprintf("%s(sigma=%.4g, scales=%.3g)", name, sigma, scales)
}

// checkScales checks per-column kernel scales: finite, >= 0, not all zero.
func checkScales(name string, s []float64) error {
	if s == nil {
		return nil
	}
	pos := false
	for j, v := range s {
		if !(v >= 0) || math.IsInf(v, 0) {
			return &ParamError{Name: fmt.Sprintf("%s[%d]", name, j), Value: v, Want: "a finite scale >= 0"}
		}
		pos = pos || v > 0
	}
	if !pos {
		return &ParamError{Name: name, Value: s, Want: "at least one positive scale"}
	}
	return nil
}

// checkKernelOn checks k and that its column scales, if any, match x's
// columns (x nil or empty: the kernel alone).
func checkKernelOn(k Kernel, x *mat.Dense) error {
	if err := checkKernel(k); err != nil {
		return err
	}
	if x == nil || x.IsEmpty() {
		return nil
	}
	return checkKernelCols(k, x.RawMatrix().Cols)
}

// checkKernelCols reports a kernel whose per-column scales do not match d
// columns.
func checkKernelCols(k Kernel, d int) error {
	if s, ok := kernelScales(k); ok && s != nil && len(s) != d {
		return shapef("the kernel has %d column scales, the data %d columns", len(s), d)
	}
	return nil
}

// scaledSqDist returns ||S (a-b)||^2 (||a-b||^2 for nil s).
func scaledSqDist(a, b, s []float64) float64 {
	if s == nil {
		return vecmath.SqDist(a, b)
	}
	t := 0.0
	for i, v := range a {
		u := (v - b[i]) * s[i]
		t += u * u
	}
	return t
}

// scaledL1Dist returns sum_j s_j |a_j - b_j| (s nil: every s_j 1).
func scaledL1Dist(a, b, s []float64) float64 {
	t := 0.0
	if s == nil {
		for i, v := range a {
			t += math.Abs(v - b[i])
		}
		return t
	}
	for i, v := range a {
		t += math.Abs(v-b[i]) * s[i]
	}
	return t
}

// LinearKernel is k(a, b) = a.b.
type LinearKernel struct{}

func (LinearKernel) Eval(a, b []float64) float64 { return vecmath.Dot(a, b) }
func (LinearKernel) Validate() error             { return nil }
func (LinearKernel) String() string              { return "linear" }
func (LinearKernel) fromDot(d float64) float64   { return d }

// PolynomialKernel is k(a, b) = (Gamma a.b + Coef0)^Degree.
// The zero value means Degree 2, Gamma 1 and Coef0 1.
type PolynomialKernel struct {
	Degree int     // default 2; must be positive
	Gamma  float64 // default 1; must be positive
	Coef0  float64 // default 1 when Degree and Gamma are also zero; must be >= 0
}

func (k PolynomialKernel) params() PolynomialKernel {
	if k.Degree == 0 && k.Gamma == 0 && k.Coef0 == 0 {
		return PolynomialKernel{Degree: 2, Gamma: 1, Coef0: 1}
	}
	if k.Degree == 0 {
		k.Degree = 2
	}
	if k.Gamma == 0 {
		k.Gamma = 1
	}
	return k
}

func (k PolynomialKernel) Eval(a, b []float64) float64 { return k.fromDot(vecmath.Dot(a, b)) }

func (k PolynomialKernel) Validate() error {
	p := k.params()
	if p.Degree < 0 {
		return &ParamError{Name: "polynomial kernel degree", Value: p.Degree, Want: "a positive degree (or zero for 2)"}
	}
	if err := checkPositive("polynomial kernel gamma", p.Gamma); err != nil {
		return err
	}
	if p.Coef0 < 0 || math.IsNaN(p.Coef0) || math.IsInf(p.Coef0, 0) {
		return &ParamError{Name: "polynomial kernel coef0", Value: p.Coef0, Want: "a finite coef0 >= 0, for a positive semi-definite kernel"}
	}
	return nil
}

func (k PolynomialKernel) String() string {
	p := k.params()
	return fmt.Sprintf("polynomial(degree=%d, gamma=%g, coef0=%g)", p.Degree, p.Gamma, p.Coef0)
}

func (k PolynomialKernel) fromDot(d float64) float64 {
	p := k.params()
	v := p.Gamma*d + p.Coef0
	r := 1.0
	for i := 0; i < p.Degree; i++ {
		r *= v
	}
	return r
}

// evalOnly hides a kernel's fast paths: every value comes from Eval.
type evalOnly struct{ Kernel }

func checkKernel(k Kernel) error {
	if k == nil {
		return &ParamError{Name: "Kernel", Value: nil, Want: "a kernel (none given)"}
	}
	return k.Validate()
}
