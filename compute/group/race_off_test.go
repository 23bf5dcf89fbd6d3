//go:build !race

package group

// raceDetector: see race_on_test.go.
const raceDetector = false
