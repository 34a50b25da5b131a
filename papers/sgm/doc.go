// Package sgm runs the experiments of Lin and Rosasco, "Optimal Learning
// for Multi-pass Stochastic Gradient Methods" (NIPS 2016), section 4, on
// gota data frames, with credlab.SGM and credlab.SGMPopulation.
//
// # Map
//
//   - ErrorDecomposition (DecompositionSpec) and DecompositionOf: the
//     bias, sample and computational variance of Figure 1 against the
//     number of passes, for viz.ErrorDecomposition.
//   - PassErrors (PassSpec): training and test classification error
//     against the number of passes (Figure 2); PassGrid spaces the passes.
//
// Reproduce (reproduce.go) runs the paper's reproduction end to end
// (`credlab reproduce sgm`, papers.Reproduce): Figure 1 in
// fig1_decomposition.csv, Figure 2 on Breast Cancer Wisconsin in
// fig2_breast_cancer.csv, and the report reproductions-sgm.md. It runs the
// engines of ErrorDecomposition and PassErrors; problem.go holds the
// synthetic problem of Figure 1 and passes.go the numbers of passes.
//
// The conventions of package papers hold: long frames whose columns each
// doc comment lists, defaults at zero Spec fields, the same frame for the
// same Seed on any number of cores.
package sgm
