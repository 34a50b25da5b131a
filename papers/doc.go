// Package papers runs the experiments of the four papers behind credlab on
// gota data frames. Files carry the paper's prefix: PAPER.go holds its
// exported experiments, PAPER_*.go their parts (data, problems, features,
// report) and PAPER_reproduce.go its end-to-end reproduction; rows.go,
// reproduce.go and staged.go are shared. It is what the notebooks in
// notebooks/ and `credlab reproduce` call; programs that only fit, select
// and predict need frames (and credlab), not this package.
//
// CRED importance labeling (Murata and Suzuki, AISTATS 2021; cred.go):
//
//   - CREDToyPool: the two-dimensional Gaussian pool of Figures 1 and 2.
//   - CoefficientTrials (TrialSpec) and SpreadOf: repeated least-squares fits
//     on a few labels (Figure 2) and their coefficient cloud for
//     viz.CoefficientSpread.
//   - LabelingBenchmark (BenchmarkSpec): the Figure 3 protocol, CRED against
//     KRR, KTR3 and SSSR on a pool and a test set (BenchCRED, BenchKRR,
//     BenchKTR3, BenchSSSR name the methods).
//   - CREDBudgets (CREDBudgetSpec, CREDBudgetDefaults; cred_measure.go):
//     Figure 3's methods at label budgets beyond the paper's, for
//     bench/cmd/credlab-fig3.
//
// Multi-pass SGM (Lin and Rosasco, NIPS 2016; sgm.go):
//
//   - SGMErrorDecomposition (DecompositionSpec) and DecompositionOf: the
//     bias, sample and computational variance of Figure 1, for
//     viz.ErrorDecomposition.
//   - SGMPassErrors (PassSpec): training and test classification error
//     against the number of passes (Figure 2); PassGrid spaces the passes.
//
// Distribution regression (Szabó et al., JMLR 2016, and Mücke, AISTATS
// 2021; distreg.go), on package credlab/distreg:
//
//   - EntropyBags: bags of rotated Gaussian points labeled with their
//     entropy.
//   - EntropyBenchmark (EntropySpec): test error against the bag size and
//     the number of bags.
//
// NYTRO (Camoriano et al., AISTATS 2016; nytro.go):
//
//   - NYTROBenchmark (NYTROSpec): Table 2's methods, and Figure 2's
//     numbers of centers, fitted as `credlab reproduce nytro` fits them
//     (one engine, nytFit) and scored on a test frame; TimedOf turns the
//     result into viz.TimeAccuracy points.
//   - NYTROExact (nytro_measure.go): Table 2's exact methods on the full
//     data sets, for bench/cmd/credlab-nytro-exact.
//
// The papers' data sets (staged.go): LoadStaged reads a data set staged in
// the project's data directory by name (StagedNames, DescribeStaged), with
// features x1 ... xd and the target StagedTarget.
//
// Reproductions: Reproduce runs one paper's reproduction end to end (what
// `credlab reproduce PAPER` calls; Reproductions lists the papers), writing
// each figure's or table's CSV and a report, reproductions-PAPER.md, beside
// the numbers the paper gives. Each lives in PAPER_reproduce.go.
//
// Conventions. Every experiment returns a long frame, one row per method,
// setting and repetition, ready for frames.Summarize, frames.Pivot and
// viz.SeriesOf; its doc comment lists the columns. Spec structs take
// defaults at zero fields (the papers' values, given in each field's
// comment). The same Seed gives the same frame on any number of cores.
// Inputs are checked once here (empty frames, missing columns, NaN) and
// errors name the frame and column. The linear algebra runs on the BLAS
// credlab installs (see credlab's package documentation).
package papers
