package distreg

import (
	"context"
	"fmt"
	"math"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/internal/parallel"
	"github.com/credlab/credlab/internal/vecmath"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// OuterKernel is a kernel K(mu_a, mu_b) between mean embeddings in the
// RKHS H_G of an inner kernel G, computed from their inner product and
// squared norms.
type OuterKernel interface {
	// FromEmbeddings returns K given ab = <mu_a, mu_b>, aa = ||mu_a||^2
	// and bb = ||mu_b||^2, all in H_G.
	FromEmbeddings(ab, aa, bb float64) float64
	// Validate reports a parameter outside the kernel's domain.
	Validate() error
	// String names the kernel and its parameters.
	String() string
}

// LinearOuter is K(mu_a, mu_b) = <mu_a, mu_b>_{H_G}: with exact
// embeddings, the mean of G over all pairs of points of the two bags (the
// set kernel).
type LinearOuter struct{}

func (LinearOuter) FromEmbeddings(ab, _, _ float64) float64 { return ab }
func (LinearOuter) Validate() error                         { return nil }
func (LinearOuter) String() string                          { return "linear" }

// GaussianOuter is K(mu_a, mu_b) = exp(-||mu_a - mu_b||^2_{H_G} / (2 Sigma^2)),
// with ||mu_a - mu_b||^2 = ||mu_a||^2 + ||mu_b||^2 - 2 <mu_a, mu_b> (clamped
// at 0 against rounding).
type GaussianOuter struct {
	Sigma float64 // bandwidth on the embedding distance; must be positive
}

func (k GaussianOuter) FromEmbeddings(ab, aa, bb float64) float64 {
	return math.Exp(-math.Max(aa+bb-2*ab, 0) / (2 * k.Sigma * k.Sigma))
}
func (k GaussianOuter) Validate() error { return checkPositive("Gaussian outer kernel sigma", k.Sigma) }
func (k GaussianOuter) String() string  { return fmt.Sprintf("gaussian-outer(sigma=%g)", k.Sigma) }

// Kernel is the kernel between bags used by distribution regression: an
// outer kernel K on the empirical mean embeddings
// mu_a = (1/N_a) sum_i G(x_{a,i}, .) of an inner kernel G on R^d.
//
// With Features nil the embeddings are exact and
// <mu_a, mu_b>_{H_G} = (1/(N_a N_b)) sum_i sum_j G(a_i, b_j), which costs
// O(N_a N_b d) per pair of bags (EmbeddingGram). With a feature map phi,
// such as the random Fourier features of a Gaussian G
// (credlab.NewRandomFourier), the embedding is the explicit vector
// (1/N_a) sum_i phi(a_i), O(N_a D d) per bag (MeanFeatures), and
// <mu_a, mu_b> is a dot product, O(D) per pair.
type Kernel struct {
	// Inner is G, required when Features is nil (and then ignored).
	Inner credlab.Kernel
	// Features, if not nil, replaces the exact embeddings by mean features.
	Features credlab.FeatureMap
	// Outer is K; default LinearOuter{}.
	Outer OuterKernel
}

func (k Kernel) outer() OuterKernel {
	if k.Outer == nil {
		return LinearOuter{}
	}
	return k.Outer
}

// Validate reports a missing inner kernel or an invalid parameter.
func (k Kernel) Validate() error {
	if k.Features == nil {
		if k.Inner == nil {
			return &credlab.ParamError{Name: "Kernel.Inner", Value: nil, Want: "an inner kernel G, or a feature map in Kernel.Features"}
		}
		if err := k.Inner.Validate(); err != nil {
			return err
		}
	}
	return k.outer().Validate()
}

// String names the inner and outer kernels.
func (k Kernel) String() string {
	in := "features"
	if k.Features == nil && k.Inner != nil {
		in = k.Inner.String()
	} else if rf, ok := k.Features.(*credlab.RandomFourier); ok {
		in = fmt.Sprintf("random-fourier(D=%d)", len(rf.B))
	}
	return fmt.Sprintf("%s on mean embeddings of %s", k.outer(), in)
}

// Gram returns the n_a x n_b matrix K(mu_{a_i}, mu_{b_j}); with b nil it
// returns the exactly symmetric K(mu_{a_i}, mu_{a_j}). Exact embeddings
// cost O(sum_i sum_j N_i N_j d) (half that when symmetric, plus the norms
// of b's bags for a Gaussian outer kernel); mean features cost O(n D d)
// points-by-features plus O(n_a n_b D). Memory is the O(n_a n_b) result.
func (k Kernel) Gram(ctx context.Context, a, b *Bags) (*mat.Dense, error) {
	if err := k.Validate(); err != nil {
		return nil, err
	}
	if err := checkBags(a, false); err != nil {
		return nil, err
	}
	if b != nil {
		if err := checkBags(b, false); err != nil {
			return nil, err
		}
		if a.Dim() != b.Dim() {
			return nil, shapef("bags of dimension %d and %d", a.Dim(), b.Dim())
		}
	}
	ea, err := k.embed(ctx, a, b != nil)
	if err != nil {
		return nil, err
	}
	var eb *embedding
	if b != nil {
		if eb, err = k.embed(ctx, b, true); err != nil {
			return nil, err
		}
	}
	return k.gram(ctx, ea, eb)
}

// EmbeddingGram returns the n_a x n_b matrix of exact inner products
// <mu_{a_i}, mu_{b_j}>_{H_G} = (1/(N_i N_j)) sum_s sum_t G(a_{i,s}, b_{j,t})
// between the empirical mean embeddings of the inner kernel g. With b nil
// it returns the symmetric Gram of a, computing each pair once.
//
// Each pair costs O(N_i N_j d) and is summed by one goroutine in a fixed
// order, so the result does not depend on GOMAXPROCS; pairs run in
// parallel. Memory is the O(n_a n_b) result.
func EmbeddingGram(ctx context.Context, g credlab.Kernel, a, b *Bags) (*mat.Dense, error) {
	return Kernel{Inner: g}.Gram(ctx, a, b)
}

// MeanFeatures returns the n x D matrix whose row j is the mean feature
// vector (1/N_j) sum_i phi(x_{j,i}) of bag j: with *credlab.RandomFourier,
// the random-feature approximation of the Gaussian kernel's mean
// embedding, so that row_a . row_b approximates EmbeddingGram's entry. It
// calls fm on blocks of stacked points: O(sum_j N_j) feature evaluations
// (O(N D d) per bag for random Fourier features) and O(block D) working
// memory.
func MeanFeatures(ctx context.Context, fm credlab.FeatureMap, bags *Bags) (*mat.Dense, error) {
	if fm == nil {
		return nil, &credlab.ParamError{Name: "fm", Value: nil, Want: "a feature map"}
	}
	if err := checkBags(bags, false); err != nil {
		return nil, err
	}
	return meanFeatures(ctx, fm, bags)
}

// meanFeaturesBlock is the number of points featurized per call.
const meanFeaturesBlock = 4096

func meanFeatures(ctx context.Context, fm credlab.FeatureMap, bags *Bags) (*mat.Dense, error) {
	n, d := bags.Len(), bags.Dim()
	var out *mat.Dense
	D := -1
	for lo := 0; lo < n; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Stack whole bags until the block is full.
		hi, pts := lo, 0
		for hi < n && (hi == lo || pts+bags.X[hi].RawMatrix().Rows <= meanFeaturesBlock) {
			pts += bags.X[hi].RawMatrix().Rows
			hi++
		}
		stack := mat.NewDense(pts, d, nil)
		r := 0
		for j := lo; j < hi; j++ {
			nj := bags.X[j].RawMatrix().Rows
			stack.Slice(r, r+nj, 0, d).(*mat.Dense).Copy(bags.X[j])
			r += nj
		}
		f, err := fm.Features(stack)
		if err != nil {
			return nil, err
		}
		fr := f.RawMatrix()
		if fr.Rows != pts {
			return nil, shapef("the feature map returned %d rows for %d points", fr.Rows, pts)
		}
		if D < 0 {
			D = fr.Cols
			if err := checkAlloc("mean feature matrix", n, D); err != nil {
				return nil, err
			}
			out = mat.NewDense(n, D, nil)
		} else if err := checkDims("the feature map's output", fr.Cols, D); err != nil {
			return nil, err
		}
		r = 0
		for j := lo; j < hi; j++ {
			nj := bags.X[j].RawMatrix().Rows
			dst := out.RawRowView(j)
			for i := r; i < r+nj; i++ {
				for c, v := range fr.Data[i*fr.Stride : i*fr.Stride+D] {
					dst[c] += v
				}
			}
			inv := 1 / float64(nj)
			for c := range dst {
				dst[c] *= inv
			}
			r += nj
		}
		lo = hi
	}
	return out, nil
}

