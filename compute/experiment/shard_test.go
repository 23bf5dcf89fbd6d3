package experiment

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"steadfast/compute/method"
	"steadfast/compute/synth"
)

// numbers is res as JSON with its timings zeroed: what must not change when a study
// is split into shards and merged.
func numbers(t *testing.T, res *Result) []byte {
	t.Helper()
	c := *res
	c.Seconds = 0
	c.Config.Workers = 0
	c.Methods = append([]MethodResult(nil), res.Methods...)
	for i := range c.Methods {
		c.Methods[i].Seconds = 0
		c.Methods[i].PredictSeconds = 0
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// roundTrip passes a shard through gob, as the shard file does.
func roundTrip(t *testing.T, sh *Shard) *Shard {
	t.Helper()
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(sh); err != nil {
		t.Fatal(err)
	}
	var out Shard
	if err := gob.NewDecoder(&b).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return &out
}

// shardConfig has a single-gene ranker, an SVM ranker with its convergence count, a
// group method and every classifier, so every field of a unit's output is exercised.
func shardConfig(p Protocol) Config {
	cfg := DefaultConfig()
	cfg.Protocol, cfg.Repeats, cfg.Ks = p, 2, []int{1, 2, 3, 5, 10}
	cfg.Methods = []method.Spec{{Name: "fstat"}, {Name: "svmrfe"}, {Name: "drags", Params: map[string]float64{"K": 3}}}
	return cfg
}

func TestShardsMergeToTheSingleRun(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 60, 4, 0)
	for _, p := range []Protocol{CV10x10, Kalousis} {
		cfg := shardConfig(p)
		if p == Kalousis {
			cfg.Folds, cfg.InnerFolds = 3, 3
		}
		single, err := Run(context.Background(), cfg, ds, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := numbers(t, single)
		for _, n := range []int{1, 3, 7} {
			var shards []*Shard
			for i := n; i >= 1; i-- { // run last to first
				cfg.Workers = 1 + i%2
				sh, err := RunShard(context.Background(), cfg, ds, i, n, nil)
				if err != nil {
					t.Fatal(err)
				}
				shards = append(shards, roundTrip(t, sh))
			}
			rand.New(rand.NewPCG(uint64(n), 0)).Shuffle(len(shards), func(a, b int) { shards[a], shards[b] = shards[b], shards[a] })
			merged, err := Merge(context.Background(), shards, ds)
			if err != nil {
				t.Fatalf("%s, %d shards: %v", p, n, err)
			}
			if got := numbers(t, merged); !bytes.Equal(got, want) {
				t.Errorf("%s, %d shards: the merged result differs from the single run", p, n)
			}
		}
	}
}

func TestShardUnitsCoverTheStudyOnce(t *testing.T) {
	for _, n := range []int{1, 3, 7, 101} {
		seen := make([]int, 101)
		for i := 1; i <= n; i++ {
			for _, u := range ShardTasks(101, i, n) {
				seen[u]++
			}
		}
		for u, c := range seen {
			if c != 1 {
				t.Fatalf("%d shards: unit %d is in %d shards", n, u, c)
			}
		}
	}
}

func TestMergeRefusesWrongShards(t *testing.T) {
	ds, _ := synth.Generate(synth.D1k, 40, 5, 0)
	other, _ := synth.Generate(synth.D1k, 40, 6, 0)
	cfg := DefaultConfig()
	cfg.Methods, cfg.Repeats, cfg.Folds, cfg.Ks = []method.Spec{{Name: "fstat"}}, 1, 3, []int{5}
	shard := func(cfg Config, i, n int) *Shard {
		sh, err := RunShard(context.Background(), cfg, ds, i, n, nil)
		if err != nil {
			t.Fatal(err)
		}
		return sh
	}
	seed2 := cfg
	seed2.Seed = 2
	a, b, c := shard(cfg, 1, 3), shard(cfg, 2, 3), shard(cfg, 3, 3)
	damaged := *c
	damaged.Results = c.Results[:len(c.Results)-1]
	// a unit whose scores are one short, and one with a NaN score
	short, nan := *c, *c
	short.Results, nan.Results = slices.Clone(c.Results), slices.Clone(c.Results)
	u := scoredUnit(t, short.Results)
	sc := map[string][][]float64{}
	for cl, v := range short.Results[u].Scores {
		sc[cl] = [][]float64{v[0][1:]}
	}
	short.Results[u].Scores = sc
	sc2 := map[string][][]float64{}
	for cl, v := range nan.Results[u].Scores {
		w := slices.Clone(v[0])
		w[0] = math.NaN()
		sc2[cl] = [][]float64{w}
	}
	nan.Results[u].Scores = sc2
	for _, tc := range []struct {
		name   string
		shards []*Shard
		want   string
	}{
		{"missing", []*Shard{a, c}, "1 of the 3 shards is missing (2)"},
		{"doubled", []*Shard{a, b, b, c}, "shard 2/3 is given twice"},
		{"other split", []*Shard{a, b, shard(cfg, 2, 2)}, "split the study differently"},
		{"other seed", []*Shard{a, b, shard(seed2, 3, 3)}, "another configuration"},
		{"damaged", []*Shard{a, b, &damaged}, "the file is damaged"},
		{"scores one short", []*Shard{a, b, &short}, "scores for"},
		{"a NaN score", []*Shard{a, b, &nan}, "a score of NaN"},
	} {
		_, err := Merge(context.Background(), tc.shards, ds)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
	if _, err := Merge(context.Background(), []*Shard{a, b, c}, other); err == nil || !strings.Contains(err.Error(), "other data") {
		t.Errorf("merging over other data: got %v", err)
	}
	if _, err := RunShard(context.Background(), cfg, ds, 4, 3, nil); err == nil {
		t.Error("shard 4/3 was accepted")
	}
	if _, err := RunShard(context.Background(), cfg, ds, 1, 1000, nil); err == nil || !strings.Contains(err.Error(), "only 4 units") {
		t.Errorf("1000 shards of 4 units: got %v", err)
	}
}

// scoredUnit is the index of the first unit of units with scores.
func scoredUnit(t *testing.T, units []Unit) int {
	t.Helper()
	for i, u := range units {
		if u.Scores != nil {
			return i
		}
	}
	t.Fatal("no unit with scores")
	return -1
}
