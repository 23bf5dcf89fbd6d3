package study

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
	"steadfast/compute/synth"
)

// shardStudy is a small study split in two: its data, both shard files and the JSON of
// the merged result.
type shardStudy struct {
	ds    *dataset.Dataset
	files [2][]byte
	want  []byte
}

func newShardStudy(t testing.TB) *shardStudy {
	return newShardStudyOf(t, method.Spec{Name: "fstat"}, method.Spec{Name: "drags", Params: map[string]float64{"K": 3}})
}

// newShardStudyOf is newShardStudy with the methods given (a fuzz target's workers run
// it instrumented, where DRAGS takes minutes: they take the F-statistic alone).
func newShardStudyOf(t testing.TB, methods ...method.Spec) *shardStudy {
	ds, _ := synth.Generate(synth.Sized(40), 24, 3, 0)
	cfg := experiment.DefaultConfig()
	cfg.Methods = methods
	cfg.Protocol, cfg.Repeats, cfg.Ks = experiment.CV10x10, 1, []int{1, 2, 5}
	cfg.Classifiers = []string{"svm", "1nn"}
	s := &shardStudy{ds: ds}
	var shards []*experiment.Shard
	for i := 1; i <= 2; i++ {
		sh, err := RunShard(context.Background(), cfg, ds, i, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := encodeShard(sh)
		if err != nil {
			t.Fatal(err)
		}
		s.files[i-1] = b
		shards = append(shards, sh)
	}
	s.want = s.merge(t, shards)
	return s
}

// merge merges shards and returns the result's numbers as JSON, nil when refused.
func (s *shardStudy) merge(t testing.TB, shards []*experiment.Shard) []byte {
	res, err := experiment.Merge(context.Background(), shards, s.ds)
	if err != nil {
		return nil
	}
	res.Seconds = 0
	for i := range res.Methods {
		res.Methods[i].Seconds, res.Methods[i].PredictSeconds = 0, 0
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// mergeFiles decodes both shard files and merges them; nil when either is refused.
func (s *shardStudy) mergeFiles(t testing.TB, files [2][]byte) []byte {
	var shards []*experiment.Shard
	for _, f := range files {
		sh, err := decodeShard(bytes.NewReader(f))
		if err != nil {
			return nil
		}
		shards = append(shards, sh)
	}
	return s.merge(t, shards)
}

// TestShardByteChangesAreRefused: any single byte of a shard file changed gives a refusal
// or the very same result, never other numbers (before the checksum, 8 of 21 bit flips
// merged into other Sim values).
func TestShardByteChangesAreRefused(t *testing.T) {
	s := newShardStudy(t)
	if s.want == nil {
		t.Fatal("the unchanged shards do not merge")
	}
	step := 1
	if testing.Short() {
		step = 7
	}
	refused := 0
	for _, delta := range []byte{0x01, 0x80, 0xff} {
		for i := 0; i < len(s.files[0]); i += step {
			files := s.files
			files[0] = bytes.Clone(s.files[0])
			files[0][i] ^= delta
			got := s.mergeFiles(t, files)
			if got == nil {
				refused++
				continue
			}
			if !bytes.Equal(got, s.want) {
				t.Fatalf("byte %d ^ %#x of %d merged into another result", i, delta, len(files[0]))
			}
		}
	}
	if refused == 0 {
		t.Error("no change was refused")
	}
}

// TestCraftedShardsAreRefused: shards with a valid checksum but impossible contents
// (counts, indices and lengths a merge would index with) are refused, not merged or
// panicking.
func TestCraftedShardsAreRefused(t *testing.T) {
	s := newShardStudy(t)
	edits := map[string]func(sh *experiment.Shard){
		"huge N":               func(sh *experiment.Shard) { sh.N = 1 << 60 },
		"negative N":           func(sh *experiment.Shard) { sh.N = -3 },
		"huge units":           func(sh *experiment.Shard) { sh.Units, sh.N = 1<<62, 1<<61 },
		"task out of range":    func(sh *experiment.Shard) { sh.Results[0].Task = 1 << 40 },
		"short ranking":        func(sh *experiment.Shard) { sh.Results[0].Order = sh.Results[0].Order[:3] },
		"feature out of range": func(sh *experiment.Shard) { sh.Results[0].Order[0] = 1 << 30 },
		"group member out":     func(sh *experiment.Shard) { sh.Results[1].Groups = [][]int{{-1}} },
		"relevance count": func(sh *experiment.Shard) {
			for i := range sh.Results {
				if sh.Results[i].Groups != nil {
					sh.Results[i].Relevance = append(sh.Results[i].Relevance, 1)
				}
			}
		},
		"missing classifier": func(sh *experiment.Shard) {
			for i := range sh.Results {
				delete(sh.Results[i].Acc, "1nn")
			}
		},
		"short verdicts": func(sh *experiment.Shard) {
			for i := range sh.Results {
				for cl := range sh.Results[i].Correct {
					sh.Results[i].Correct[cl][0] = nil
				}
			}
		},
		"accuracy above 1": func(sh *experiment.Shard) {
			for i := range sh.Results {
				for cl := range sh.Results[i].Acc {
					sh.Results[i].Acc[cl][0] = 7
				}
			}
		},
		"fewer accuracy ks": func(sh *experiment.Shard) {
			for i := range sh.Results {
				for cl := range sh.Results[i].Acc {
					sh.Results[i].Acc[cl] = sh.Results[i].Acc[cl][:1]
				}
			}
		},
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			sh, err := decodeShard(bytes.NewReader(s.files[0]))
			if err != nil {
				t.Fatal(err)
			}
			edit(sh)
			b, err := encodeShard(sh)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.mergeFiles(t, [2][]byte{b, s.files[1]}); got != nil {
				t.Errorf("merged")
			}
		})
	}
}

// TestShardDeclaringHugeContentIsRefused: a header declaring more content than a shard
// holds is refused before anything of that size is allocated.
func TestShardDeclaringHugeContentIsRefused(t *testing.T) {
	var raw bytes.Buffer
	zw := gzip.NewWriter(&raw)
	zw.Write([]byte(shardMagic))
	zw.Write(make([]byte, sha256.Size))
	binary.Write(zw, binary.BigEndian, uint64(1)<<62)
	zw.Close()
	if _, err := decodeShard(&raw); err == nil {
		t.Error("accepted")
	}
}

// FuzzDecodeShard: no input panics the shard decoder or the merge of what it accepts.
func FuzzDecodeShard(f *testing.F) {
	s := newShardStudyOf(f, method.Spec{Name: "fstat"})
	f.Add(s.files[0])
	f.Add(s.files[1])
	var plain bytes.Buffer // an unchecked gob, as earlier versions wrote
	sh, _ := decodeShard(bytes.NewReader(s.files[0]))
	gob.NewEncoder(&plain).Encode(sh)
	f.Add(plain.Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		s.mergeFiles(t, [2][]byte{b, s.files[1]})
	})
}

// FuzzShardPayload: no shard content that passes the checksum (a crafted file) panics
// the decoder or the merge, or is merged into a result unless it is the real shard.
func FuzzShardPayload(f *testing.F) {
	s := newShardStudyOf(f, method.Spec{Name: "fstat"})
	for _, file := range s.files {
		zr, _ := gzip.NewReader(bytes.NewReader(file))
		var b bytes.Buffer
		b.ReadFrom(zr)
		f.Add(b.Bytes()[len(shardMagic)+sha256.Size+8:])
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		var raw bytes.Buffer
		zw := gzip.NewWriter(&raw)
		sum := sha256.Sum256(payload)
		zw.Write([]byte(shardMagic))
		zw.Write(sum[:])
		binary.Write(zw, binary.BigEndian, uint64(len(payload)))
		zw.Write(payload)
		zw.Close()
		s.mergeFiles(t, [2][]byte{raw.Bytes(), s.files[1]})
	})
}
