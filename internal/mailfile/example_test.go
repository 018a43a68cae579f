package mailfile_test

import (
	"fmt"
	"strings"

	"github.com/textnb/textnb/internal/mailfile"
)

func ExampleMbox() {
	file := "From a@example.org Mon Sep  2 10:00:00 2002\nSubject: one\n\n>From the start\n\n" +
		"From b@example.org Tue Sep  3 10:00:00 2002\nSubject: two\n\nbye\n"
	mb := mailfile.NewMbox(strings.NewReader(file), 0)
	for {
		msg, err := mb.Next()
		if err != nil {
			break // io.EOF after the last message
		}
		fmt.Printf("%d: %q\n", mb.Num(), msg)
	}
	// Output:
	// 1: "Subject: one\n\nFrom the start\n\n"
	// 2: "Subject: two\n\nbye\n"
}
