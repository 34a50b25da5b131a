// Package datasets reads numeric data sets from text files into gonum
// matrices: one row per example in an n x d *mat.Dense and the targets in a
// []float64 of length n.
//
// Three formats are supported:
//
//   - LIBSVM / svmlight sparse rows, "<label> <index>:<value> ...", with
//     1-based, strictly increasing indices (ReadLIBSVM, LoadLIBSVM);
//   - Weka ARFF with numeric attributes, dense or sparse "{i v, ...}" data
//     rows and a target attribute chosen by name (ReadARFF, LoadARFF), on
//     top of the one ARFF parser, ReadARFFColumns, which also reads
//     nominal, string and date attributes for frames.ReadARFF;
//   - IDX arrays (ReadIDX, LoadIDX, LoadMNIST).
//
// Delimited text (CSV, TSV, fields separated by blanks) has one reader,
// frames.ReadCSV; this package gives it the shared checks (CheckHeader,
// CellError, MaxElements, PartialTooLarge). The Load functions open a path
// and decompress it transparently when the name ends in ".gz" (Open).
//
// Every loader checks its input and never panics on corrupt data: an error
// is a *ParseError naming the file, the line (1-based; 0 for a problem with
// the file as a whole) and the problem, or a *CellError for a LIBSVM or
// ARFF value that is not a finite number, with its line, column and row.
// Values must be finite numbers; missing values ("?", "NA", empty fields)
// are reported, not imputed (frames reads them, and with BadAsMissing bad
// values, as NaN through Options). A result larger than MaxElements values
// is refused before it is allocated, and so is one over the memory limit
// (credlab.EffectiveMemoryLimit, internal/memlimit), with a *errs.TooLargeError: the
// loaders check the sizes a header declares (IDX) or the rows read so far,
// and the dense matrix they build, before allocating.
package datasets
