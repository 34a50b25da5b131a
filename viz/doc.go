// Package viz draws credlab's figures as SVG with gonum.org/v1/plot.
//
// Every constructor returns a *Figure, whose SVG method returns the
// document and PNG a 120-dpi image of it: the gophernotes kernel displays
// a cell's value with SVG() and PNG() methods as both, and Jupyter shows
// the SVG in a trusted notebook and the PNG in one that is not (so a
// figure never disappears). WriteSVG, WritePNG or WriteTo save it. The same
// inputs give the same bytes. Show stacks several figures into one (the
// way to display figures made in a loop); a nil *Figure displays as a
// message saying that its constructor returned an error.
//
// Figures read at a glance: at least four labeled ticks per axis, the
// best chosen model ringed once and named in the title with
// Options.Data, legends beside the plot or, when wider than a quarter of
// the figure, in columns below it.
//
// Figures, each with readable defaults at notebook width (8 x 5 inches,
// text of 11 points and more, legends beside the plot) that Options
// overrides:
//
//   - LearningCurves: training and validation error against iterations or
//     passes, for one or several methods (Curve, CurveFromFit);
//   - RegularizationPath: error against lambda on a log axis;
//   - Heatmap: a value over two parameters (Grid), such as a sweep's
//     validation RMSE over sigma and lambda;
//   - SelectionScatter: the pool and the chosen points sized by weight
//     (the CRED paper's Fig. 1);
//   - CoefficientSpread: repeated coefficient estimates, CRED against
//     uniform (Fig. 2);
//   - NoiseCurves: test RMSE against label noise, log-log (Fig. 3), and
//     Lines for any set of series with error bars;
//   - ErrorDecomposition: bias, sample variance and computational variance
//     against passes (Lin and Rosasco's Fig. 1);
//   - TimeAccuracy: time against error per method (the NYTRO paper's
//     Table 2; Timed, TimedFromFit);
//   - PredictedActual: predictions against true values;
//   - Relevance: the learned relevance of each column (frames.Model.Relevance), one bar per column.
//
// Inputs are plain Go slices and credlab results (*credlab.Fit,
// *credlab.Selection). From gota data frames (frames.go): SweepCurves and
// SweepHeatmap turn a frames.Sweep result into Curve and Grid values,
// SelectionFigure draws a frames.Select result over its pool, and SeriesOf
// turns a long table into Series. (viz imports frames; frames does not
// import viz.)
//
// Bad input (mismatched lengths, nothing finite to draw, a non-positive
// value on a log axis) is an error, never a panic.
package viz
