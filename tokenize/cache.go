package tokenize

import (
	"hash/maphash"
	"sync"

	"github.com/textnb/textnb/internal/termtab"
)

// Cache bounds. A shard of the shared cache that reaches its share starts
// over, as does a worker's memory of words: frequent words come back at
// once. The shared cache holds at most cacheEntries words (about 60 MB of
// short words); a worker's memory maxSeen (about 5 MB), a pooled worker's,
// one per core that the garbage collector empties, maxPooledSeen (about 0.6
// MB). A worker's memory may keep terms alive that the shared cache has
// dropped.
const (
	cacheShards    = 64
	cacheEntries   = 1 << 20
	maxSeen        = 1 << 16
	maxPooledSeen  = 1 << 13
	maxCachedBytes = 64 // longer words (base64, long Han runs) skip the caches
)

// termCache maps a word, after lowercasing, to its term (Analyzer.filter),
// or "" when the rules drop the word. All workers of an Analyzer share it,
// so that each word is stemmed about once; they ask it only for words new
// to them (see seenWords), so a lock per shard costs little.
type termCache struct {
	seed     maphash.Seed
	perShard int // bound on the words of one shard
	shards   [cacheShards]cacheShard
}

type cacheShard struct {
	mu    sync.Mutex
	words map[string]string
	_     [48]byte // 64 bytes a shard, so that neighbours rarely share a cache line
}

// newTermCache returns a cache that holds at most entries words.
func newTermCache(entries int) *termCache {
	return &termCache{seed: maphash.MakeSeed(), perShard: max(1, entries/cacheShards)}
}

func (c *termCache) shard(key string) *cacheShard {
	return &c.shards[maphash.String(c.seed, key)%cacheShards]
}

// get returns the term of key; key may be a view of scratch space.
func (c *termCache) get(key string) (string, bool) {
	s := c.shard(key)
	s.mu.Lock()
	t, ok := s.words[key]
	s.mu.Unlock()
	return t, ok
}

// put caches the term of key, which the cache keeps.
func (c *termCache) put(key, term string) {
	s := c.shard(key)
	s.mu.Lock()
	if s.words == nil || len(s.words) >= c.perShard {
		s.words = make(map[string]string)
	}
	s.words[key] = term
	s.mu.Unlock()
}

func (c *termCache) len() int {
	n := 0
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		n += len(s.words)
		s.mu.Unlock()
	}
	return n
}

// seenWords is a worker's memory of the words it has seen and their terms:
// the words in a pointer-free table, their terms by the words' ids. It
// holds at most limit words, then starts over.
type seenWords struct {
	words termtab.Table
	terms []string
	limit int
}

// lookup returns the id of word w and whether w has been seen. A word not
// seen is added with an empty term, which the caller sets in terms[id]; a
// copy of w is kept, so w may be a view of scratch space.
func (s *seenWords) lookup(w string) (id int32, seen bool) {
	if len(s.terms) >= s.limit {
		clear(s.terms)
		s.words, s.terms = termtab.Table{}, s.terms[:0]
	}
	if id = s.words.Intern(w); int(id) < len(s.terms) {
		return id, true
	}
	s.terms = append(s.terms, "")
	return id, false
}
