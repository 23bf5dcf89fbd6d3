//go:build !race

package classify

// raceDetector: see race_on_test.go.
const raceDetector = false
