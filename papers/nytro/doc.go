// Package nytro runs the experiments of the NYTRO paper (Angles,
// Camoriano, Rudi and Rosasco, "NYTRO: When Subsampling Meets Early
// Stopping", AISTATS 2016), section 4, on gota data frames, with credlab's
// exact, Nyström and early-stopping estimators.
//
// # Map
//
//   - Benchmark and BenchmarkContext (Spec): Table 2's methods, and
//     Figure 2's numbers of centers, fitted as `credlab reproduce nytro`
//     fits them (one engine, fitMethod) and scored on a test frame; TimedOf
//     turns the result into viz.TimeAccuracy points.
//   - Exact (exact.go): Table 2's exact methods on the full data sets, for
//     bench/cmd/credlab-nytro-exact.
//
// Reproduce (reproduce.go) runs the paper's reproduction end to end
// (`credlab reproduce nytro`, papers.Reproduce): Table 2 on
// InsuranceCompany (COIL 2000) and Adult (a9a), Figure 2 on cpuSmall and
// the study of the stopping iteration t* (tstar.go), in table2.csv,
// table2_summary.csv, fig2.csv, fig2_summary.csv, paths.csv, tstar.csv and
// the report reproductions-nytro.md beside the paper's numbers
// (report.go).
//
// The conventions of package papers hold: long frames whose columns each
// doc comment lists, defaults at zero Spec fields, the same frame for the
// same seeds on any number of cores.
package nytro
