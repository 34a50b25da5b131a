// Package staged reads the papers' data sets as the project stages them in
// its data directory (../shared/data; see its README). The papers'
// packages read their data through it, and package papers turns a set into
// data frames (papers.LoadStaged).
//
// # Map
//
//   - Sets (staged.go): the registry of named data sets, each with its
//     files, a description and a loader returning training and test
//     matrices; Names lists them. USPS and BreastCancer read two of them
//     with their labels as the papers use them.
//   - known.go: the file formats, COIL2000 and A9A (TrainTest, a fixed
//     split), CPUSmall, USPSFile (one USPS file), all of them also read
//     gzip-compressed.
//   - Rows (rows.go): a subset of the rows of a data set.
package staged
