package bench

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
)

// SklearnSystem is one scikit-learn system's result on a test part.
type SklearnSystem struct {
	Pipeline    string    `json:"pipeline"`
	CVAccuracy  float64   `json:"cv_accuracy"`   // on the inner folds of the training part
	FitPredictS float64   `json:"fit_predict_s"` // the chosen pipeline alone
	Pred        []string  `json:"pred"`
	Score       []float64 `json:"score,omitempty"` // the positive class's score, two classes only
}

// SklearnFold is what benchmarks/sklearn_folds.py prints for one outer fold.
type SklearnFold struct {
	Fold         int           `json:"fold"`
	Labels       []string      `json:"labels"`
	InnerSearchS float64       `json:"inner_search_s"` // both systems' inner cross-validation
	NB           SklearnSystem `json:"nb"`
	SVM          SklearnSystem `json:"svm"`
}

// SklearnJob is one corpus's folds for sklearn_folds.py.
type SklearnJob struct {
	Key      string // names the corpus and its variant in the cache
	Fold     Fold
	Zh       bool   // character n-grams
	Mail     bool   // files are raw mail, decoded by mail_text.py
	Positive string // the positive class of two, for scores
}

// Cache holds scikit-learn's results in a JSON file, keyed by corpus,
// fold fingerprint and the scripts' hash: they depend only on the data and
// the seeds. Several programs may share one file; each write merges under a
// lock.
type Cache struct {
	Path string // "" keeps results in memory only
	Only bool   // Cached computes nothing: what the file lacks is ErrNotCached
	mem  map[string]map[int]json.RawMessage
}

// Caches returns the scikit-learn cache at skPath and the textnb cache
// at tnPath (nil when tnPath is ""), which with only computes nothing.
func Caches(skPath, tnPath string, only bool) (sk, tn *Cache) {
	if tnPath != "" {
		tn = &Cache{Path: tnPath, Only: only}
	}
	return &Cache{Path: skPath}, tn
}

func (c *Cache) load() (map[string]map[int]json.RawMessage, error) {
	m := map[string]map[int]json.RawMessage{}
	if c.Path == "" {
		return m, nil
	}
	b, err := os.ReadFile(c.Path)
	if os.IsNotExist(err) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %v", c.Path, err)
	}
	return m, nil
}

// get returns the parts of key, reading the file again when it has none
// in memory: another program may have added them.
func (c *Cache) get(key string) map[int]json.RawMessage {
	if c.mem == nil || c.mem[key] == nil {
		m, err := c.load()
		if err != nil || c.mem == nil {
			c.mem = map[string]map[int]json.RawMessage{}
		}
		if err == nil && m[key] != nil {
			c.mem[key] = m[key]
		}
	}
	return c.mem[key]
}

// Get decodes the cached result of part of key into dst and reports
// whether there was one.
func (c *Cache) Get(key string, part int, dst any) bool {
	raw, ok := c.get(key)[part]
	return ok && json.Unmarshal(raw, dst) == nil
}

// Put records the result of part of key and rewrites the file: read,
// merge, write a temporary file, rename, under an flock of Path+".lock".
func (c *Cache) Put(key string, part int, v any) error {
	f, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.get(key)
	if c.mem[key] == nil {
		c.mem[key] = map[int]json.RawMessage{}
	}
	c.mem[key][part] = f
	if c.Path == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(c.Path), 0o755); err != nil {
		return err
	}
	lock, err := os.OpenFile(c.Path+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	disk, err := c.load()
	if err != nil {
		return err
	}
	if disk[key] == nil {
		disk[key] = map[int]json.RawMessage{}
	}
	disk[key][part] = f
	b, err := json.Marshal(disk)
	if err != nil {
		return err
	}
	tmp := c.Path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, c.Path)
}

// ScriptsHash hashes the Python files of benchmarks/ that results come
// from (and any others named), for cache keys.
func ScriptsHash(more ...string) string {
	h := sha256.New()
	for _, name := range append([]string{"sklearn_folds.py", "sklearn_nb_best.py", "sklearn_pipeline.py", "mail_text.py"}, more...) {
		b, _ := os.ReadFile(filepath.Join(root(), "benchmarks", name))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

var root = sync.OnceValue(Root)

// Sklearn returns scikit-learn's results on every fold of job, from the
// cache where it has them, else by running sklearn_folds.py on the
// missing folds (and caching each as it ends). With cachedOnly it runs
// nothing and returns the folds the cache has, in order (SklearnFold.Fold
// says which).
func Sklearn(c *Cache, job SklearnJob, cachedOnly bool) ([]SklearnFold, error) {
	key := fmt.Sprintf("%s %s %s", job.Key, job.Fold.Fingerprint[:16], ScriptsHash())
	have := c.get(key)
	type mfold struct {
		Index int    `json:"index"`
		Train string `json:"train"`
		Test  string `json:"test"`
	}
	var missing []mfold
	for i, s := range job.Fold.Splits {
		if _, ok := have[i]; !ok {
			missing = append(missing, mfold{i, s.Train, s.Test})
		}
	}
	if len(missing) > 0 && cachedOnly {
		var part []SklearnFold
		for i := range job.Fold.Splits {
			var f SklearnFold
			if c.Get(key, i, &f) {
				part = append(part, f)
			}
		}
		return part, nil
	}
	if len(missing) > 0 {
		if err := runSklearn(c, key, job, missing); err != nil {
			return nil, err
		}
	}
	out := make([]SklearnFold, len(job.Fold.Splits))
	for i := range out {
		if !c.Get(key, i, &out[i]) {
			return nil, fmt.Errorf("sklearn_folds.py %s: no result for fold %d", job.Key, i)
		}
	}
	return out, nil
}

func runSklearn[F any](c *Cache, key string, job SklearnJob, folds []F) error {
	m, err := os.CreateTemp("", "sklearn-manifest-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(m.Name())
	var positive any
	if job.Positive != "" {
		positive = job.Positive
	}
	if err := json.NewEncoder(m).Encode(map[string]any{
		"zh": job.Zh, "mail": job.Mail, "inner": 5, "positive": positive, "folds": folds,
	}); err != nil {
		return err
	}
	m.Close()
	cmd := exec.Command(Python(), filepath.Join(Root(), "benchmarks", "sklearn_folds.py"), m.Name())
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<30)
	for sc.Scan() {
		var f SklearnFold
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			return fmt.Errorf("sklearn_folds.py %s: %v", job.Key, err)
		}
		if err := c.Put(key, f.Fold, f); err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			return err
		}
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("sklearn_folds.py %s: %v", job.Key, err)
	}
	return sc.Err()
}

// ErrNotCached is Cached's error for a result missing from a Cache with Only.
var ErrNotCached = errors.New("not in the cache")

// Cached decodes part of key into dst from c, or runs compute, stores its
// result in dst and caches it. A nil c always computes.
func Cached[T any](c *Cache, key string, part int, dst *T, compute func() (T, error)) error {
	if c != nil && c.Get(key, part, dst) {
		return nil
	}
	if c != nil && c.Only {
		return ErrNotCached
	}
	v, err := compute()
	if err != nil {
		return err
	}
	*dst = v
	if c == nil {
		return nil
	}
	return c.Put(key, part, v)
}

// FileHash returns the first 16 hex digits of the SHA-256 of a file, such
// as a textnb binary for keys of its cached results.
func FileHash(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8]), nil
}
