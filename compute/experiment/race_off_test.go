//go:build !race

package experiment

// raceDetector: see race_on_test.go.
const raceDetector = false
