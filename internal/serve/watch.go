package serve

import (
	"context"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// settle is how long a model file must stay quiet after a change before it
// is reloaded: a file written in place changes many times, and a rename
// into place comes with events for the temporary file too.
const settle = 200 * time.Millisecond

// Watch reloads a model when its file is created, written or renamed into
// place, until ctx is done. It watches the folders, not the files: a file
// replaced by rename is a new file, which a watch on the old one would miss.
func (s *Server) Watch(ctx context.Context) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	byPath := map[string][]*slot{}
	dirs := map[string]bool{}
	for _, name := range s.names {
		sl := s.slots[name]
		if sl.path == "" {
			continue
		}
		abs, err := filepath.Abs(sl.path)
		if err != nil {
			return err
		}
		byPath[abs] = append(byPath[abs], sl)
		if dir := filepath.Dir(abs); !dirs[dir] {
			if err := w.Add(dir); err != nil {
				return err
			}
			dirs[dir] = true
		}
	}
	timers := map[*slot]*time.Timer{}
	defer func() {
		for _, t := range timers {
			t.Stop()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			s.opt.Log.Warn("watching model files", "err", err)
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if !ev.Has(fsnotify.Create) && !ev.Has(fsnotify.Write) {
				continue // a removed or renamed-away file: keep serving
			}
			for _, sl := range byPath[filepath.Clean(ev.Name)] {
				if t := timers[sl]; t != nil {
					t.Reset(settle)
					continue
				}
				timers[sl] = time.AfterFunc(settle, func() { s.reload(sl) })
			}
		}
	}
}
