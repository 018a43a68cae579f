package tokenize

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// Cache bounds. A shard that reaches its share starts over: the cache never
// publishes more than cacheEntries words (about 60 MB of short words; words
// waiting to be published add at most a quarter), and frequent words come
// back at once.
const (
	cacheShards    = 64
	cacheEntries   = 1 << 20
	minPending     = 32
	maxCachedBytes = 64 // longer words (base64, long Han runs) skip the cache
)

// termCache maps a word, after lowercasing, to the output of its filter
// chain: the term, or "" when the chain drops the word.
//
// Each shard publishes an immutable map through an atomic pointer, so a hit
// costs a map look-up and writes no shared memory: goroutines that share
// an Analyzer do not fight over a lock's cache line. New words wait in a
// locked pending map until enough of them have come, or have been looked
// up often enough, to publish a new snapshot (as sync.Map promotes its
// dirty map). Snapshots grow geometrically, so copying costs O(1) per word.
type termCache struct {
	seed     maphash.Seed
	perShard int // bound on the words of one shard
	shards   [cacheShards]cacheShard
}

type cacheShard struct {
	read    atomic.Pointer[map[string]string]
	mu      sync.Mutex
	pending map[string]string // words not yet in read
	hits    int               // look-ups answered by pending
	copied  int               // words copied from read to new snapshots, ever: the amortization test reads it
}

// newTermCache returns a cache that holds at most entries words.
func newTermCache(entries int) *termCache {
	c := &termCache{seed: maphash.MakeSeed(), perShard: max(1, entries/cacheShards)}
	for i := range c.shards {
		c.shards[i].read.Store(&map[string]string{})
		c.shards[i].pending = map[string]string{}
	}
	return c
}

func (c *termCache) get(key string) (string, bool) {
	s := &c.shards[maphash.String(c.seed, key)%cacheShards]
	if t, ok := (*s.read.Load())[key]; ok {
		return t, true
	}
	s.mu.Lock()
	t, ok := s.pending[key]
	s.hit(ok, c.perShard)
	s.mu.Unlock()
	return t, ok
}

// getBytes is get for a byte key; m[string(key)] does not allocate.
func (c *termCache) getBytes(key []byte) (string, bool) {
	s := &c.shards[maphash.Bytes(c.seed, key)%cacheShards]
	if t, ok := (*s.read.Load())[string(key)]; ok {
		return t, true
	}
	s.mu.Lock()
	t, ok := s.pending[string(key)]
	s.hit(ok, c.perShard)
	s.mu.Unlock()
	return t, ok
}

func (c *termCache) put(key, term string) {
	s := &c.shards[maphash.String(c.seed, key)%cacheShards]
	s.mu.Lock()
	s.pending[key] = term
	if len(s.pending) >= max(minPending, len(*s.read.Load())/4) {
		s.publish(c.perShard)
	}
	s.mu.Unlock()
}

// hit counts a look-up in pending; once pending has answered as many
// look-ups as it holds words, and a quarter as many as read holds, the
// words are worth publishing. The second bound keeps copying read at O(1)
// per look-up: without it, each new word seen twice would copy read. The
// caller holds s.mu.
func (s *cacheShard) hit(ok bool, limit int) {
	if !ok {
		return
	}
	if s.hits++; s.hits >= len(s.pending) && 4*s.hits >= len(*s.read.Load()) {
		s.publish(limit)
	}
}

// publish merges pending into a new read snapshot, starting over when the
// shard is full. The caller holds s.mu.
func (s *cacheShard) publish(limit int) {
	next, read := s.pending, *s.read.Load()
	if len(read)+len(next) <= limit {
		for k, v := range read {
			next[k] = v
		}
		s.copied += len(read)
	}
	s.read.Store(&next)
	s.pending, s.hits = map[string]string{}, 0
}

func (c *termCache) len() int {
	n := 0
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		n += len(*s.read.Load()) + len(s.pending)
		s.mu.Unlock()
	}
	return n
}
