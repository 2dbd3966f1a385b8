package server

import (
	"strings"
	"testing"

	"github.com/toolwall/toolwall/server/api"
)

// TestNoHomeIncomplete: with no home to fall back on (the server's own
// unknown too), a call without one is refused as incomplete and names
// what is missing; one with a home is read.
func TestNoHomeIncomplete(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.opts.Home = ""
	if _, err := s.call("t", api.Call{Tool: "Bash", Cwd: "/w"}); err == nil || !strings.Contains(err.Error(), `"home" is required`) {
		t.Errorf("no home: %v", err)
	}
	if c, err := s.call("t", api.Call{Tool: "Bash", Cwd: "/w", Home: "/home/u"}); err != nil || c.Home != "/home/u" {
		t.Errorf("with a home: %+v %v", c, err)
	}
}
