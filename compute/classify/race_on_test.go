//go:build race

package classify

// raceDetector says whether the tests run under the race detector, which slows the
// numerics about tenfold; the heaviest real-data tests run in the suite's pass without
// it (scripts/test.sh runs both).
const raceDetector = true
