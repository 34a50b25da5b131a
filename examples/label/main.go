// Command label is the README's frames example: label 100 of 5,000 points
// chosen by CRED, fit on them with their importance weights, predict the
// pool and save the model (into the folder given as its argument, default
// the current one).
package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/go-gota/gota/series"
)

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	if err := run(dir); err != nil {
		log.Fatal(err)
	}
}

func run(dir string) error {
	// README: begin
	x, y, _ := credlab.SmoothRegression(5000, 2, 0.1, 1) // or frames.LoadData("pool.csv", frames.LoadOptions{})
	pool, err := frames.FromMatrix(x, "a", "b")
	if err != nil {
		return err
	}
	chosen, err := frames.Select(pool, 100, frames.SelectSpec{Sigma: 0.5, Seed: 1}) // CRED: rows, "prob", "weight"
	if err != nil {
		return err
	}
	rows, err := chosen.Col("row").Int()
	if err != nil {
		return err
	}
	labels := make([]float64, len(rows))
	for i, r := range rows {
		labels[i] = y[r] // label the chosen rows
	}
	labeled := chosen.Mutate(series.New(labels, series.Float, "y"))
	model, err := frames.Fit(labeled, frames.Spec{Target: "y", Weight: "weight"}) // method, sigma, lambda chosen
	if err != nil {
		return err
	}
	fmt.Print(model.Summary())
	out, err := frames.Predict(model, pool) // adds a "prediction" column
	if err != nil {
		return err
	}
	truth := pool.Mutate(series.New(y, series.Float, "y"))
	scores, err := frames.Score(model, truth) // one row: rows, rmse, mae, r2
	if err != nil {
		return err
	}
	fmt.Println(out.Nrow(), "predictions; on the whole pool:", scores.Records()[1])
	if err := model.SaveFile(filepath.Join(dir, "model.json")); err != nil {
		return err
	}
	// README: end
	return nil
}
