package nbbeam

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/tokenize"
)

// TestMain initializes Beam, which Prism needs to run the test binary's
// registered functions as its workers.
func TestMain(m *testing.M) {
	beam.Init()
	os.Exit(m.Run())
}

// localModel trains on path with the library, as textnb train does.
func localModel(t *testing.T, cfg pipeline.Config, path string) *pipeline.Model {
	t.Helper()
	tr, err := pipeline.NewTrainer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = corpus.Walk(path, corpus.Options{}, func(d corpus.Document) error {
		tr.Add(d.Label, d.Text)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := tr.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// prismModel trains with Train on the documents that read gives, runs the
// pipeline on Prism and loads the model it wrote.
func prismModel(t *testing.T, cfg pipeline.Config, read func(beam.Scope) beam.PCollection) *pipeline.Model {
	t.Helper()
	out := filepath.Join(t.TempDir(), "beam.model")
	p, s := beam.NewPipelineWithRoot()
	if err := Train(s, cfg, read(s), out); err != nil {
		t.Fatal(err)
	}
	if _, err := prism.Execute(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	m, err := pipeline.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// samePredictions checks that a and b give every document of path the
// same class.
func samePredictions(t *testing.T, a, b *pipeline.Model, path string) {
	t.Helper()
	pa, pb := a.NewPredictor(), b.NewPredictor()
	n := 0
	_, err := corpus.Walk(path, corpus.Options{}, func(d corpus.Document) error {
		_, i := pa.Proba(nil, d.Text)
		_, j := pb.Proba(nil, d.Text)
		if a.Classes[i] != b.Classes[j] {
			t.Errorf("document %d: %s by Beam, %s locally", n, a.Classes[i], b.Classes[j])
		}
		n++
		return nil
	})
	if err != nil || n < 10 {
		t.Fatalf("%d test documents, %v", n, err)
	}
}

func TestTrainOnPrism(t *testing.T) {
	cfg := pipeline.Config{}
	cfg.Tokenize.Lang = tokenize.English
	for _, tc := range []struct {
		name, train, test string
		read              func(beam.Scope, string) beam.PCollection
		glob              string
	}{
		{"folders", "../testdata/news/train", "../testdata/news/test", ReadFolders, "../testdata/news/train/*/*"},
		{"lines", "../testdata/spam.tsv", "../testdata/spam.tsv", ReadLines, "../testdata/spam.tsv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := prismModel(t, cfg, func(s beam.Scope) beam.PCollection { return tc.read(s, tc.glob) })
			samePredictions(t, got, localModel(t, cfg, tc.train), tc.test)
		})
	}
}

func TestTrainRefusesAutoLanguage(t *testing.T) {
	_, s := beam.NewPipelineWithRoot()
	if err := Train(s, pipeline.Config{}, beam.Create(s, Doc{"a", "b"}), "x"); err == nil {
		t.Error("Lang Auto accepted")
	}
}

// TestTrain20Newsgroups trains on $TEXTNB_20NG/20news-bydate-train on Prism
// and compares predictions on 20news-bydate-test with local training; it
// is skipped unless TEXTNB_20NG names the unpacked corpus.
func TestTrain20Newsgroups(t *testing.T) {
	root := os.Getenv("TEXTNB_20NG")
	if root == "" {
		t.Skip("TEXTNB_20NG is not set")
	}
	cfg := pipeline.Config{}
	cfg.Tokenize.Lang = tokenize.English
	got := prismModel(t, cfg, func(s beam.Scope) beam.PCollection {
		return ReadFolders(s, filepath.Join(root, "20news-bydate-train/*/*"))
	})
	samePredictions(t, got, localModel(t, cfg, filepath.Join(root, "20news-bydate-train")), filepath.Join(root, "20news-bydate-test"))
}
