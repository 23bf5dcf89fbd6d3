//go:build race

package survival

// coxnetRace is set under the race detector, which makes the fits about 5 times slower:
// the cross-validation references then run on one data set (the rest run without it).
const coxnetRace = true
