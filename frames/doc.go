// Package frames is the data-frame face of credlab: it fits, selects,
// predicts and sweeps on gota data frames (github.com/go-gota/gota), and
// loads the staged data formats into them.
//
// The four verbs:
//
//   - Fit(df, Spec) fits a model: Spec names the target, the features
//     (default: every numeric column but the target), the method ("krls",
//     "kols", "earlystopping", "nkrls", "nytro", "linear", "lineargd",
//     "sgm") and its settings, and an optional weight column. String columns are
//     one-hot encoded on request (Spec.OneHot) and rejected otherwise;
//     standardization (Spec.Standardize) is remembered by the model.
//   - Predict(model, df) returns df with a "prediction" column.
//   - Select(pool, budget, SelectSpec) chooses rows to label (CRED or
//     uniform) and returns them with their pool index ("row"), sampling
//     probability ("prob") and importance weight ("weight"); label them,
//     and Fit with Spec.Weight = "weight".
//   - Sweep(df, Spec, Grid) returns one row per parameter setting and
//     lambda or iteration, with training and validation RMSE, time, and the
//     optimum marked; a lambda path, an iteration path or an SGM run over
//     passes is one solver call.
//
// FitBags and PredictBags do distribution regression: rows are points, a
// bag column groups them, and each bag has one label.
//
// Models are saved and loaded as versioned JSON (Model.Save, Load).
// ToMatrix, FromMatrix and Column convert between frames and gonum
// matrices column by column. ReadCSV, ReadARFF, ReadLIBSVM and ReadIDX
// (and their Load variants, which read ".gz" files transparently) parse
// the staged formats; corrupt input is an error, never a panic. WriteCSV
// writes a frame back with every float at full precision.
//
// Tables: Summarize (mean, deviation and quantiles by group), Pivot,
// ShowTable (a frame as text or HTML in a notebook), SplitRows, Subsample
// and MinMaxScale; FeatureColumns lists the columns Fit would use.
// Figures of these frames are in the viz package (viz.SweepCurves,
// viz.SweepHeatmap, viz.SelectionFigure, viz.SeriesOf); the papers'
// experiments are in the papers package. frames does not import viz.
//
// Errors name the problem: an empty frame, a missing or misspelt column
// (with a suggestion), a string feature without OneHot, missing values
// (column and row count, or dropped with Spec.DropNA), the target among
// the features, an unknown method, a budget beyond the pool for sampling
// without replacement, a corrupt model file. No function modifies its
// input frame.
//
// In a gophernotes notebook, import this package together with gota's
// dataframe and series packages and the project's packages in one import
// block; the API uses no generics and needs no gonum mat import.
package frames
