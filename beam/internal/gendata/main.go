// Command gendata writes a synthetic pool as CSV shards for the scale
// measurements of docs/scale.md: -rows rows of -d Gaussian-mixture inputs
// x0..x{d-1} and a target y = sin(sum x) + noise, over -shards files
// shard-NNNN.csv in -dir. Shards are written in parallel (-procs); the
// same flags give the same files.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

func main() {
	dir := flag.String("dir", "", "output directory")
	rows := flag.Int("rows", 1_000_000, "rows in all")
	d := flag.Int("d", 10, "input columns")
	shards := flag.Int("shards", 16, "number of files")
	procs := flag.Int("procs", 2, "files written at once")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "gendata: -dir is required")
		os.Exit(2)
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gendata:", err)
		os.Exit(1)
	}
	sem := make(chan struct{}, *procs)
	var wg sync.WaitGroup
	errs := make([]error, *shards)
	for k := range *shards {
		n := *rows / *shards
		if k < *rows%*shards {
			n++
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[k] = shard(filepath.Join(*dir, fmt.Sprintf("shard-%04d.csv", k)), n, *d, uint64(k))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			fmt.Fprintln(os.Stderr, "gendata:", err)
			os.Exit(1)
		}
	}
}

func shard(name string, n, d int, seed uint64) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for j := range d {
		fmt.Fprintf(w, "x%d,", j)
	}
	w.WriteString("y\n")
	rng := rand.New(rand.NewPCG(seed, 0x67656e))
	var b []byte
	for range n {
		scale := 0.3
		if rng.Float64() < 0.1 {
			scale = 2
		}
		s := 0.0
		b = b[:0]
		for range d {
			v := scale * rng.NormFloat64()
			s += v
			b = strconv.AppendFloat(b, v, 'g', 8, 64)
			b = append(b, ',')
		}
		b = strconv.AppendFloat(b, math.Sin(s)+0.1*rng.NormFloat64(), 'g', 8, 64)
		b = append(b, '\n')
		w.Write(b)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}
