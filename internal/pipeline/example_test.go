package pipeline_test

import (
	"fmt"
	"log"
	"math"
	"os"

	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/metrics"
)

var spam = [][2]string{
	{"spam", "WIN a free prize now, call 0800 123"},
	{"spam", "Free entry: claim your cash prize today"},
	{"spam", "URGENT: your prize is waiting, reply WIN"},
	{"ham", "Are we still meeting for lunch today?"},
	{"ham", "I'll call you when I get home"},
	{"ham", "Can you send me the notes from class"},
}

func trainSpam(cfg pipeline.Config) *pipeline.Model {
	tr, err := pipeline.NewTrainer(cfg)
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range spam {
		tr.Add(d[0], d[1])
	}
	m, _, err := tr.Finish()
	if err != nil {
		log.Fatal(err)
	}
	return m
}

func ExampleTrainer() {
	tr, err := pipeline.NewTrainer(pipeline.Config{}) // the defaults
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range spam {
		if err := tr.Add(d[0], d[1]); err != nil { // an empty label
			log.Fatal(err)
		}
	}
	m, sum, err := tr.Finish()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Classes, sum.Documents, sum.Lang)
	// Output: [spam ham] 6 en
}

func ExampleModel() {
	m := trainSpam(pipeline.Config{})
	file, err := os.CreateTemp("", "*.model")
	if err != nil {
		log.Fatal(err)
	}
	defer os.Remove(file.Name())
	if _, err := m.WriteTo(file); err != nil {
		log.Fatal(err)
	}
	if err := file.Close(); err != nil {
		log.Fatal(err)
	}
	loaded, err := pipeline.Load(file.Name())
	if err != nil {
		log.Fatal(err)
	}
	_, best := loaded.NewPredictor().Proba(nil, "claim your free prize")
	fmt.Println(loaded.Classes[best])
	// Output: spam
}

func ExamplePredictor() {
	m := trainSpam(pipeline.Config{Classifier: pipeline.Multinomial, Weighting: pipeline.RawCounts})
	p := m.NewPredictor() // one per goroutine
	proba, best := p.Proba(nil, "see you at lunch")
	fmt.Printf("%s %.2f\n", m.Classes[best], proba[best])
	// Output: ham 0.97
}

func ExampleBatch() {
	m := trainSpam(pipeline.Config{})
	ev := metrics.NewEvaluator(m.Classes)
	b := m.NewBatch(func(p pipeline.Prediction) {
		fmt.Println(p.Source, m.Classes[p.Class])
		ev.Add(p.Truth, m.Classes[p.Class])
	})
	b.Add("msg1", "spam", "WIN cash now")
	b.Add("msg2", "ham", "lunch today?")
	b.Close()
	fmt.Printf("accuracy %.2f\n", ev.Result().Accuracy)
	// Output:
	// msg1 spam
	// msg2 ham
	// accuracy 1.00
}

func ExampleMerge() {
	cfg := pipeline.Config{Weighting: pipeline.RawCounts} // raw counts add up exactly
	a, b := trainSpam(cfg), trainSpam(cfg)
	m, err := pipeline.Merge(a, b)
	if err != nil {
		log.Fatal(err)
	}
	info, err := m.Inspect(0)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range info.Classes {
		fmt.Println(c.Name, c.Documents)
	}
	// Output:
	// spam 6
	// ham 6
}

func ExampleConfig() {
	cfg := pipeline.Config{Classifier: pipeline.Complement, Weighting: pipeline.Rennie, Norm: true, Alpha: 0.1}
	cfg.Tokenize.Stem = true
	m := trainSpam(cfg)
	fmt.Println(m.Config.Classifier, m.Config.Weighting, m.Config.Tokenize.WordNGrams)
	// Output: cnb rennie [1,2]
}

func ExampleClassifier_UnmarshalText() {
	var c pipeline.Classifier
	err := c.UnmarshalText([]byte("mnb"))
	fmt.Println(c, err)
	err = c.UnmarshalText([]byte("svm"))
	fmt.Println(err)
	// Output:
	// mnb <nil>
	// pipeline: bad configuration: classifier "svm" is not one of auto, cnb, mnb, bnb
}

func ExamplePrediction() {
	m := trainSpam(pipeline.Config{})
	b := m.NewBatch(func(p pipeline.Prediction) {
		fmt.Printf("%s %s %s %.2f\n", p.Source, p.Truth, m.Classes[p.Class], p.Proba[p.Class])
	})
	b.Add("sms-1", "spam", "claim your cash prize")
	b.Close()
	// Output: sms-1 spam spam 0.98
}

func ExampleClassifier() {
	for _, c := range []pipeline.Classifier{pipeline.Complement, pipeline.Multinomial, pipeline.Bernoulli} {
		m := trainSpam(pipeline.Config{Classifier: c})
		_, best := m.NewPredictor().Proba(nil, "free prize")
		fmt.Println(c, m.Classes[best])
	}
	// Output:
	// cnb spam
	// mnb spam
	// bnb spam
}

func ExampleWeighting() {
	var w pipeline.Weighting
	_ = w.UnmarshalText([]byte("rennie"))
	fmt.Println(w, pipeline.TFIDF, pipeline.RawCounts)
	// Output: rennie tfidf counts
}

func ExampleVectorizer() {
	m := trainSpam(pipeline.Config{Vectorizer: pipeline.Hash, HashFeatures: 1 << 10})
	fmt.Println(m.Config.Vectorizer, m.NumFeatures())
	// Output: hash 1024
}

func ExampleTFIDFOptions() {
	cfg := pipeline.Config{TFIDFOptions: pipeline.TFIDFOptions{LinearTF: true, NoSmooth: true}}
	m := trainSpam(cfg)
	fmt.Println(m.Config.Weighting, m.Config.TFIDFOptions.LinearTF)
	// Output: tfidf true
}

func ExampleSemi() {
	cfg := pipeline.Config{Semi: pipeline.Semi{Method: pipeline.NSNB, K: 0.5}}
	tr, err := pipeline.NewTrainer(cfg)
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range spam {
		tr.Add(d[0], d[1])
	}
	tr.AddUnlabeled("WIN free cash, reply now")
	tr.AddUnlabeled("see you at home tonight")
	_, sum, err := tr.Finish()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sum.Documents, sum.Unlabeled, sum.Semi.Added)
	// Output: 6 2 2
}

func ExampleSemiMethod() {
	var m pipeline.SemiMethod
	err := m.UnmarshalText([]byte("em"))
	fmt.Println(m, err)
	// Output: em <nil>
}

func ExampleSummary() {
	tr, _ := pipeline.NewTrainer(pipeline.Config{})
	for _, d := range spam {
		tr.Add(d[0], d[1])
	}
	tr.Add("ham", "!!!") // no terms: counted as empty
	_, sum, err := tr.Finish()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sum.Documents, sum.Empty, sum.Classes, sum.MinDF)
	// Output: 7 1 2 1
}

func ExamplePredictor_Explain() {
	m := trainSpam(pipeline.Config{})
	e := m.NewPredictor().Explain("claim your free prize")
	sum := e.Bias
	for _, c := range e.Terms {
		sum += c.Weight
	}
	fmt.Printf("%s over %s: the terms and the bias sum to the margin: %t\n", e.Label, e.RunnerUpLabel, math.Abs(sum-e.Margin) < 1e-9)
	fmt.Println("first:", e.Terms[0].Term)
	// Output:
	// spam over ham: the terms and the bias sum to the margin: true
	// first: free
}
