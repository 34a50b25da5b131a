// Package papertest holds the helpers the tests of the papers' packages
// share: reading the CSV files (ReadCSV) and the report (CheckReport) a
// reproduction wrote, and comparing floats (Near).
package papertest