// embedding is a set of mean embeddings: the bags themselves (exact) or
// their mean features, with the squared norms ||mu_j||^2 when needed.
type embedding struct {
	bags  *Bags      // exact embeddings; nil with features
	feats *mat.Dense // n x D mean features; nil when exact
	norms []float64  // nil when not computed
}

func (e *embedding) len() int {
	if e.feats != nil {
		return e.feats.RawMatrix().Rows
	}
	return e.bags.Len()
}

// embed computes the mean features (feature mode) and, if norms is set
// and the outer kernel needs them, the squared norms of the embeddings.
func (k Kernel) embed(ctx context.Context, b *Bags, norms bool) (*embedding, error) {
	e := &embedding{}
	if k.Features != nil {
		f, err := meanFeatures(ctx, k.Features, b)
		if err != nil {
			return nil, err
		}
		e.feats = f
	} else {
		e.bags = b
	}
	if _, lin := k.outer().(LinearOuter); norms && !lin {
		e.norms = make([]float64, e.len())
		if e.feats != nil {
			for j := range e.norms {
				r := e.feats.RawRowView(j)
				e.norms[j] = vecmath.Dot(r, r)
			}
		} else {
			parallel.Rows(len(e.norms), func(lo, hi int) {
				for j := lo; j < hi && ctx.Err() == nil; j++ {
					x := b.X[j].RawMatrix()
					e.norms[j] = pairMean(k.Inner, x, x)
				}
			})
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
	}
	return e, nil
}

// gram returns K(mu_a, mu_b) (b nil: symmetric, filling a's norms from the
// diagonal when needed).
func (k Kernel) gram(ctx context.Context, a, b *embedding) (*mat.Dense, error) {
	ip, err := k.innerProducts(ctx, a, b)
	if err != nil {
		return nil, err
	}
	out := k.outer()
	if _, lin := out.(LinearOuter); lin {
		return ip, nil
	}
	raw := ip.RawMatrix()
	an, bn := a.norms, a.norms
	if b != nil {
		bn = b.norms
	} else if an == nil {
		an = make([]float64, raw.Rows)
		for i := range an {
			an[i] = raw.Data[i*raw.Stride+i]
		}
		a.norms, bn = an, an
	}
	parallel.Rows(raw.Rows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
			for j, v := range row {
				row[j] = out.FromEmbeddings(v, an[i], bn[j])
			}
		}
	})
	return ip, nil
}

