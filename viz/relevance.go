package viz

import (
	"fmt"
	"math"

	"github.com/credlab/credlab/frames"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Relevance draws one horizontal bar per column, its learned relevance (the
// kernel's scale for the column relative to the largest, in [0, 1]), in
// the order given (frames.Model.Relevance: the most relevant first, drawn
// at the top); at most 30 columns are drawn, the title says so.
//
//	fig, err := viz.Relevance(model.Relevance(), viz.Options{})
func Relevance(rel []frames.ColumnRelevance, opt Options) (*Figure, error) {
	if len(rel) == 0 {
		return nil, fmt.Errorf("viz: relevance: no columns (a model with one shared kernel scale has no per-column relevance)")
	}
	columns := make([]string, len(rel))
	relevance := make([]float64, len(rel))
	for i, r := range rel {
		if !(r.Relevance >= 0 && r.Relevance <= 1) {
			return nil, fmt.Errorf("viz: relevance of column %q is %v: want a value in [0, 1]", r.Column, r.Relevance)
		}
		columns[i], relevance[i] = r.Column, r.Relevance
	}
	const most = 30
	k := min(len(columns), most)
	title := "Learned relevance of each column"
	if len(columns) > most {
		title = fmt.Sprintf("Learned relevance: the %d most relevant of %d columns", most, len(columns))
	}
	if opt.Height == 0 {
		opt.Height = math.Max(3, 1.2+0.28*float64(k))
	}
	b := newBuilder(opt, title, "relevance (kernel scale / largest)", "")
	vals := make(plotter.Values, k)
	names := make([]string, k)
	for i := 0; i < k; i++ { // the first row at the top
		vals[k-1-i] = relevance[i]
		names[k-1-i] = columns[i]
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(math.Min(16, 200/float64(k))))
	if err != nil {
		return nil, fmt.Errorf("viz: relevance: %v", err)
	}
	bars.Horizontal = true
	bars.Color = Color(0)
	bars.LineStyle.Width = 0
	b.p.Add(bars)
	b.p.NominalY(names...)
	b.p.X.Min, b.p.X.Max = 0, 1.04
	b.p.X.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 0.25, Label: "0.25"},
		{Value: 0.5, Label: "0.5"}, {Value: 0.75, Label: "0.75"}, {Value: 1, Label: "1"}})
	return b.render()
}
