package credlab_test

import (
	"context"
	"fmt"
	"math"

	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

func ExampleTune() {
	// y = 5 + sin(3x) on 80 points of [-2, 2]; sigma, lambda, the method
	// and the intercept are chosen by Tune.
	x := mat.NewDense(80, 1, nil)
	y := make([]float64, 80)
	for i := range y {
		v := -2 + 4*float64(i)/79
		x.Set(i, 0, v)
		y[i] = 5 + math.Sin(3*v) + 0.01*math.Cos(37*v) // a little deterministic noise
	}
	res, err := credlab.Tune(context.Background(), x, y, credlab.TuneConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := res.Choice
	fmt.Printf("method %s by %s, intercept %.3f, edges %v\n", c.Method, c.Criterion, c.Intercept, c.Edges)
	test := []float64{-1.23, 0.4, 1.77}
	p, _ := res.Fit.Model.Predict(mat.NewDense(3, 1, test))
	for i, v := range test {
		fmt.Printf("f(%.2f) = %.2f (true %.2f)\n", v, p[i], 5+math.Sin(3*v))
	}
	// Output:
	// method KRLS by cv, intercept 5.000, edges []
	// f(-1.23) = 5.52 (true 5.52)
	// f(0.40) = 5.93 (true 5.93)
	// f(1.77) = 4.17 (true 4.17)
}