// innerProducts returns <mu_{a_i}, mu_{b_j}> (b nil: a with itself).
func (k Kernel) innerProducts(ctx context.Context, a, b *embedding) (*mat.Dense, error) {
	na, nb := a.len(), a.len()
	if b != nil {
		nb = b.len()
	}
	if err := checkAlloc("bag Gram matrix", na, nb); err != nil {
		return nil, err
	}
	dst := mat.NewDense(na, nb, nil)
	d := dst.RawMatrix()
	if a.feats != nil {
		ar := a.feats.RawMatrix()
		if b == nil {
			blas64.Syrk(blas.NoTrans, 1, ar, 0, blas64.Symmetric{N: na, Stride: d.Stride, Data: d.Data, Uplo: blas.Lower})
			parallel.MirrorLower(d)
		} else {
			if err := checkDims("the mean features", b.feats.RawMatrix().Cols, ar.Cols); err != nil {
				return nil, err
			}
			blas64.Gemm(blas.NoTrans, blas.Trans, 1, ar, b.feats.RawMatrix(), 0, d)
		}
		return dst, nil
	}
	bb := a.bags
	if b != nil {
		bb = b.bags
	}
	parallel.Rows(na, func(lo, hi int) {
		for i := lo; i < hi && ctx.Err() == nil; i++ {
			xi := a.bags.X[i].RawMatrix()
			row := d.Data[i*d.Stride : i*d.Stride+nb]
			if b == nil {
				for j := 0; j <= i; j++ {
					row[j] = pairMean(k.Inner, xi, bb.X[j].RawMatrix())
				}
				continue
			}
			for j := range row {
				row[j] = pairMean(k.Inner, xi, bb.X[j].RawMatrix())
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if b == nil {
		parallel.MirrorLower(d)
	}
	return dst, nil
}

// pairMean returns (1/(N_a N_b)) sum_i sum_j g(a_i, b_j), summing in row
// order, with squared distances computed directly (not in Gram form): for
// an isotropic GaussianKernel exp(c ||a_i - b_j||^2) with the constant
// c = -1/(2 sigma^2) computed once, as credlab's own pairwise loops do, and
// g.Eval for every other kernel. O(N_a N_b d).
func pairMean(g credlab.Kernel, a, b blas64.General) float64 {
	s := 0.0
	if gk, ok := g.(credlab.GaussianKernel); ok && gk.Scales == nil {
		c := -1 / (2 * gk.Sigma * gk.Sigma)
		for i := 0; i < a.Rows; i++ {
			ai := a.Data[i*a.Stride : i*a.Stride+a.Cols]
			for j := 0; j < b.Rows; j++ {
				s += math.Exp(c * vecmath.SqDist(ai, b.Data[j*b.Stride:j*b.Stride+b.Cols]))
			}
		}
	} else {
		for i := 0; i < a.Rows; i++ {
			ai := a.Data[i*a.Stride : i*a.Stride+a.Cols]
			for j := 0; j < b.Rows; j++ {
				s += g.Eval(ai, b.Data[j*b.Stride:j*b.Stride+b.Cols])
			}
		}
	}
	return s / (float64(a.Rows) * float64(b.Rows))
}
