package serve

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed static
var static embed.FS

var files = func() http.Handler {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err)
	}
	return http.FileServerFS(sub)
}()

// page serves the web page at / and its files under /static/.
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if r.URL.Path == "/" {
		http.ServeFileFS(w, r, static, "static/index.html")
		return
	}
	http.StripPrefix("/static", files).ServeHTTP(w, r)
}
