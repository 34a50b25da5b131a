// Package distreg runs the supervised entropy-learning benchmark of
// distribution regression on gota data frames: the synthetic task of
// Szabó, Sriperumbudur, Póczos and Gretton ("Learning Theory for
// Distribution Regression", JMLR 2016), which Mücke ("Stochastic Gradient
// Descent Meets Distribution Regression", AISTATS 2021) builds on. The
// methods are those of package credlab/distreg, which this package imports
// under the same name: distreg.TwoStageKRR and distreg.TailSGD in its
// documentation are credlab/distreg's.
//
// # Map
//
//   - EntropyBags: bags of rotated Gaussian points labeled with their
//     entropy (problem.go draws them).
//   - EntropyBenchmark (EntropySpec): test error against the bag size and
//     the number of bags.
//
// Reproduce (reproduce.go) runs the reproduction end to end (`credlab
// reproduce distreg`, papers.Reproduce): test RMSE against the bag size N
// in distreg_vs_N.csv and against the number of training bags n in
// distreg_vs_n.csv, with the report reproductions-distreg.md. It runs the
// engine of EntropyBenchmark.
//
// The conventions of package papers hold: long frames whose columns each
// doc comment lists, defaults at zero Spec fields, the same frame for the
// same Seed on any number of cores.
package distreg
