// Package experiments holds the data generators and numerical helpers that
// the papers' experiments share between the frames building blocks
// (frames/*_experiments.go) and the reproductions (internal/repro), so
// that both draw the same numbers from the same seeds.
package experiments
