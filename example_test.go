package textnb_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/textnb/textnb"
)

// Train on a corpus on disk, save the model, load it and predict: the
// README's library example.
func Example() {
	path := filepath.Join(os.TempDir(), "news.model")
	m, err := textnb.TrainFrom(textnb.ReadCorpus("testdata/news/train"), textnb.Config{})
	if err == nil {
		err = m.Save(path)
	}
	if err == nil {
		m, err = textnb.Load(path)
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Predict("The striker scored twice in the cup final").Label)
	// Output: sport
}

var spam = []textnb.Document{
	{Label: "spam", Text: "WIN a free prize now, call 0800 123"},
	{Label: "spam", Text: "Free entry: claim your cash prize today"},
	{Label: "spam", Text: "URGENT: your prize is waiting, reply WIN"},
	{Label: "ham", Text: "Are we still meeting for lunch today?"},
	{Label: "ham", Text: "I'll call you when I get home"},
	{Label: "ham", Text: "Can you send me the notes from class"},
}

func ExampleTrain() {
	m, err := textnb.Train(spam, textnb.Config{})
	if err != nil {
		log.Fatal(err)
	}
	p := m.Predict("claim your free prize")
	fmt.Println(p.Label, m.Classes())
	// Output: spam [spam ham]
}

func ExampleTrain_emptyLabel() {
	_, err := textnb.Train([]textnb.Document{{Label: "ham", Text: "hi"}, {Text: "no label"}}, textnb.Config{})
	fmt.Println(errors.Is(err, textnb.ErrEmptyLabel), err)
	// Output: true document 2: empty label
}

func ExampleModel_Predict() {
	m, err := textnb.Train(spam, textnb.Config{})
	if err != nil {
		log.Fatal(err)
	}
	p := m.Predict("see you at lunch")
	for _, c := range p.Proba {
		fmt.Printf("%s %.2f\n", c.Label, c.Prob)
	}
	fmt.Println(p.Label)
	// Output:
	// spam 0.11
	// ham 0.89
	// ham
}

// A spam filter that must rarely lose a real message predicts spam only
// when sure.
func ExampleModel_SetThreshold() {
	m, err := textnb.Train(spam, textnb.Config{})
	if err != nil {
		log.Fatal(err)
	}
	text := "free prize, claim now"
	fmt.Printf("p(spam) %.2f: %s\n", m.Predict(text).Proba[0].Prob, m.Predict(text).Label)
	if err := m.SetThreshold("spam", 0.99); err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Predict(text).Label)
	fmt.Println(m.SetThreshold("eggs", 0.5))
	// Output:
	// p(spam) 0.97: spam
	// ham
	// invalid decision threshold: "eggs" is not a class of the model (spam, ham)
}

// Chinese text needs no settings: the language is detected and the text
// segmented into words.
func ExampleModel_PredictBatch() {
	reviews := []textnb.Document{
		{Label: "好评", Text: "酒店位置非常好，走路五分钟就到地铁站。"},
		{Label: "好评", Text: "房间干净整洁，床很舒服，下次还会选这家。"},
		{Label: "好评", Text: "服务热情周到，早餐种类丰富，很满意。"},
		{Label: "差评", Text: "房间有一股很重的霉味，体验很差。"},
		{Label: "差评", Text: "隔音太差了，一晚上都没睡好。"},
		{Label: "差评", Text: "前台态度冷淡，服务很差，不会再来。"},
	}
	m, err := textnb.Train(reviews, textnb.Config{})
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range m.PredictBatch([]string{"床很舒服，早餐丰富", "霉味很重，隔音差"}) {
		fmt.Println(p.Label)
	}
	// Output:
	// 好评
	// 差评
}

func ExampleModel_Explain() {
	m, err := textnb.TrainFrom(textnb.ReadCorpus("testdata/news/train"), textnb.Config{})
	if err != nil {
		log.Fatal(err)
	}
	e := m.Explain("the bank raised rates after the match")
	fmt.Printf("%s over %s by %.2f\n", e.Label, e.RunnerUpLabel, e.Margin)
	for _, c := range e.Terms[:3] {
		fmt.Printf("%-8s %+.2f\n", c.Term, c.Weight)
	}
	// Output:
	// finance over sport by 0.70
	// bank     +0.46
	// rates    +0.40
	// raised   +0.36
}

func ExampleOpen() {
	c, err := textnb.Open("testdata/models/news-v1.model")
	if err != nil {
		log.Fatal(err)
	}
	switch m := c.(type) {
	case *textnb.Model:
		fmt.Println("text model:", m.Predict("a late goal won the match").Label)
	case *textnb.Table:
		fmt.Println("table model over", m.Columns())
	}
	// Output: text model: sport
}

// The zero Config is the default; its fields name their option values.
func ExampleConfig() {
	cfg := textnb.Config{Classifier: textnb.Multinomial, Weighting: textnb.RawCounts}
	m, err := textnb.Train(spam, cfg)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Predict("call me when you get home").Label)
	// Output: ham
}

func ExampleModel_Inspect() {
	m, err := textnb.TrainFrom(textnb.ReadCorpus("testdata/news/train"), textnb.Config{})
	if err != nil {
		log.Fatal(err)
	}
	info, err := m.Inspect(3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Settings.Classifier, info.Terms, "terms")
	for _, c := range info.Classes {
		fmt.Print(c.Name, " ", c.Documents, ":")
		for _, t := range c.TopLogOdds {
			fmt.Print(" ", t.Term)
		}
		fmt.Println()
	}
	// Output:
	// cnb 7767 terms
	// finance 60: billion bank rising
	// food 60: rice crispy butter
	// sport 60: world cup final
	// tech 60: model adds code
}

// A filter learns from the mistakes a user corrects, without retraining.
func ExampleModel_Learn() {
	m, err := textnb.Train(spam, textnb.Config{Weighting: textnb.RawCounts, Fast: true})
	if err != nil {
		log.Fatal(err)
	}
	msg := "cheap watches, order from our online shop"
	fmt.Println(m.Predict(msg).Label)
	for range 2 {
		if err := m.Learn("spam", msg); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(m.Predict(msg).Label)
	// Learned by mistake: unlearning restores the model.
	for range 2 {
		if err := m.Unlearn("spam", msg); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(m.Predict(msg).Label)
	// Output:
	// ham
	// spam
	// ham
}
