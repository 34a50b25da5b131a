// Command credlab-fig3 runs the engine of the CRED reproduction's Figure 3
// (cred.Budgets) on USPS and Fashion-MNIST with the paper's CRED
// (with replacement), CRED-draws, CRED with distinct labels, GSx and KRR
// by default, and prints the median test RMSE over the repetitions of
// each cell, one "dataset|task|method|n|noise RMSE" line per cell
// (docs/budget.md, docs/reproductions-cred.md).
//
//	go run ./bench/cmd/credlab-fig3 -data ../shared/data -size full -sets usps -seed 3 -methods CRED-distinct,KRR
//
// -size quick takes the quick reproduction's sizes (subsampled pools, fewer
// budgets, noise levels and grids); progress goes to standard error.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/credlab/credlab/papers/cred"
)

func main() {
	def := cred.BudgetDefaults(true)
	data := flag.String("data", "../shared/data", "directory of the staged datasets")
	size := flag.String("size", "quick", "quick or full: the sizes of the quick or the full reproduction")
	sets := flag.String("sets", strings.Join(def.Sets, ","), "comma-separated data sets: usps, fashion")
	methods := flag.String("methods", strings.Join(def.Methods, ","), "comma-separated methods")
	ns := flag.String("ns", "", "comma-separated budgets, increasing (default the size's: 500,1000 quick, 1000,2000,4000 full)")
	seed := flag.Uint64("seed", def.Seed, "seed of the run (the default is the reproduction's)")
	flag.Parse()
	if err := run(*data, *size, *sets, *methods, *ns, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "credlab-fig3:", err)
		os.Exit(1)
	}
}

func run(data, size, sets, methods, ns string, seed uint64) error {
	if size != "quick" && size != "full" {
		return fmt.Errorf("-size %q: want quick or full", size)
	}
	spec := cred.BudgetDefaults(size == "quick")
	spec.Sets = strings.Split(sets, ",")
	spec.Methods = strings.Split(methods, ",")
	spec.Seed = seed
	if ns != "" {
		spec.Ns = nil
		for _, f := range strings.Split(ns, ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				return fmt.Errorf("-ns: %v", err)
			}
			spec.Ns = append(spec.Ns, n)
		}
	}
	med, err := cred.Budgets(context.Background(), data, spec, os.Stderr)
	if err != nil {
		return err
	}
	var keys []string
	for k := range med {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%s %.4g\n", k, med[k])
	}
	return nil
}
