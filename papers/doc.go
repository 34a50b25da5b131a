// Package papers runs the experiments of the four papers behind credlab on
// gota data frames: one package per paper, named as `credlab reproduce`
// names it, and here the papers' data sets and the registry of their
// reproductions. It is what the notebooks in notebooks/ and `credlab
// reproduce` call; programs that only fit, select and predict need frames
// (and credlab), not these packages.
//
// # Map
//
// The papers:
//
//   - papers/cred, CRED importance labeling (Murata and Suzuki, AISTATS
//     2021): cred.ToyPool, cred.CoefficientTrials and cred.SpreadOf
//     (Figures 1 and 2), cred.LabelingBenchmark (Figure 3) and
//     cred.Budgets (Figure 3's methods at other label budgets).
//   - papers/sgm, multi-pass SGM (Lin and Rosasco, NIPS 2016):
//     sgm.ErrorDecomposition and sgm.DecompositionOf (Figure 1),
//     sgm.PassErrors and sgm.PassGrid (Figure 2).
//   - papers/distreg, distribution regression (Szabó et al., JMLR 2016,
//     and Mücke, AISTATS 2021) with the methods of package credlab/distreg:
//     distreg.EntropyBags and distreg.EntropyBenchmark.
//   - papers/nytro, NYTRO (Angles et al., AISTATS 2016): nytro.Benchmark
//     (Table 2 and Figure 2), nytro.TimedOf and nytro.Exact (Table 2's
//     exact methods on the full data sets).
//
// Each of them has a Reproduce, in its reproduce.go, that runs the paper's
// reproduction end to end, writing each figure's or table's CSV and a
// report, reproductions-PAPER.md, beside the numbers the paper gives.
//
// This package:
//
//   - The papers' data sets (staged.go): LoadStaged reads a data set staged
//     in the project's data directory by name (StagedNames,
//     DescribeStaged), with features x1 ... xd and the target
//     StagedTarget.
//   - Reproduce (reproduce.go) runs one paper's reproduction by name (what
//     `credlab reproduce PAPER` calls; Reproductions lists the papers).
//
// What the papers' packages share and is not API is in papers/internal:
// the readers of the staged files (internal/staged), the command line,
// CSV files and number formats of the reports (internal/report) and the
// tests' helpers (internal/papertest). Imports go one way: papers imports
// the papers' packages, and they never import papers.
//
// Conventions. Every experiment returns a long frame, one row per method,
// setting and repetition, ready for frames.Summarize, frames.Pivot and
// viz.SeriesOf; its doc comment lists the columns. Spec structs take
// defaults at zero fields (the papers' values, given in each field's
// comment). The same Seed gives the same frame on any number of cores.
// Inputs are checked once, where a frame enters (empty frames, missing
// columns, NaN), and errors name the frame and column. The linear algebra
// runs on the BLAS credlab installs (see credlab's package documentation).
package papers
