// Package baselines holds the two baselines of the CRED paper (Importance
// labeling, ../shared/papers/cred-importance-labeling*.txt, Section 6:
// "KTR3 (Jun et al., 2019) and SSSR (Ji et al., 2012)"), built on the
// exported API of package credlab and returning its Fit and Model.
//
// Files:
//
//   - ktr3.go: KTR3, kernel truncated randomized ridge regression: k
//     uniform on {0, ..., n-1}, ridge on the first k rows,
//     f_k = argmin sum_{i<=k} (f(x_i) - y_i)^2 + lambda n ||f||^2, predicted
//     through the truncation max(-Y, min(Y, f_k(x))) (KTR3Fit). O(k D^2 +
//     D^3/3) in the feature form, O(k^2 d + k^3/3) in the kernel form.
//   - sssr_basis.go: NewSSSRBasis, the eigen-system of an unlabeled pool:
//     the eigenfunctions psi_i, orthonormal in L2 of the pool, of Phi^T
//     Phi / N (O(N D^2 + D^3)) or, Nyström-extended, of K / N (O(N^2 d +
//     N^3)); SSSRBasis.Transform evaluates the top s of them.
//   - sssr.go: SSSR, simple semi-supervised regression: least squares
//     f = sum_{i<=s} gamma_i psi_i on the labeled rows (minimum-norm, or
//     ridge with Lambda > 0), O(n D s + n s^2) given the basis.
//   - gram.go: A^T A by a symmetric rank-k update, O(n p^2), shared by
//     both methods.
//   - checks.go: credlab's input and memory checks, with its messages.
//
// Errors are credlab's types (credlab.ParamError, credlab.ErrShape, ...),
// matched with errors.As and errors.Is as for credlab's own methods.
package baselines
