// Package frames is the data-frame face of credlab: it fits, selects,
// predicts and sweeps on gota data frames (github.com/go-gota/gota), loads
// data files into them and converts them to gonum matrices. The algorithms
// are credlab's; figures of these frames are in viz (viz.SweepCurves,
// viz.SweepHeatmap, viz.SelectionFigure, viz.SeriesOf) and the papers'
// experiments in the packages under papers. frames does not import viz or
// a plotting library.
//
// # Map
//
// The four verbs (fit.go, select.go, sweep.go; settings in spec.go):
//
//   - Fit(df, Spec) fits a model. Only Spec.Target is required: by default
//     the features (every column but the target) are standardized
//     on the training rows (a string column among the features is an
//     error naming it unless Spec.OneHot encodes it or Spec.Exclude leaves
//     it out), a constant column is left out with a warning,
//     the target is centered (its mean is the model's intercept), and the
//     automatic method (credlab.Tune) chooses exact or Nyström KRLS, sigma
//     and lambda by 5-fold cross-validation (Spec.Selection: "cv", "gcv",
//     "holdout" or "loo"); Model.Choice and Model.Summary say what was
//     chosen and why, Model.Warnings what the user should know. Spec.Scale
//     "none" and Spec.NoIntercept turn scaling and centering off; a named
//     method ("krls", "kols", "earlystopping", "nkrls", "nytro", "linear",
//     "lineargd", "sgm") takes its own settings, an optional weight column
//     weights any method. String columns are one-hot encoded on request
//     (Spec.OneHot) and rejected otherwise. The model remembers the scaling
//     and the intercept.
//   - Predict(model, df) returns df with a "prediction" column.
//   - Select(pool, budget, SelectSpec) chooses rows to label (CRED,
//     uniform, greedy GSx, or a batch active-learning method of
//     credlab.BatchSelector such as "lcmd", selecting with the kernel tuned
//     on SelectSpec.Labeled's Target labels; SelectSpec.Design: without
//     replacement, the default, with replacement or distinct rows;
//     SelectSpec.Labeled continues a design from rows already labeled,
//     which must hold their pool rows' values: CheckPoolRows, poolrows.go)
//     and returns them with their pool index
//     ("row"), inclusion probability ("prob"; the sampling probability
//     under SelectSpec.Design "replacement") and importance weight
//     ("weight"), and for a batch method or greedy their pool weights
//     ("pool_weight", credlab.PoolWeights); label them, and Fit with
//     Spec.Weight = "weight" (or "pool_weight").
//     Budget(ctx, pool, BudgetSpec) reports, before labeling, the effective
//     dimension, how concentrated the leverage scores are, CRED's variance
//     gain over uniform labeling and learning curves projected from a pilot.
//     Simulate(ctx, table, SimulateSpec) hides the labels of a labeled
//     table and runs the batch labeling loop for every method: learning
//     curves and test RMSE against uniform labeling (docs/labeling.md).
//   - Sweep(df, Spec, Grid) returns one row per parameter setting and
//     lambda or iteration, with training and validation RMSE, the selection
//     criterion and its value, time, and the optimum marked; a lambda path,
//     an iteration path or an SGM run over passes is one solver call. For
//     the automatic method, one row per (sigma, lambda, m) its search
//     evaluated.
//
// Distribution regression (bags.go): FitBags and PredictBags, on package
// credlab/distreg (TwoStageKRR, TailSGD); rows are points, a bag column
// groups them, and each bag has one label.
//
// Model files (modelfile.go): Model.Save and LoadModel, versioned JSON
// (FormatVersion; ErrCorruptModel).
//
// Loading and writing (load.go, csv.go, arff.go, format.go, write.go):
// ReadCSV, ReadARFF, ReadLIBSVM and ReadIDX, their Load variants, which
// read ".gz" files transparently, and LoadData, which picks the format by
// name. A CSV first line that reads as data is an error naming
// CSVOptions.NoHeader; CSVOptions.Whitespace reads fields separated by
// runs of blanks (.dat and .txt tables). ReadCSV is the one reader of
// delimited text: papers reads the staged tables through it too.
// Loading never drops or renames data: a cell that is not a number in a
// numeric column is a *CellError with file, line, column and row (or a
// missing value with CSVOptions.BadAsMissing); duplicated, empty or
// control-character column names are errors; a UTF-8 BOM is stripped.
// WriteCSV writes every float at full precision.
//
// Parquet is read and written by package
// github.com/credlab/credlab/frames/parquet (Read, Load, Write, with Apache
// Arrow's Go module), kept apart so that programs importing frames (the
// notebook kernel among them) do not link Arrow's dependencies. Importing
// it registers the format with LoadData (RegisterFormat); without it a
// Parquet file is a *FormatNotLinkedError saying what to import.
//
// Scores (score.go): Score returns a frame of RMSE, MAE and R^2 of a model
// on rows with the target; PredictWith predicts with a missing-value
// policy (PredictOptions.SkipMissing) and lists the rows skipped.
//
// Conversion (convert.go): ToMatrix, FromMatrix and Column, column by
// column.
//
// Tables (tables.go): Summarize (count, mean, deviation and quantiles by
// group), Pivot, ShowTable (a frame as text or HTML in a notebook),
// SplitRows, Subsample, MinMaxScale, FormatFloat.
//
// # Conventions
//
// No function modifies its input frame. Errors are typed, for errors.As
// and errors.Is rather than the message, and name the problem: a missing
// or misspelt column (*ColumnError, with a suggestion), rows said to be
// a pool's that do not hold its values (*PoolRowsError), a column that
// cannot serve as asked, such as one listed twice, the target among the
// features or strings where numbers are needed (*ColumnProblemError), a
// string feature without OneHot (*StringColumnsError), missing values
// (*MissingError: column and row count, or dropped with Spec.DropNA), a
// bad cell or malformed file (*CellError, *ParseError), a bad setting or
// argument (credlab's *ParamError, whose Name is the field as written:
// "Spec.Sigma", "SelectSpec.Design", "Grid.M[2]", "budget"), a value that
// is not finite (credlab's *NotFiniteError), an allocation over the memory
// limit (credlab's *TooLargeError), an empty frame or model (wrapping
// credlab.ErrEmpty), mismatched sizes (wrapping credlab.ErrShape), a
// corrupt model file (wrapping ErrCorruptModel) or one of another format
// version (*ModelVersionError); corrupt input files are errors, never
// panics. The same Seed gives
// the same result on any number of cores. Costs are credlab's (see its
// package documentation, also for the BLAS backend).
//
// Data path: Fit reads the features from the frame one column at a time
// into the design matrix, checking each value (naming its column and row)
// and standardizing in place; that matrix is the one copy of the rows the
// solvers read. credlab checks it once more at its boundary and nowhere
// after. docs/data-path.md walks it from the command to the solver.
//
// Names: a Spec (Spec, SelectSpec, BudgetSpec, SimulateSpec, BagSpec)
// says what a job on a frame computes, the columns it reads included; an
// Options struct (CSVOptions, LoadOptions, PredictOptions, ...) says how a
// file is read or a model applied. The algorithms' settings underneath are
// credlab's Config structs. A zero field means the documented default in
// all three. The Beam module (credbeam) and the papers' experiments follow
// the same rule.
//
// In a gophernotes notebook, import this package together with gota's
// dataframe and series packages and the project's packages in one import
// block; the API uses no generics and needs no gonum mat import.
package frames
