//go:build !race

package survival

// coxnetRace is set under the race detector (see coxnet_race_test.go).
const coxnetRace = false
