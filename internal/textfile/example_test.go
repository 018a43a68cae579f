package textfile_test

import (
	"fmt"

	"github.com/textnb/textnb/internal/textfile"
	"golang.org/x/text/encoding/simplifiedchinese"
)

func ExampleEncoding() {
	gbk, _ := simplifiedchinese.GBK.NewEncoder().Bytes([]byte("朴素贝叶斯分类器"))
	for _, b := range [][]byte{[]byte("naïve"), gbk, []byte("na\xefve")} {
		text, enc := textfile.Decode(b)
		fmt.Println(enc, text)
	}
	// Output:
	// UTF-8 naïve
	// GB18030 朴素贝叶斯分类器
	// ISO-8859-1 naïve
}
