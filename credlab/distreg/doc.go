// Package distreg is distribution regression: learning one real label per
// bag of points, each bag a sample of N_j points x_{j,1..N_j} in R^d from
// an unobserved distribution, through kernel mean embeddings (Mücke,
// "Stochastic Gradient Descent Meets Distribution Regression", AISTATS
// 2021, ../shared/papers/sgd-distribution-regression.txt; the two-stage
// KRR baseline of Szabó, Sriperumbudur, Póczos and Gretton, JMLR 2016). It
// is built on package credlab's kernels, feature maps, hold-out split and
// solvers, and returns credlab's PathPoint and Timing in its Fit.
//
// Files:
//
//   - bags.go: Bags, the input (points X[j] and labels Y[j] of n bags;
//     NewBags checks them in O(sum_j N_j d)).
//   - embedding.go: Kernel, an outer kernel K (OuterKernel: LinearOuter,
//     K = <mu_a, mu_b>, or GaussianOuter, exp(-||mu_a - mu_b||^2 /
//     (2 sigma^2))) on the mean embeddings mu_a = (1/N_a) sum_i
//     G(x_{a,i}, .) of an inner kernel G, exact (EmbeddingGram:
//     <mu_a, mu_b> = (1/(N_a N_b)) sum_i sum_j G(a_i, b_j), O(N_a N_b d)
//     per pair) or through a feature map's mean features (MeanFeatures,
//     O(N D d) per bag, then O(D) per pair). Kernel.Gram is the n_a x n_b
//     matrix K(mu_{a_i}, mu_{b_j}).
//   - distreg.go: Model (f(mu) = sum_j Coef_j K(mu, mu_j), Predict) and
//     Fit, the result of the two estimators:
//     TwoStageKRR, kernel ridge regression on the embeddings,
//     alpha = (K + lambda n I)^-1 y, lambda fixed or chosen on a hold-out
//     split of the bags (credlab's KRLS solver: O(n^3/3) per lambda, one
//     O(10/3 n^3) reduction for grids of 30 or more); and TailSGD,
//     tail-averaged mini-batch SGD,
//     h_{t+1} = h_t - eta (1/b) sum_i (h_t(mu_{j_i}) - y_{j_i}) K(mu_{j_i}, .)
//     from h_0 = 0, returning (1/(T - floor(T/2))) sum_{t > T/2} h_t, with
//     (b, eta, T) from Mücke's Corollaries 3.5-3.7 (TailSGDSchedule) and T
//     chosen on a hold-out split (credlab's SGM iteration: O(b n_a) per
//     step on the cached Gram of n_a training and validation bags).
//   - checks.go: credlab's shape, memory and parameter checks, with its
//     messages.
//   - entropy.go: EntropyProblem, the synthetic task of the papers (bags of
//     rotated 2-D Gaussians labeled with the entropy of their first
//     coordinate), used by the examples, the benchmarks and the
//     reproduction in papers/distreg.
//
// Costs: the Gram matrix dominates with exact embeddings, O(n^2 N^2 d) for
// n bags of N points, O(n^2) memory; with D mean features, O(n N D d +
// n^2 D).
//
// Errors are credlab's types (credlab.ParamError, credlab.ErrShape,
// credlab.NotFiniteError, credlab.DivergedError, ...), matched with
// errors.As and errors.Is as for credlab's own methods. Configs take
// documented defaults at their zero value, except the Kernel, which is
// required. Results depend only on the Seed fields, not on the number of
// cores.
package distreg
