package zh_test

import (
	"fmt"

	"github.com/textnb/textnb/tokenize/zh"
)

func ExampleSegmenter() {
	// A zero Segmenter works too; Default shares one dictionary per process.
	s := zh.Default()
	words := s.Cut(nil, "我爱北京天安门") // loads the dictionary on first use
	fmt.Println(words, s.Loaded())
	// Output: [我 爱 北京 天安门] true
}

func ExampleDefault() {
	seg := zh.Default()
	if err := seg.Load(); err != nil {
		fmt.Println(err)
		return
	}
	var words []string
	for _, w := range seg.Cut(nil, "北京大学的学生正在研究自然语言处理") {
		if !zh.IsStopword(w) {
			words = append(words, w)
		}
	}
	fmt.Println(words)
	// Output: [北京大学 学生 研究 自然语言 处理]
}

func ExampleIsStopword() {
	fmt.Println(zh.IsStopword("的"), zh.IsStopword("电影"))
	// Output: true false
}
