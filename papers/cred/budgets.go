package cred

import (
	"context"
	"fmt"
	"io"
	"slices"
)

// BudgetSpec is one run of Budgets; BudgetDefaults gives the defaults.
type BudgetSpec struct {
	// Quick takes the sizes of the quick reproduction (subsampled pools,
	// fewer budgets, noise levels and grids); false the full one.
	Quick bool
	// Sets are the data sets, "usps" and "fashion" (Fashion-MNIST); nil
	// runs both. They run in that order whatever the order given, as the
	// seed of a set's subsample and features depends on its position.
	Sets []string
	// Methods are the methods (BenchCRED, BenchCREDDraws, ...); nil: the
	// defaults.
	Methods []string
	// Ns are the labeled budgets, increasing; nil: the size's.
	Ns []int
	// Seed is the seed of the whole run.
	Seed uint64
}

// BudgetDefaults returns the defaults of Budgets: both sets, the methods
// BenchCRED, BenchCREDDraws, BenchCREDDistinct, BenchGSx and BenchKRR, the
// budgets of the quick or full reproduction and its seed.
func BudgetDefaults(quick bool) BudgetSpec {
	c := defaultConfig(quick).Fig3
	return BudgetSpec{Quick: quick, Sets: []string{"usps", "fashion"},
		Methods: []string{BenchCRED, BenchCREDDraws, BenchCREDDistinct, BenchGSx, BenchKRR},
		Ns:      append([]int(nil), c.Ns...), Seed: c.Seed}
}

// Budgets runs the engine of the CRED reproduction's Figure 3 on USPS
// and Fashion-MNIST, read from dataDir, with the methods, budgets and seed
// of spec (bench/cmd/credlab-fig3), writing progress to w. It returns the
// median test RMSE over the repetitions of each cell, keyed
// "dataset|task|method|n|noise".
func Budgets(ctx context.Context, dataDir string, spec BudgetSpec, w io.Writer) (map[string]float64, error) {
	def := BudgetDefaults(spec.Quick)
	c := defaultConfig(spec.Quick).Fig3
	c.Methods, c.Seed = def.Methods, spec.Seed
	if spec.Methods != nil {
		c.Methods = spec.Methods
	}
	if spec.Ns != nil {
		c.Ns = spec.Ns
	}
	sets := spec.Sets
	if sets == nil {
		sets = def.Sets
	}
	for _, s := range sets {
		if s != "usps" && s != "fashion" {
			return nil, fmt.Errorf("papers: data set %q: want usps or fashion", s)
		}
	}
	var run []*imageSet
	if slices.Contains(sets, "usps") {
		us, err := loadUSPS(dataDir)
		if err != nil {
			return nil, err
		}
		run = append(run, us)
	}
	if slices.Contains(sets, "fashion") {
		fm, err := loadFashionMNIST(dataDir)
		if err != nil {
			return nil, err
		}
		run = append(run, fm)
	}
	rows, _, err := runFig3(ctx, run, c, w)
	if err != nil {
		return nil, err
	}
	return medianRMSE(rows), nil
}
