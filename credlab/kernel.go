package credlab

import (
	"fmt"
	"math"
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

// distKernel is a kernel that is a function of ||a-b||^2.
type distKernel interface {
	fromSqDist(s float64) float64
}

// dotKernel is a kernel that is a function of a.b.
type dotKernel interface {
	fromDot(d float64) float64
}

// GaussianKernel is k(a, b) = exp(-||a-b||^2 / (2 Sigma^2)).
type GaussianKernel struct {
	Sigma float64 // bandwidth; must be positive
}

func (k GaussianKernel) Eval(a, b []float64) float64 { return k.fromSqDist(sqDist(a, b)) }
func (k GaussianKernel) Validate() error             { return checkPositive("Gaussian kernel sigma", k.Sigma) }
func (k GaussianKernel) String() string              { return fmt.Sprintf("gaussian(sigma=%g)", k.Sigma) }
func (k GaussianKernel) fromSqDist(s float64) float64 {
	return math.Exp(-s / (2 * k.Sigma * k.Sigma))
}

// LaplacianKernel is k(a, b) = exp(-||a-b||_2 / Sigma), with the Euclidean
// norm. (scikit-learn's laplacian_kernel uses the L1 norm instead.)
type LaplacianKernel struct {
	Sigma float64 // bandwidth; must be positive
}

func (k LaplacianKernel) Eval(a, b []float64) float64 { return k.fromSqDist(sqDist(a, b)) }
func (k LaplacianKernel) Validate() error             { return checkPositive("Laplacian kernel sigma", k.Sigma) }
func (k LaplacianKernel) String() string              { return fmt.Sprintf("laplacian(sigma=%g)", k.Sigma) }
func (k LaplacianKernel) fromSqDist(s float64) float64 {
	return math.Exp(-math.Sqrt(s) / k.Sigma)
}

// LinearKernel is k(a, b) = a.b.
type LinearKernel struct{}

func (LinearKernel) Eval(a, b []float64) float64 { return dot(a, b) }
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

func (k PolynomialKernel) Eval(a, b []float64) float64 { return k.fromDot(dot(a, b)) }

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

func sqDist(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		t := v - b[i]
		s += t * t
	}
	return s
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

func checkKernel(k Kernel) error {
	if k == nil {
		return &ParamError{Name: "Kernel", Value: nil, Want: "a kernel (none given)"}
	}
	return k.Validate()
}
