package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"github.com/toolwall/toolwall/server"
	"github.com/toolwall/toolwall/server/api"
	"github.com/toolwall/toolwall/server/client"
	"github.com/toolwall/toolwall/session"
)

// A server on loopback with one token and in-memory sessions, and a
// client deciding on a call.
func Example() {
	dir, _ := os.MkdirTemp("", "toolwall-example")
	defer os.RemoveAll(dir)
	policy := filepath.Join(dir, "config.toml") // an empty policy: the defaults
	_ = os.WriteFile(policy, nil, 0o600)
	st := session.NewMemory(session.Options{})
	defer st.Close()
	srv, err := server.New(server.Options{ConfigPath: policy, Store: st, Tokens: []string{"s3cret"}})
	if err != nil {
		panic(err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- srv.Serve(ctx, ln) }()

	c := client.New("http://"+ln.Addr().String(), client.Options{Token: "s3cret"})
	d, err := c.Decide(ctx, api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"sudo rm -rf ~"}`), Session: "s1", Home: "/home/me"})
	fmt.Println(d.Action, d.Rules[0], err)

	stop()
	<-done
	srv.Close()
	// Output: deny rm.dangerous-target <nil>
}
