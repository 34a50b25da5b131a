// Package cred runs the experiments of the CRED importance-labeling paper
// (Murata and Suzuki, "Gradient Descent in RKHS with Importance Labeling",
// AISTATS 2021) on gota data frames, with the samplers and estimators of
// credlab and the baselines of credlab/baselines.
//
// # Map
//
// Figures 1 and 2 (toy.go):
//
//   - ToyPool: the two-dimensional Gaussian pool of Figures 1 and 2.
//   - CoefficientTrials (TrialSpec) and SpreadOf: repeated least-squares fits
//     on a few labels (Figure 2) and their coefficient cloud for
//     viz.CoefficientSpread.
//
// Figure 3 (benchmark.go):
//
//   - LabelingBenchmark (BenchmarkSpec): the Figure 3 protocol, CRED against
//     KRR, KTR3 and SSSR on a pool and a test set (BenchCRED, BenchKRR,
//     BenchKTR3, BenchSSSR name the methods; BenchCREDTied,
//     BenchCREDDistinct, BenchCREDDraws and BenchGSx the variants run only
//     when named).
//   - Budgets (BudgetSpec, BudgetDefaults; budgets.go): Figure 3's methods
//     at label budgets beyond the paper's, on USPS and Fashion-MNIST, for
//     bench/cmd/credlab-fig3.
//
// Reproduce (reproduce.go) runs the paper's reproduction end to end
// (`credlab reproduce cred`, papers.Reproduce): Figures 1 to 3 in
// fig1_points.csv, fig2_coefficients.csv and fig3.csv, and the report
// reproductions-cred.md beside the paper's findings. data.go reads its
// images (Fashion-MNIST's IDX files and USPS); LabelingBenchmark, Budgets
// and the reproduction share one engine of Figure 3 (benchmark.go, with
// gram.go and features.go).
//
// The conventions of package papers hold: long frames whose columns each
// doc comment lists, defaults at zero Spec fields, the same frame for the
// same Seed on any number of cores.
package cred
