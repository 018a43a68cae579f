package shard_test

import (
	"fmt"
	"log"

	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/shard"
	"github.com/textnb/textnb/tokenize"
)

// Two parts of a corpus, as two workers would hold them.
var parts = [][][2]string{
	{
		{"spam", "WIN a free prize now, call 0800 123"},
		{"ham", "Are we still meeting for lunch today?"},
		{"spam", "Free entry: claim your cash prize today"},
	},
	{
		{"ham", "I'll call you when I get home"},
		{"spam", "URGENT: your prize is waiting, reply WIN"},
		{"ham", "Can you send me the notes from class"},
	},
}

func Example() {
	// Every part must tokenize alike, so the language is named, not
	// detected per part.
	cfg := pipeline.Config{Tokenize: tokenize.Config{Lang: tokenize.English}}

	// Pass 1: each part's document frequencies, merged.
	var all *shard.DocFreqs
	for _, part := range parts {
		c, err := shard.NewDocFreqCounter(cfg)
		if err != nil {
			log.Fatal(err)
		}
		for _, d := range part {
			if err := c.Add(d[0], d[1]); err != nil {
				log.Fatal(err)
			}
		}
		df, err := c.DocFreqs()
		if err != nil {
			log.Fatal(err)
		}
		if all == nil {
			all = df
		} else if all, err = shard.MergeDocFreqs(all, df); err != nil {
			log.Fatal(err)
		}
	}
	prep, err := all.Prepare()
	if err != nil {
		log.Fatal(err)
	}

	// Pass 2: each part's weighted rows summed per class, merged.
	var sums *shard.ClassSums
	for _, part := range parts {
		s := prep.NewSummer()
		for _, d := range part {
			if err := s.Add(d[0], d[1]); err != nil {
				log.Fatal(err)
			}
		}
		ps, err := s.Sums()
		if err != nil {
			log.Fatal(err)
		}
		if sums == nil {
			sums = ps
		} else if sums, err = shard.MergeClassSums(sums, ps); err != nil {
			log.Fatal(err)
		}
	}
	m, err := prep.Build(sums)
	if err != nil {
		log.Fatal(err)
	}
	_, best := m.NewPredictor().Proba(nil, "claim your free prize")
	fmt.Println(m.Classes, m.Classes[best])
	// Output: [spam ham] spam
}
