// Package frames is the data-frame face of credlab: it fits, selects,
// predicts and sweeps on gota data frames (github.com/go-gota/gota), and
// loads the staged data formats into them.
//
// The four verbs:
//
//   - Fit(df, Spec) fits a model. Only Spec.Target is required: by default
//     the features (every numeric column but the target) are standardized
//     on the training rows, a constant column is left out with a warning,
//     the target is centered (its mean is the model's intercept), and the
//     automatic method (credlab.Tune) chooses exact or Nyström KRLS, sigma
//     and lambda by generalized cross-validation (Spec.Selection: "gcv",
//     "holdout" or "loo"); Model.Choice and Model.Summary say what was
//     chosen and why, Model.Warnings what the user should know. Spec.Scale
//     "none" and Spec.NoIntercept turn scaling and centering off; a named
//     method ("krls", "kols", "earlystopping", "nkrls", "nytro", "linear",
//     "lineargd", "sgm") takes its own settings, an optional weight column
//     weights any method. String columns are one-hot encoded on request
//     (Spec.OneHot) and rejected otherwise. The model remembers the scaling
//     and the intercept.
//   - Predict(model, df) returns df with a "prediction" column.
//   - Select(pool, budget, SelectSpec) chooses rows to label (CRED or
//     uniform) and returns them with their pool index ("row"), sampling
//     probability ("prob") and importance weight ("weight"); label them,
//     and Fit with Spec.Weight = "weight".
//   - Sweep(df, Spec, Grid) returns one row per parameter setting and
//     lambda or iteration, with training and validation RMSE, the selection
//     criterion and its value, time, and the optimum marked; a lambda path,
//     an iteration path or an SGM run over passes is one solver call. For
//     the automatic method, one row per (sigma, lambda, m) its search
//     evaluated.
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
