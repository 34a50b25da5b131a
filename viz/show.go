package viz

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// nilMessage is what a nil *Figure shows instead of a figure.
const nilMessage = "viz: no figure (a nil *Figure): the function that made it returned an error; print that error"

// nilFigure draws nilMessage.
func nilFigure() *Figure { return messageFigure(nilMessage) }

// messageFigure is a one-line figure of 8 x 0.5 inches holding msg.
func messageFigure(msg string) *Figure {
	w, h := 8*vg.Inch, vg.Inch/2
	sty := fontStyle(tickSize, color.RGBA{0xb0, 0x00, 0x20, 0xff})
	f, err := newFigure(w, h, func(dc draw.Canvas) {
		fillBackground(dc)
		dc.FillText(sty, vg.Point{X: dc.Min.X + vg.Points(6), Y: dc.Min.Y + h/2 - sty.Height(msg)/3}, msg)
	})
	if err != nil {
		panic(err) // drawing one line of text cannot fail
	}
	return f
}

// Show returns figs drawn one below the other as one figure, so that a
// notebook shows all of them: the last value of a gophernotes cell is
// displayed, while a figure made inside a loop is not. A nil figure (one
// whose constructor returned an error) is shown as a line saying so, with
// its position. In a GoNB cell, display the result with
// gonbui.DisplaySVG(viz.Show(figs...).SVG()) or, to also show in a
// notebook that is not trusted, send its SVG and PNG together (see
// notebooks/README.md). Show of nothing is a nil figure.
func Show(figs ...*Figure) *Figure {
	if len(figs) == 0 {
		return nil
	}
	if len(figs) == 1 && figs[0] != nil {
		return figs[0]
	}
	parts := make([]*raster, len(figs))
	var w, h vg.Length
	for i, f := range figs {
		if f == nil {
			f = messageFigure(fmt.Sprintf("figure %d of %d: %s", i+1, len(figs), nilMessage))
		}
		parts[i] = f.r()
		w = max(w, parts[i].w)
		h += parts[i].h
	}
	f, err := newFigure(w, h, func(dc draw.Canvas) {
		fillBackground(dc)
		top := dc.Max.Y
		for _, p := range parts {
			sub := dc
			sub.Rectangle = vg.Rectangle{Min: vg.Point{X: dc.Min.X, Y: top - p.h}, Max: vg.Point{X: dc.Min.X + p.w, Y: top}}
			p.paint(sub)
			top -= p.h
		}
	})
	if err != nil {
		return messageFigure("viz: Show: " + err.Error())
	}
	return f
}
