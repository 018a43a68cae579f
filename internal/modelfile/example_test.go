package modelfile_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/pipeline"
)

func ExampleFileKind() {
	tr, err := pipeline.NewTrainer(pipeline.Config{})
	if err != nil {
		log.Fatal(err)
	}
	tr.Add("spam", "WIN a free prize now")
	tr.Add("ham", "see you at lunch")
	m, _, err := tr.Finish()
	if err != nil {
		log.Fatal(err)
	}
	path := filepath.Join(os.TempDir(), "textnb-example.model")
	defer os.Remove(path)
	if err := modelfile.Save(path, m); err != nil {
		log.Fatal(err)
	}
	k, err := modelfile.FileKind(path)
	fmt.Println(k, err)
	// Output: text model <nil>
}
