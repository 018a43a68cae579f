package numtable_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/textnb/textnb/internal/numtable"
)

// tempCorpus writes files (relative name → content) under a new temporary
// directory and returns it.
func tempCorpus(files map[string]string) string {
	dir, err := os.MkdirTemp("", "numtable-example")
	if err != nil {
		log.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	return dir
}

func ExampleTable() {
	dir := tempCorpus(map[string]string{"iris.csv": "sepal,petal,species\n5.1,1.4,setosa\n6.3,6.0,virginica\n"})
	defer os.RemoveAll(dir)
	t, err := numtable.ReadTable(filepath.Join(dir, "iris.csv"), "species")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(t.Header, t.Features, t.Labels)
	// Output: [sepal petal] [[5.1 1.4] [6.3 6]] [setosa virginica]
}

func ExampleTableReader() {
	dir := tempCorpus(map[string]string{"iris.csv": "id,sepal,species\na7,5.1,setosa\nb2,6.3,virginica\n"})
	defer os.RemoveAll(dir)
	r, err := numtable.OpenTable(filepath.Join(dir, "iris.csv"), "species")
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	for r.Next() { // the id column is never parsed
		sepal, err := r.Float(1)
		if err != nil {
			log.Fatal(err)
		}
		label, err := r.Label()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(r.Line(), sepal, label)
	}
	fmt.Println(r.Err())
	// Output:
	// 2 5.1 setosa
	// 3 6.3 virginica
	// <nil>
}
