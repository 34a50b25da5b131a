// Package report holds what the papers' reproductions share in writing
// their results: the command line that regenerates a reproduction
// (Command), CSV files (WriteCSV), the number formats of their columns (G8,
// G6) and the mean and standard deviation of repeated runs (Mean, SD).
package report
